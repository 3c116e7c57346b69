import { afterAll, beforeAll } from "vitest";
import { setDatabase } from "@/db/client";
import { resetRateLimiterForTests } from "@/lib/ratelimit";
import { createTestDatabase, type TestDatabase } from "./database";

// Every integration test file gets its own fresh database, installed as the process-wide handle,
// and a fresh rate limiter.
let database: TestDatabase | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
  setDatabase(database);
  // Rate-limit counts start from zero in every file (a fresh key prefix on Redis).
  resetRateLimiterForTests();
});

afterAll(async () => {
  setDatabase(undefined);
  await database?.drop();
});

export function testDatabase(): TestDatabase {
  if (!database) throw new Error("the test database is not ready");
  return database;
}
