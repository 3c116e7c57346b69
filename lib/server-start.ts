import { MAINTENANCE_BUDGET_MS, withDatabaseBudget } from "@/db/availability";
import { getDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrator";
import { env } from "@/lib/env";
import { prepareIncomingRequests } from "@/lib/http/incoming-requests";
import { startJobs } from "@/lib/jobs/workers";
import { log } from "@/lib/log";
import { runStartupSteps } from "@/lib/startup-steps";
import { resumeCampaigns } from "@/lib/services/campaigns";
import { systemContext } from "@/lib/services/context";
import { seedDatabase } from "@/lib/services/system";

/**
 * Server start: configuration is validated on import of lib/env (a production start without a
 * required secret stops here, naming it); development and embedded databases are migrated; the
 * admin (and outside production the demo content) is seeded; the job workers start.
 */
export async function startServer(): Promise<void> {
  prepareIncomingRequests();
  const handle = getDatabase();
  // One after another; a step that fails (the database away at boot) is retried on its own until it
  // passes, without holding up the others (lib/startup-steps.ts).
  await runStartupSteps([
    {
      name: "database setup",
      run: async () => {
        // Production on PostgreSQL migrates with `npm run db:migrate` before the new version starts.
        if (env.NODE_ENV !== "production" || handle.kind === "pglite") await migrateDatabase(handle);
        const seeded = await withDatabaseBudget(MAINTENANCE_BUDGET_MS, () =>
          seedDatabase(systemContext(handle.db), { adminEmail: env.ADMIN_EMAIL, adminPassword: env.ADMIN_PASSWORD, demo: env.NODE_ENV !== "production" }),
        );
        log.info("database ready", { kind: handle.kind, ...seeded });
      },
    },
    { name: "job workers", run: () => startJobs(handle) },
    {
      name: "campaign resume",
      run: async () => {
        // A campaign whose batch job was lost (retries spent, a crash) carries on where it stopped.
        const resumed = await withDatabaseBudget(MAINTENANCE_BUDGET_MS, () => resumeCampaigns(systemContext(handle.db)));
        if (resumed) log.info("campaigns resumed", { campaigns: resumed });
      },
    },
  ]);
}
