import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { connectPostgres, type DatabaseHandle } from "@/db/client";

/**
 * Runs `scenario` on a database created for it on the PostgreSQL server of `baseUrl` and dropped
 * afterwards, so a bench run never touches the data already there.
 */
export async function onScratchPostgres<T>(baseUrl: string, scenario: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const scratch = await createScratchDatabase(baseUrl);
  const handle = connectPostgres(scratch.url);
  try {
    return await scenario(handle);
  } finally {
    await handle.close();
    await scratch.drop();
  }
}

export interface ScratchDatabase {
  name: string;
  /** `baseUrl` with the scratch database's name. */
  url: string;
  /** Drops it (forcing out whoever is still connected); safe to call twice. */
  drop(): Promise<void>;
}

/** A new, empty database on the PostgreSQL server of `baseUrl`. */
export async function createScratchDatabase(baseUrl: string): Promise<ScratchDatabase> {
  const name = `tagsvc_bench_${randomBytes(4).toString("hex")}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  await admin.unsafe(`CREATE DATABASE "${name}"`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  let dropped: Promise<void> | undefined;
  const drop = () =>
    (dropped ??= (async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
      await admin.end({ timeout: 5 }).catch(() => {});
    })());
  return { name, url: url.toString(), drop };
}

/** Applies the committed migrations to the database at `url`. */
export async function migrateScratch(url: string): Promise<void> {
  const { migrateDatabase } = await import("@/db/migrator");
  const handle = connectPostgres(url, { max: 2 });
  try {
    await migrateDatabase(handle);
  } finally {
    await handle.close();
  }
}
