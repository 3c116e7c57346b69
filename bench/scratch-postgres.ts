import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { connectPostgres, type DatabaseHandle } from "@/db/client";

/**
 * Runs `scenario` on a database created for it on the PostgreSQL server of `baseUrl` and dropped
 * afterwards, so a bench run never touches the data already there.
 */
export async function onScratchPostgres<T>(baseUrl: string, scenario: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const name = `tagsvc_bench_${randomBytes(4).toString("hex")}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE "${name}"`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const handle = connectPostgres(url.toString());
  try {
    return await scenario(handle);
  } finally {
    await handle.close();
    await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end({ timeout: 5 });
  }
}
