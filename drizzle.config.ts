import { defineConfig } from "drizzle-kit";

// drizzle-kit only generates migrations from the schema; they are applied by db/migrate.ts.
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema/index.ts",
  out: "./db/migrations",
  casing: "snake_case",
});
