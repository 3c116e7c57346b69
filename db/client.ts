import path from "node:path";
import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { cube } from "@electric-sql/pglite/contrib/cube";
import { earthdistance } from "@electric-sql/pglite/contrib/earthdistance";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgTransaction } from "drizzle-orm/pg-core";
import postgres, { type Sql } from "postgres";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { traceEmbeddedStatements } from "@/lib/telemetry/pglite";
import { guardPool, STATEMENT_TIMEOUT_MS, type AvailabilityLog, type DatabaseAvailability } from "./availability";
import * as schema from "./schema";

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Either the database or an open transaction: what services run their queries on. */
export type Executor = Database | Transaction;

export type DatabaseHandle =
  | { kind: "postgres"; db: Database; sql: Sql; availability: DatabaseAvailability; close(): Promise<void> }
  | { kind: "pglite"; db: Database; pglite: PGlite; close(): Promise<void> };

/** Seconds to wait for a PostgreSQL connection before the request fails with 503. */
export const CONNECT_TIMEOUT_SECONDS = 3;

/**
 * The pool behind drizzle goes through db/availability.ts: per-request deadlines and a breaker that
 * answers at once while the database is gone. `sql` stays the bare pool (pg-boss, LISTEN, tests).
 */
export function connectPostgres(url: string, options: { max?: number; availabilityLog?: AvailabilityLog } = {}): DatabaseHandle {
  const sql = postgres(url, {
    max: options.max ?? 10,
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
    // postgres.js waits up to 20 s (growing) before reconnecting after failures, which kept the service
    // down long after the database was back; the breaker already keeps traffic off a dead database.
    backoff: () => 0,
    idle_timeout: 30,
    max_lifetime: 60 * 30,
    onnotice: () => {},
    // Settings of every app connection (docs/database.md, Connection settings): statements stop on the server
    // a little after the request budget gives up on them, and no JIT compilation for these short queries.
    connection: { application_name: "tag-service", statement_timeout: STATEMENT_TIMEOUT_MS, jit: "off" },
  });
  const availabilityLog: AvailabilityLog = options.availabilityLog ?? ((level, message, fields) => log[level](message, { component: "database", ...fields }));
  const { client, availability } = guardPool(sql, availabilityLog);
  const db = drizzlePostgres(client, { schema, casing: "snake_case" }) as unknown as Database;
  return {
    kind: "postgres",
    db,
    sql,
    availability,
    close: () => {
      availability.close();
      return sql.end({ timeout: 5 });
    },
  };
}

/**
 * The contrib extensions the migrations create: the lost-pet alerts' distance searches (docs/alerts.md) and
 * the trigram indexes of the admin user search (docs/decisions/0047-trigram-search-and-statement-timeout.md).
 */
export const PGLITE_EXTENSIONS = { cube, earthdistance, pg_trgm };

/** A new embedded PostgreSQL with the extensions the schema needs; `dataDir` undefined means in memory. */
export function newPglite(dataDir?: string): PGlite {
  return new PGlite({ dataDir, extensions: PGLITE_EXTENSIONS });
}

/** Embedded PostgreSQL; `dataDir` undefined means in memory. */
export function connectPglite(dataDir?: string, existing?: PGlite): DatabaseHandle {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const pglite = existing ?? newPglite(dataDir);
  // Statement spans when tracing is on (lib/telemetry); pg-boss and scripts keep the bare instance.
  const db = drizzlePglite(traceEmbeddedStatements(pglite), { schema, casing: "snake_case" }) as unknown as Database;
  return { kind: "pglite", db, pglite, close: () => pglite.close() };
}

export function pgliteDataDir(dataDir: string): string {
  return path.resolve(dataDir, "pglite");
}

type DatabaseGlobal = { __tagServiceDatabase?: DatabaseHandle };
const store = globalThis as DatabaseGlobal;

/**
 * The process-wide handle, made on first use from the configuration and kept on globalThis so that
 * Next's separate bundles (instrumentation, route handlers, pages) and dev reloads share one pool.
 */
export function getDatabase(): DatabaseHandle {
  if (!store.__tagServiceDatabase) {
    store.__tagServiceDatabase = env.DATABASE_URL ? connectPostgres(env.DATABASE_URL, { max: env.DATABASE_POOL_SIZE }) : connectPglite(pgliteDataDir(env.DATA_DIR));
  }
  return store.__tagServiceDatabase;
}

/** Replace the process-wide handle (tests choose a fresh database per file; scripts their own). */
export function setDatabase(handle: DatabaseHandle | undefined): void {
  store.__tagServiceDatabase = handle;
}

export { schema };
