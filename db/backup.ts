import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { newPglite, PGLITE_EXTENSIONS, pgliteDataDir } from "./client";
import { PGlite } from "@electric-sql/pglite";

/**
 * Backups (`npm run db:backup` / `npm run db:restore`, docs/operations.md "Backups and restore"):
 * PostgreSQL through pg_dump's custom format and pg_restore; the embedded database through PGlite's own
 * data-directory dump (a .tar.gz) and `loadDataDir`. Each function throws a BackupError with a message
 * meant for the operator.
 */
export class BackupError extends Error {}

export interface BackupResult {
  file: string;
  bytes: number;
  ms: number;
}

export interface RestoreResult {
  ms: number;
  /** Applied migrations found in the restored database: `npm run db:migrate` brings an older one up. */
  migrations: number;
  users: number;
}

/** A connection string without its password, which goes to the child through PGPASSWORD instead of argv. */
function clientArgs(url: string): { url: string; env: NodeJS.ProcessEnv } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new BackupError("the database URL is not a valid postgres:// URL");
  }
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (parsed.password) {
    env.PGPASSWORD = decodeURIComponent(parsed.password);
    parsed.password = "";
  }
  return { url: parsed.toString(), env };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "inherit", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-8000);
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      reject(new BackupError(error.code === "ENOENT" ? `${command} is not installed (PostgreSQL's client tools, the server's major version or newer, must be on PATH)` : error.message));
    });
    child.on("close", (code) => (code === 0 ? resolve() : reject(new BackupError(`${command} failed (exit ${code}): ${stderr.trim()}`))));
  });
}

function capture(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-8000)));
    child.on("error", (error: NodeJS.ErrnoException) => reject(new BackupError(error.code === "ENOENT" ? `${command} is not installed` : error.message)));
    child.on("close", (code) => (code === 0 ? resolve(stdout) : reject(new BackupError(`${command} failed (exit ${code}): ${stderr.trim()}`))));
  });
}

/**
 * The dump's table of contents minus what a database owner who is not a superuser cannot restore: the
 * extensions' comments (only an extension's owner may comment on it) and the extensions the target already
 * has (earthdistance is not a trusted extension: an administrator, or the provider's extension list,
 * creates it once in the new database before the restore).
 */
export function restoreList(list: string, existingExtensions: ReadonlySet<string>): string {
  return list
    .split("\n")
    .map((line) => {
      if (/^\d+; \d+ \d+ COMMENT - EXTENSION \S+/.test(line)) return `;${line}`;
      const extension = /^\d+; \d+ \d+ EXTENSION - (\S+)/.exec(line);
      return extension && existingExtensions.has(extension[1]!) ? `;${line}` : line;
    })
    .join("\n");
}

function temporaryBeside(file: string): string {
  return `${file}.partial-${process.pid}`;
}

function ensureNewFile(file: string): void {
  if (existsSync(file)) throw new BackupError(`${file} already exists; choose another file`);
  mkdirSync(path.dirname(file), { recursive: true });
}

/** pg_dump --format=custom into `file` (written beside it and renamed, so a failed dump leaves nothing). */
export async function backupPostgres(url: string, file: string): Promise<BackupResult> {
  const started = performance.now();
  const target = path.resolve(file);
  ensureNewFile(target);
  const partial = temporaryBeside(target);
  const client = clientArgs(url);
  try {
    await run("pg_dump", ["--format=custom", "--file", partial, "--dbname", client.url], client.env);
    renameSync(partial, target);
  } finally {
    rmSync(partial, { force: true });
  }
  return { file: target, bytes: statSync(target).size, ms: Math.round(performance.now() - started) };
}

async function inspectTarget(url: string): Promise<{ relations: number; extensions: Set<string> }> {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    const [row] = await sql<{ count: number }[]>`
      select count(*)::int as count from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p', 'v', 'm', 'S', 'f') and n.nspname not in ('pg_catalog', 'information_schema')
        and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%'`;
    const extensions = await sql<{ name: string }[]>`select extname as name from pg_extension`;
    return { relations: row!.count, extensions: new Set(extensions.map((extension) => extension.name)) };
  } catch (error) {
    throw new BackupError(`cannot connect to the target database: ${(error as Error).message}`);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function restoredCounts(url: string): Promise<{ migrations: number; users: number }> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [migrations] = await sql<{ count: number }[]>`select count(*)::int as count from drizzle.__drizzle_migrations`;
    const [users] = await sql<{ count: number }[]>`select count(*)::int as count from users`;
    return { migrations: migrations!.count, users: users!.count };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

function assertFormat(file: string, kind: "postgres" | "pglite"): void {
  if (!existsSync(file)) throw new BackupError(`${file} does not exist`);
  const head = readFileSync(file).subarray(0, 5);
  const isDump = head.toString("latin1") === "PGDMP";
  const isGzip = head[0] === 0x1f && head[1] === 0x8b;
  if (kind === "postgres" && !isDump) throw new BackupError(`${file} is not a pg_dump custom-format file${isGzip ? " (it looks like an embedded-database backup: restore it with --data-dir)" : ""}`);
  if (kind === "pglite" && !isGzip) throw new BackupError(`${file} is not an embedded-database backup (.tar.gz)${isDump ? " (it is a pg_dump file: restore it with --database-url)" : ""}`);
}

/**
 * pg_restore into an empty database, in one transaction (all or nothing), owners left to the restoring
 * role. A database with tables in it is refused unless `force`, which drops what the dump holds first.
 */
export async function restorePostgres(url: string, file: string, options: { force?: boolean } = {}): Promise<RestoreResult> {
  const started = performance.now();
  const source = path.resolve(file);
  assertFormat(source, "postgres");
  const { relations, extensions } = await inspectTarget(url);
  if (relations > 0 && !options.force) {
    throw new BackupError(`the target database is not empty (${relations} tables, views or sequences); restore into a new database (createdb) or pass --force to replace its contents`);
  }
  const client = clientArgs(url);
  const listFile = temporaryBeside(`${source}.list`);
  try {
    writeFileSync(listFile, restoreList(await capture("pg_restore", ["--list", source]), extensions));
    const args = ["--dbname", client.url, "--no-owner", "--exit-on-error", "--single-transaction", "--use-list", listFile];
    if (relations > 0) args.push("--clean", "--if-exists");
    await run("pg_restore", [...args, source], client.env).catch((error: unknown) => {
      if (error instanceof BackupError && /permission denied to create extension/.test(error.message)) {
        throw new BackupError(`${error.message}\nCreate the extensions once as an administrator (CREATE EXTENSION cube; CREATE EXTENSION earthdistance;) in the new database, then restore again.`);
      }
      throw error;
    });
  } finally {
    rmSync(listFile, { force: true });
  }
  return { ms: Math.round(performance.now() - started), ...(await restoredCounts(url)) };
}

/**
 * The embedded database's directory as PGlite dumps it (a gzipped tar). Nothing else may have the data
 * directory open: stop the app first. The development secrets beside it (DATA_DIR/secrets.json) are not
 * in it.
 */
export async function backupPglite(dataDir: string, file: string): Promise<BackupResult> {
  const started = performance.now();
  const target = path.resolve(file);
  const directory = pgliteDataDir(dataDir);
  if (!existsSync(path.join(directory, "PG_VERSION"))) throw new BackupError(`there is no embedded database in ${directory}`);
  if (existsSync(target)) throw new BackupError(`${target} already exists; choose another file`);
  const pglite = newPglite(directory);
  try {
    await pglite.waitReady.catch((error: unknown) => {
      throw new BackupError(`the embedded database in ${directory} does not open: ${(error as Error).message}`);
    });
    await dumpPglite(pglite, target);
  } finally {
    await pglite.close().catch(() => {});
  }
  return { file: target, bytes: statSync(target).size, ms: Math.round(performance.now() - started) };
}

/** An open instance's dump into a new `file` (backupPglite's core; tests dump their in-memory database). */
export async function dumpPglite(pglite: PGlite, file: string): Promise<void> {
  const target = path.resolve(file);
  ensureNewFile(target);
  const partial = temporaryBeside(target);
  try {
    const dump = await pglite.dumpDataDir("gzip");
    writeFileSync(partial, new Uint8Array(await dump.arrayBuffer()));
    renameSync(partial, target);
  } finally {
    rmSync(partial, { force: true });
  }
}

/**
 * Loads a backupPglite file into DATA_DIR's embedded database directory, which must be absent or empty
 * unless `force` (then it is replaced, once the restored copy has opened). The copy is built beside it and
 * renamed into place, so a failure leaves the directory as it was.
 */
export async function restorePglite(dataDir: string, file: string, options: { force?: boolean } = {}): Promise<RestoreResult> {
  const started = performance.now();
  const source = path.resolve(file);
  assertFormat(source, "pglite");
  const directory = pgliteDataDir(dataDir);
  const occupied = existsSync(directory) && readdirSync(directory).length > 0;
  if (occupied && !options.force) throw new BackupError(`${directory} is not empty; stop the app and move it aside, or pass --force to replace it`);
  const building = `${directory}.restoring-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(path.dirname(directory), { recursive: true });
  let counts: { migrations: number; users: number };
  const pglite = new PGlite({ dataDir: building, loadDataDir: new Blob([new Uint8Array(readFileSync(source))]), extensions: PGLITE_EXTENSIONS });
  try {
    await pglite.waitReady;
    const migrations = await pglite.query<{ count: number }>("select count(*)::int as count from drizzle.__drizzle_migrations");
    const users = await pglite.query<{ count: number }>("select count(*)::int as count from users");
    counts = { migrations: migrations.rows[0]!.count, users: users.rows[0]!.count };
    await pglite.close();
  } catch (error) {
    await pglite.close().catch(() => {});
    rmSync(building, { recursive: true, force: true });
    throw new BackupError(`${source} does not load: ${(error as Error).message}`);
  }
  // Replaced only now that the restored copy has opened (an empty directory is simply removed).
  rmSync(directory, { recursive: true, force: true });
  renameSync(building, directory);
  return { ms: Math.round(performance.now() - started), ...counts };
}
