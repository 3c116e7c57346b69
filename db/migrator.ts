import path from "node:path";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { withDatabaseBudget } from "./availability";
import type { DatabaseHandle } from "./client";

/** Migrations may take long on a big table; they get their own generous database budget. */
const MIGRATION_BUDGET_MS = 30 * 60_000;

export const migrationsFolder = path.resolve(process.cwd(), "db/migrations");

/** Applies the committed drizzle-kit migrations; the same files serve PostgreSQL and PGlite. */
export async function migrateDatabase(handle: DatabaseHandle, folder = migrationsFolder): Promise<void> {
  if (handle.kind === "pglite") {
    await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder: folder });
  } else {
    await withDatabaseBudget(MIGRATION_BUDGET_MS, () => migratePostgres(handle.db as unknown as PostgresJsDatabase, { migrationsFolder: folder }));
  }
}
