import { getDatabase } from "./client";
import { migrateDatabase } from "./migrator";

// `npm run db:migrate`: applies the committed migrations to DATABASE_URL (or the embedded database).
async function main() {
  const handle = getDatabase();
  await migrateDatabase(handle);
  console.log(`migrations applied (${handle.kind})`);
  await handle.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
