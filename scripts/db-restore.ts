import { BackupError, restorePglite, restorePostgres } from "@/db/backup";
import { env } from "@/lib/env";
import { parseBackupArgs, RESTORE_USAGE } from "./db-backup-options";

// `npm run db:restore`: see RESTORE_USAGE and docs/operations.md "Backups and restore".

async function main(): Promise<number> {
  const parsed = parseBackupArgs(process.argv.slice(2));
  if (!parsed.ok) {
    console.error(`db:restore: ${parsed.error}\n\n${RESTORE_USAGE}`);
    return 2;
  }
  if ("help" in parsed) {
    console.log(RESTORE_USAGE);
    return 0;
  }
  const { options } = parsed;
  if (!options.file) {
    console.error(`db:restore: --file is required\n\n${RESTORE_USAGE}`);
    return 2;
  }
  const url = options.dataDir ? undefined : (options.databaseUrl ?? env.DATABASE_URL);
  try {
    const result = url
      ? await restorePostgres(url, options.file, { force: options.force })
      : await restorePglite(options.dataDir ?? env.DATA_DIR, options.file, { force: options.force });
    console.log(
      `db:restore: restored ${options.file} into ${url ? "PostgreSQL" : "the embedded database"} in ${(result.ms / 1000).toFixed(1)} s: ` +
        `${result.users} users, ${result.migrations} migrations applied (run \`npm run db:migrate\` if this release has more).`,
    );
    return 0;
  } catch (error) {
    console.error(`db:restore: ${error instanceof BackupError ? error.message : String(error)}`);
    return 1;
  }
}

main().then((code) => process.exit(code));
