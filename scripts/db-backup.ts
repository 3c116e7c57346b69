import { backupPglite, backupPostgres, BackupError } from "@/db/backup";
import { env } from "@/lib/env";
import { BACKUP_USAGE, defaultBackupFile, parseBackupArgs } from "./db-backup-options";

// `npm run db:backup`: see BACKUP_USAGE and docs/operations.md "Backups and restore".

async function main(): Promise<number> {
  const parsed = parseBackupArgs(process.argv.slice(2));
  if (!parsed.ok) {
    console.error(`db:backup: ${parsed.error}\n\n${BACKUP_USAGE}`);
    return 2;
  }
  if ("help" in parsed) {
    console.log(BACKUP_USAGE);
    return 0;
  }
  const { options } = parsed;
  const url = options.dataDir ? undefined : (options.databaseUrl ?? env.DATABASE_URL);
  const file = options.file ?? defaultBackupFile(url ? "postgres" : "pglite");
  try {
    const result = url ? await backupPostgres(url, file) : await backupPglite(options.dataDir ?? env.DATA_DIR, file);
    console.log(`db:backup: wrote ${result.file} (${(result.bytes / 1024 / 1024).toFixed(1)} MB, ${(result.ms / 1000).toFixed(1)} s) from ${url ? "PostgreSQL" : "the embedded database"}.`);
    return 0;
  } catch (error) {
    console.error(`db:backup: ${error instanceof BackupError ? error.message : String(error)}`);
    return 1;
  }
}

main().then((code) => process.exit(code));
