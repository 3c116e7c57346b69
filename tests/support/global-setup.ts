import { installJobs } from "@/lib/jobs";
import { createTemplateDatabase, dropDatabase, usingPostgres } from "./database";

// With PostgreSQL, migrate one template database per run; each test file copies it. The template also
// holds pg-boss's schema and the registered jobs' queues, so no test file pays for installing them.
export default async function setup() {
  if (!usingPostgres()) return;
  const template = await createTemplateDatabase(installJobs);
  return async () => {
    await dropDatabase(template);
  };
}
