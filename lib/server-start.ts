import { MAINTENANCE_BUDGET_MS, withDatabaseBudget } from "@/db/availability";
import { getDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrator";
import { env } from "@/lib/env";
import { prepareIncomingRequests } from "@/lib/http/incoming-requests";
import { startJobs } from "@/lib/jobs/workers";
import { describeError, log } from "@/lib/log";
import { resumeCampaigns } from "@/lib/services/campaigns";
import { systemContext } from "@/lib/services/context";
import { seedDatabase } from "@/lib/services/system/seed";

/**
 * Server start: configuration is validated on import of lib/env (a production start without a
 * required secret stops here, naming it); development and embedded databases are migrated; the
 * admin (and outside production the demo content) is seeded; the job workers start.
 */
export async function startServer(): Promise<void> {
  prepareIncomingRequests();
  const handle = getDatabase();
  // Each step on its own: a failed seed (the database away at start) must not leave this instance without
  // its job workers, or every later enqueue would wait on a job system that never started.
  await startupStep("database setup", async () => {
    // Production on PostgreSQL migrates with `npm run db:migrate` before the new version starts.
    if (env.NODE_ENV !== "production" || handle.kind === "pglite") await migrateDatabase(handle);
    const seeded = await withDatabaseBudget(MAINTENANCE_BUDGET_MS, () =>
      seedDatabase(systemContext(handle.db), { adminEmail: env.ADMIN_EMAIL, adminPassword: env.ADMIN_PASSWORD, demo: env.NODE_ENV !== "production" }),
    );
    log.info("database ready", { kind: handle.kind, ...seeded });
  });
  const jobsStarted = await startupStep("job workers", () => startJobs(handle));
  if (!jobsStarted) return;
  await startupStep("campaign resume", async () => {
    // A campaign whose batch job was lost (retries spent, a crash) carries on where it stopped.
    const resumed = await withDatabaseBudget(MAINTENANCE_BUDGET_MS, () => resumeCampaigns(systemContext(handle.db)));
    if (resumed) log.info("campaigns resumed", { campaigns: resumed });
  });
}

/** Runs one start-up step; a failure is logged (the app still serves, health reports the database). */
async function startupStep(step: string, work: () => Promise<unknown>): Promise<boolean> {
  try {
    await work();
    return true;
  } catch (error) {
    log.error("startup step failed", { step, ...describeError(error) });
    return false;
  }
}
