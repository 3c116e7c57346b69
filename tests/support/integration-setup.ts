import { afterAll, beforeAll } from "vitest";
import { setDatabase } from "@/db/client";
import { createTestDatabase, type TestDatabase } from "./database";

// Every integration test file gets its own fresh database, installed as the process-wide handle.
let database: TestDatabase | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
  setDatabase(database);
});

afterAll(async () => {
  setDatabase(undefined);
  await database?.drop();
});

export function testDatabase(): TestDatabase {
  if (!database) throw new Error("the test database is not ready");
  return database;
}
