// Arguments of `npm run db:backup` and `npm run db:restore` (scripts/db-backup.ts, scripts/db-restore.ts).

export interface BackupOptions {
  file?: string;
  databaseUrl?: string;
  dataDir?: string;
  force: boolean;
}

export const BACKUP_USAGE = `Usage: npm run db:backup -- [--file PATH] [--database-url URL | --data-dir DIR]

Backs up PostgreSQL (DATABASE_URL or --database-url) with pg_dump --format=custom, or, without a
database URL, the embedded database in DATA_DIR (or --data-dir; stop the app first) as a .tar.gz.
The default file is backups/tag-service-<time>.dump (PostgreSQL) or .tar.gz (embedded); an existing
file is never overwritten. Exit codes: 0 done, 1 failed, 2 bad arguments.`;

export const RESTORE_USAGE = `Usage: npm run db:restore -- --file PATH [--database-url URL | --data-dir DIR] [--force]

Restores a db:backup file. PostgreSQL (DATABASE_URL or --database-url): pg_restore into an empty
database (create one with createdb), in one transaction; --force replaces the contents of a database
that is not empty. Embedded (no database URL): into DATA_DIR (or --data-dir), whose database folder
must be absent or empty unless --force; stop the app first. Then run \`npm run db:migrate\` if the
backup comes from an older release. Exit codes: 0 done, 1 failed, 2 bad arguments.`;

export function parseBackupArgs(argv: string[]): { ok: true; options: BackupOptions } | { ok: true; help: true } | { ok: false; error: string } {
  const options: BackupOptions = { force: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = () => {
      const next = inline ?? argv[++i];
      if (!next || next.startsWith("--")) throw new Error(`${flag} takes a value`);
      return next;
    };
    try {
      if (flag === "--help" || flag === "-h") return { ok: true, help: true };
      else if (flag === "--force") options.force = true;
      else if (flag === "--file") options.file = value();
      else if (flag === "--database-url") options.databaseUrl = value();
      else if (flag === "--data-dir") options.dataDir = value();
      else if (!flag.startsWith("-") && !options.file) options.file = flag;
      else return { ok: false, error: `unknown argument ${arg}` };
    } catch (error) {
      return { ok: false, error: (error as Error).message };
    }
  }
  if (options.databaseUrl && options.dataDir) return { ok: false, error: "--database-url and --data-dir exclude each other" };
  return { ok: true, options };
}

export function defaultBackupFile(kind: "postgres" | "pglite", now = new Date()): string {
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  return `backups/tag-service-${stamp}.${kind === "postgres" ? "dump" : "tar.gz"}`;
}
