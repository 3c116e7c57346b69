import type { PGlite } from "@electric-sql/pglite";

/**
 * The embedded database's start-up check (docs/database.md, "The embedded database after a crash"). PGlite
 * recovers from its write-ahead log like PostgreSQL after a process is killed; a data directory damaged
 * some other way (files deleted or edited, a full disk, a copy taken while it was open, another PGlite
 * version) fails to open or to read. Without this check the server's start-up steps would retry such a
 * directory every few seconds for ever and every request would fail; with it the start stops at once and
 * says how to recover.
 */
export interface EmbeddedDatabaseCheck {
  ok: boolean;
  /** Time to open the data directory, recovery included. */
  openMs: number;
  /** Tables read (every table in every schema but the system ones). */
  tables: number;
  rows: number;
  /** Why it is unusable, when it is. */
  error?: string;
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return text.replace(/\s+/g, " ").trim() || "unknown error";
}

/** Every user table, schema-qualified and quoted; pg-boss's and drizzle's own schemas included. */
export async function userTables(pglite: Pick<PGlite, "query">): Promise<string[]> {
  const result = await pglite.query<{ name: string }>(
    `select format('%I.%I', schemaname, tablename) as name from pg_tables
     where schemaname not in ('pg_catalog', 'information_schema') order by schemaname, tablename`,
  );
  return result.rows.map((row) => row.name);
}

/**
 * Opens (waits for) the instance and counts the rows of every table: a damaged directory fails to open
 * ("PGlite failed to initialize properly", "Aborted()") or to read a page ("invalid page in block …").
 * Reading every table costs about 0.1 s on a development database; a fresh directory has none yet.
 */
export async function checkEmbeddedDatabase(pglite: PGlite): Promise<EmbeddedDatabaseCheck> {
  const started = performance.now();
  let openMs = 0;
  let tables = 0;
  let rows = 0;
  try {
    await pglite.waitReady;
    openMs = Math.round(performance.now() - started);
    for (const table of await userTables(pglite)) {
      const result = await pglite.query<{ count: number }>(`select count(*)::int as count from ${table}`);
      rows += result.rows[0]?.count ?? 0;
      tables++;
    }
    return { ok: true, openMs, tables, rows };
  } catch (error) {
    return { ok: false, openMs: openMs || Math.round(performance.now() - started), tables, rows, error: errorText(error) };
  }
}

/** What the start says when the check fails: what happened and the two ways back. */
export function damagedDataDirMessage(dataDir: string, pgliteDir: string, error: string): string {
  return [
    `The embedded database in ${pgliteDir} cannot be used: ${error}`,
    "",
    "Its files are damaged or were written by another version of PGlite (the app being killed does not do this;",
    "a power cut, a full disk or a copy taken while it was open can). It is for development; to recover, stop the app and",
    `  - restore a backup made with \`npm run db:backup\`: move ${pgliteDir} aside, then`,
    `    \`DATA_DIR=${dataDir} npm run db:restore -- --file <backup.tar.gz>\`, or`,
    `  - start over with the demo data: delete ${pgliteDir} (\`rm -rf ${pgliteDir}\`; the generated development`,
    `    secrets beside it in ${dataDir} stay); the next start creates it again.`,
  ].join("\n");
}
