import type { PGlite, Transaction as PgliteTransaction } from "@electric-sql/pglite";
import type { Sql, TransactionSql } from "postgres";
import type PgBoss from "pg-boss";
import type { DatabaseHandle, Transaction } from "@/db/client";

/**
 * pg-boss talks to the database only through `db.executeSql(text, values)`. These adapters give it our
 * connections (the pool, PGlite, or an open drizzle transaction) instead of letting it open a `pg` pool.
 */
export type BossDatabase = PgBoss.Db;

type QueryRows = { rows: unknown[] };

/**
 * What pg-boss sends as parameters, made acceptable to postgres.js and PGlite:
 * `undefined` (unset options) becomes `null`, and plain objects (job data, queue options, error output)
 * are serialised here, because the json/jsonb serialisers pass strings through unchanged.
 * Arrays (job ids for `uuid[]`), dates, buffers and scalars pass as they are.
 */
export function normalizeParameters(values: readonly unknown[]): unknown[] {
  return values.map((value) => {
    if (value === undefined) return null;
    if (value === null || typeof value !== "object") return value;
    if (Array.isArray(value) || value instanceof Date || value instanceof Uint8Array) return value;
    return JSON.stringify(value);
  });
}

/** pg-boss's install, migration and maintenance scripts wrap themselves in `BEGIN; … COMMIT;`. */
export function isTransactionScript(text: string): boolean {
  return /(^|;)\s*BEGIN\s*;/i.test(text);
}

/**
 * pg-boss's scripts (install, its schema migrations, maintenance over the job tables) may run far longer
 * than a request: on PostgreSQL they get this statement_timeout instead of the app connection's
 * (db/availability.ts STATEMENT_TIMEOUT_MS, made for the request budget).
 */
export const JOBS_SCRIPT_STATEMENT_TIMEOUT_MS = 15 * 60_000;

/** The script with its own statement_timeout set first thing inside its transaction (SET LOCAL ends with it). */
export function withScriptStatementTimeout(text: string, ms: number): string {
  return text.replace(/(^|;)(\s*BEGIN\s*;)/i, (_, before: string, begin: string) => `${before}${begin}\nSET LOCAL statement_timeout = ${Math.trunc(ms)};`);
}

/** postgres.js answers a multi-statement simple query with one result per statement; pg-boss wants the last. */
function lastResultRows(result: unknown): unknown[] {
  const rows = Array.from(result as ArrayLike<unknown>);
  const last = rows.at(-1);
  const isResultList = rows.length > 0 && rows.every((entry) => Array.isArray(entry) && "command" in entry);
  return isResultList ? Array.from(last as ArrayLike<unknown>) : rows;
}

const JSON_TYPE = 114;
const JSONB_TYPE = 3802;

/** Same as drizzle's postgres-js driver does on the shared client: JSON arrives already serialised. */
function passJsonStringsThrough(sql: Sql): void {
  const serializers = sql.options.serializers;
  const passThrough = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));
  serializers[JSON_TYPE] = passThrough;
  serializers[JSONB_TYPE] = passThrough;
}

type UnsafeClient = Pick<Sql, "unsafe"> | Pick<TransactionSql, "unsafe">;

async function runOnPostgres(client: UnsafeClient, text: string, values?: readonly unknown[]): Promise<QueryRows> {
  const parameters = values?.length ? (normalizeParameters(values) as never[]) : [];
  const result = await client.unsafe(text, parameters);
  return { rows: lastResultRows(result) };
}

function postgresDatabase(sql: Sql): BossDatabase {
  passJsonStringsThrough(sql);
  return {
    async executeSql(text, values) {
      if (values?.length || !isTransactionScript(text)) return runOnPostgres(sql, text, values);
      // postgres.js refuses BEGIN on a pooled connection (UNSAFE_TRANSACTION); a reserved one is ours alone.
      const reserved = await sql.reserve();
      try {
        return await runOnPostgres(reserved, withScriptStatementTimeout(text, JOBS_SCRIPT_STATEMENT_TIMEOUT_MS));
      } catch (error) {
        // A failed script leaves its transaction open and aborted; never hand that connection back as is.
        await reserved.unsafe("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        reserved.release();
      }
    },
  };
}

type PgliteTarget = Pick<PGlite, "query" | "exec"> | Pick<PgliteTransaction, "query" | "exec">;

function pgliteDatabase(target: PgliteTarget): BossDatabase {
  return {
    async executeSql(text, values) {
      if (!values?.length) {
        // pg-boss sends multi-statement SQL without parameters; only exec runs more than one statement.
        const results = await target.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      }
      const result = await target.query(text, normalizeParameters(values));
      return { rows: result.rows };
    },
  };
}

/** The adapter over a handle's own connections (pool or PGlite instance). */
export function bossDatabaseFor(handle: DatabaseHandle): BossDatabase {
  return handle.kind === "postgres" ? postgresDatabase(handle.sql) : pgliteDatabase(handle.pglite);
}

/**
 * The drivers' transaction objects, as drizzle keeps them: `tx.session.client` is postgres.js's
 * `TransactionSql` (or its savepoint) and PGlite's `Transaction`. Both are where the open transaction lives.
 */
function transactionClient(tx: Transaction): unknown {
  const session = (tx as unknown as { session?: { client?: unknown } }).session;
  if (!session?.client) throw new Error("Cannot reach the driver client of this drizzle transaction");
  return session.client;
}

/** The adapter over an open drizzle transaction: what `send(…, { db })` needs to join the caller's transaction. */
export function bossDatabaseForTransaction(kind: DatabaseHandle["kind"], tx: Transaction): BossDatabase {
  const client = transactionClient(tx);
  if (kind === "pglite") {
    const target = client as PgliteTarget;
    if (typeof target.query !== "function" || typeof target.exec !== "function") throw new Error("Not a PGlite transaction");
    return pgliteDatabase(target);
  }
  const target = client as Pick<TransactionSql, "unsafe">;
  if (typeof target.unsafe !== "function") throw new Error("Not a postgres.js transaction");
  return {
    // Inside the caller's transaction there is no BEGIN script to isolate: every statement runs on it.
    executeSql: (text, values) => runOnPostgres(target, text, values),
  };
}
