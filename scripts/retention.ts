import { getDatabase } from "@/db/client";
import { runRetention } from "@/lib/services/retention";

/**
 * `npm run db:retention [-- --budget-minutes N]`: one retention run now, the same as the daily job
 * (docs/operations.md#retention). Safe beside the job or another run: batches skip each other's rows.
 * Prints the run's counts as JSON (the job logs the same line).
 */
async function main() {
  const at = process.argv.indexOf("--budget-minutes");
  const minutes = at >= 0 ? Number(process.argv[at + 1]) : undefined;
  if (minutes !== undefined && !(Number.isFinite(minutes) && minutes > 0)) throw new Error("--budget-minutes takes a positive number");
  const handle = getDatabase();
  try {
    const report = await runRetention(handle.db, minutes ? { budgetMs: minutes * 60_000 } : {});
    console.log(JSON.stringify(report, null, 2));
  } finally {
    await handle.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
