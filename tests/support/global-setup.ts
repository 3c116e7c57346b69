import { createTemplateDatabase, dropDatabase, usingPostgres } from "./database";

// With PostgreSQL, migrate one template database per run; each test file copies it.
export default async function setup() {
  if (!usingPostgres()) return;
  const template = await createTemplateDatabase();
  return async () => {
    await dropDatabase(template);
  };
}
