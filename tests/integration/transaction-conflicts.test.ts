import { randomUUID } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { getDatabase, schema } from "@/db/client";
import { defineEndpoint, route } from "@/lib/http";
import { withTransaction } from "@/lib/services/context";
import { registerAccount } from "../support/auth";
import { usingPostgres } from "../support/database";
import { apiRequest, call, json, nextTestIp } from "../support/http";

/**
 * Two requests whose transactions take the same two row locks in opposite orders: PostgreSQL breaks the
 * deadlock by rolling one back (40P01). That one answers 503 with Retry-After, the envelope and nothing
 * written; the other completes. (PGlite has one connection: its transactions never interleave.)
 */

let arrived = 0;
let bothHoldTheirFirstLock: () => void = () => {};
let firstLocksHeld = new Promise<void>((resolve) => (bothHoldTheirFirstLock = resolve));

function resetBarrier() {
  arrived = 0;
  firstLocksHeld = new Promise<void>((resolve) => (bothHoldTheirFirstLock = resolve));
}

const renameBoth = route(
  defineEndpoint({
    method: "POST",
    path: "/api/v1/test/rename-both",
    summary: "test",
    tags: ["Test"],
    auth: "public",
    body: z.object({ first: z.uuid(), second: z.uuid(), name: z.string() }),
  }),
  async ({ ctx, body }) =>
    withTransaction(ctx, async (tx) => {
      await tx.db.update(schema.users).set({ firstName: body.name }).where(eq(schema.users.id, body.first));
      if (++arrived === 2) bothHoldTheirFirstLock();
      await firstLocksHeld;
      await tx.db.update(schema.users).set({ firstName: body.name }).where(eq(schema.users.id, body.second));
      return { renamed: 2 };
    }),
);

describe.runIf(usingPostgres())("transactions that conflict", () => {
  it("answers the one PostgreSQL rolls back for a deadlock 503 with Retry-After, writes nothing of it, and completes the other", async () => {
    resetBarrier();
    const [a, b] = await Promise.all([registerAccount(), registerAccount()]);
    const names = { one: `One ${randomUUID().slice(0, 8)}`, two: `Two ${randomUUID().slice(0, 8)}` };
    const send = (first: string, second: string, name: string) =>
      call(renameBoth, apiRequest("/api/v1/test/rename-both", { method: "POST", body: { first, second, name }, ip: nextTestIp() }));
    const responses = await Promise.all([send(a.id, b.id, names.one), send(b.id, a.id, names.two)]);

    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 503]);
    const refused = responses.find((response) => response.status === 503)!;
    expect(refused.headers.get("Retry-After")).toBe("1");
    expect(refused.headers.get("X-Request-Id")).toBeTruthy();
    const body = await json<{ success: boolean; error: { code: string; message: string } }>(refused);
    expect(body.success).toBe(false);
    expect(body.error.code).toBe("SERVICE_UNAVAILABLE");
    expect(body.error.message).toMatch(/try again/i);

    // The winner renamed both rows; nothing of the loser's first update is left.
    const winner = responses.indexOf(responses.find((response) => response.status === 200)!) === 0 ? names.one : names.two;
    const rows = await getDatabase().db.select({ firstName: schema.users.firstName }).from(schema.users).where(inArray(schema.users.id, [a.id, b.id]));
    expect(rows.map((row) => row.firstName)).toEqual([winner, winner]);
  });
});
