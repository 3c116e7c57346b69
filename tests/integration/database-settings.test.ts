import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDatabase } from "@/db/client";
import { REQUEST_DATABASE_BUDGET_MS, STATEMENT_TIMEOUT_MS, withDatabaseBudget } from "@/db/availability";
import { defineEndpoint, route } from "@/lib/http";
import { bossDatabaseFor } from "@/lib/jobs/adapters";
import { apiRequest, call, nextTestIp } from "../support/http";
import { usingPostgres, withAdminConnection } from "../support/database";

/**
 * The settings every app connection to PostgreSQL starts with (db/client.ts; docs/database.md, Connection
 * settings): a statement_timeout a little above the request budget, so a statement the request gave up on
 * stops on the server too, and JIT off. The embedded PGlite has neither a pool of clients to protect nor JIT.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function setting(name: string): Promise<string> {
  const rows = (await getDatabase().db.execute(sql`select current_setting(${name}) as value`)) as unknown as Array<{ value: string }>;
  return rows[0]!.value;
}

/** The backends still running a statement that contains `marker`, seen from another connection. */
async function runningWith(marker: string): Promise<number> {
  return withAdminConnection(async (admin) => {
    const [row] = await admin`select count(*)::int as n from pg_stat_activity where state = 'active' and query like ${`%${marker}%`} and pid <> pg_backend_pid()`;
    return (row as { n: number }).n;
  });
}

describe.runIf(usingPostgres())("database connection settings", () => {
  it("starts every app connection with JIT off and the statement timeout above the request budget", async () => {
    expect(STATEMENT_TIMEOUT_MS).toBeGreaterThan(REQUEST_DATABASE_BUDGET_MS);
    expect(await setting("jit")).toBe("off");
    expect(await setting("statement_timeout")).toBe(`${STATEMENT_TIMEOUT_MS / 1000}s`);
  });

  it("cancels a statement on the server when it runs past the timeout", async () => {
    const handle = getDatabase();
    if (handle.kind !== "postgres") throw new Error("PostgreSQL expected");
    const started = performance.now();
    // The bare pool: no client-side deadline, only the server's limit.
    const error = await handle.sql`select pg_sleep(30)`.then(
      () => undefined,
      (failure: unknown) => failure as { code?: string },
    );
    const ms = performance.now() - started;
    expect(error?.code).toBe("57014");
    expect(ms).toBeGreaterThanOrEqual(STATEMENT_TIMEOUT_MS - 100);
    expect(ms).toBeLessThan(STATEMENT_TIMEOUT_MS + 2_000);
  });

  it("stops a request's statement on the server shortly after the request answered 503", async () => {
    const marker = `abandoned_${randomBytes(6).toString("hex")}`;
    const slow = route(defineEndpoint({ method: "GET", path: "/api/v1/test/settings-slow", summary: "test", tags: ["Test"], auth: "public" }), async ({ ctx }) => {
      await ctx.db.execute(sql.raw(`select pg_sleep(30) /* ${marker} */`));
      return { done: true };
    });
    const started = performance.now();
    const response = await call(slow, apiRequest("/api/v1/test/settings-slow", { ip: nextTestIp() }));
    expect(response.status).toBe(503);
    expect(performance.now() - started).toBeLessThan(STATEMENT_TIMEOUT_MS);
    // Answered, but the statement is still running on the server: the request budget does not stop it...
    expect(await runningWith(marker)).toBe(1);
    // ...the statement timeout does.
    await sleep(Math.max(0, STATEMENT_TIMEOUT_MS + 500 - (performance.now() - started)));
    let running = await runningWith(marker);
    for (let attempt = 0; running > 0 && attempt < 20; attempt++) {
      await sleep(100);
      running = await runningWith(marker);
    }
    expect(running).toBe(0);
  });

  it("gives a transaction under a longer budget (jobs, maintenance, migrations) a longer limit of its own", async () => {
    const db = getDatabase().db;
    const inside = await withDatabaseBudget(60_000, () =>
      db.transaction(async (tx) => {
        await tx.execute(sql`select pg_sleep(${(STATEMENT_TIMEOUT_MS + 500) / 1000})`);
        const rows = (await tx.execute(sql`select current_setting('statement_timeout') as value`)) as unknown as Array<{ value: string }>;
        return rows[0]!.value;
      }),
    );
    expect(inside).toMatch(/^\d+(ms|s)$/);
    const ms = inside.endsWith("ms") ? Number.parseInt(inside, 10) : Number.parseInt(inside, 10) * 1000;
    expect(ms).toBeGreaterThan(55_000);
    expect(ms).toBeLessThanOrEqual(61_000);
    // Only for that transaction: the connection is back to the request's limit.
    expect(await setting("statement_timeout")).toBe(`${STATEMENT_TIMEOUT_MS / 1000}s`);
    // A request's transaction keeps the connection's limit.
    const request = await withDatabaseBudget(REQUEST_DATABASE_BUDGET_MS, () =>
      db.transaction(async (tx) => ((await tx.execute(sql`select current_setting('statement_timeout') as value`)) as unknown as Array<{ value: string }>)[0]!.value),
    );
    expect(request).toBe(`${STATEMENT_TIMEOUT_MS / 1000}s`);
  });

  it("lets pg-boss's scripts (install, migrations, maintenance) run past the request's limit", async () => {
    const boss = bossDatabaseFor(getDatabase());
    await expect(boss.executeSql(`BEGIN;\nSELECT pg_sleep(${(STATEMENT_TIMEOUT_MS + 500) / 1000});\nCOMMIT;`, [])).resolves.toBeDefined();
    // Its other statements keep the connection's limit.
    await expect(boss.executeSql(`SELECT pg_sleep(${(STATEMENT_TIMEOUT_MS + 500) / 1000})`, [])).rejects.toMatchObject({ code: "57014" });
  });
});

describe.runIf(!usingPostgres())("embedded database settings", () => {
  it("has no JIT to turn off, and no pool whose abandoned statements need a timeout", async () => {
    const rows = (await getDatabase().db.execute(sql`select pg_jit_available() as jit, current_setting('statement_timeout') as timeout`)) as unknown as { rows: Array<{ jit: boolean; timeout: string }> };
    expect(rows.rows[0]).toEqual({ jit: false, timeout: "0" });
  });
});
