import { env } from "@/lib/env";
import { systemContext } from "@/lib/services/context";
import { seedDatabase } from "@/lib/services/system";
import { MAINTENANCE_BUDGET_MS, withDatabaseBudget } from "./availability";
import { getDatabase } from "./client";
import { migrateDatabase } from "./migrator";

// `npm run db:seed`: idempotent. The SUPER_ADMIN from ADMIN_EMAIL/ADMIN_PASSWORD, plus demo content
// outside production.
async function main() {
  const handle = getDatabase();
  if (handle.kind === "pglite") await migrateDatabase(handle);
  const result = await withDatabaseBudget(MAINTENANCE_BUDGET_MS, () =>
    seedDatabase(systemContext(handle.db), { adminEmail: env.ADMIN_EMAIL, adminPassword: env.ADMIN_PASSWORD, demo: env.NODE_ENV !== "production" }),
  );
  console.log(`seed: admin ${result.admin}, demo user ${result.demoUser}`);
  await handle.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
