import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { PGlite } from "@electric-sql/pglite";
import { connectPglite, connectPostgres, newPglite, type DatabaseHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrator";
import { installJobs } from "@/lib/jobs";

/**
 * Fresh databases for integration tests, built from the committed migrations.
 * PostgreSQL (DATABASE_URL set): a new database per test file, created from a template database that
 * global-setup migrated once. PGlite: a clone of a migrated in-memory instance kept per worker.
 */
export type TestDatabase = DatabaseHandle & { name: string; drop(): Promise<void> };

const TEMPLATE_ENV = "TEST_TEMPLATE_DATABASE";

export function usingPostgres(): boolean {
  return Boolean(process.env.DATABASE_URL);
}

export function databaseUrl(name: string, base = process.env.DATABASE_URL!): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

export function uniqueDatabaseName(prefix: string): string {
  return `${prefix}_${process.pid}_${randomBytes(4).toString("hex")}`;
}

export async function withAdminConnection<T>(work: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  try {
    return await work(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Called by global-setup: a migrated template the test files copy. Returns its name. */
export async function createTemplateDatabase(prepare?: (handle: DatabaseHandle) => Promise<void>): Promise<string> {
  const name = uniqueDatabaseName("tagsvc_tpl");
  await withAdminConnection((sql) => sql.unsafe(`CREATE DATABASE "${name}"`));
  const handle = connectPostgres(databaseUrl(name), { max: 1 });
  try {
    await migrateDatabase(handle);
    if (prepare) await prepare(handle);
  } finally {
    await handle.close();
  }
  process.env[TEMPLATE_ENV] = name;
  return name;
}

export async function dropDatabase(name: string): Promise<void> {
  await withAdminConnection((sql) => sql.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

type PgliteGlobal = { __testPgliteBase?: Promise<PGlite> };
const pgliteStore = globalThis as PgliteGlobal;

async function migratedPgliteBase(): Promise<PGlite> {
  pgliteStore.__testPgliteBase ??= (async () => {
    const pglite = newPglite();
    const handle = connectPglite(undefined, pglite);
    await migrateDatabase(handle);
    // pg-boss's schema and queues too, so a clone can enqueue inside a transaction at once.
    await installJobs(handle);
    return pglite;
  })();
  return pgliteStore.__testPgliteBase;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  if (usingPostgres()) {
    const template = process.env[TEMPLATE_ENV];
    if (!template) throw new Error(`${TEMPLATE_ENV} is not set: the integration global setup did not run`);
    const name = uniqueDatabaseName("tagsvc_test");
    for (let attempt = 0; ; attempt++) {
      try {
        await withAdminConnection((sql) => sql.unsafe(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
        break;
      } catch (error) {
        // Two workers copying the template at the same moment can collide; a short retry settles it.
        if (attempt >= 5 || !/being accessed by other users/.test(String(error))) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200 * (attempt + 1)));
      }
    }
    const handle = connectPostgres(databaseUrl(name), { max: 5 });
    return {
      ...handle,
      name,
      drop: async () => {
        await handle.close();
        await dropDatabase(name);
      },
    } as TestDatabase;
  }
  const base = await migratedPgliteBase();
  const clone = (await base.clone()) as PGlite;
  const handle = connectPglite(undefined, clone);
  return { ...handle, name: "pglite-clone", drop: () => handle.close() } as TestDatabase;
}
