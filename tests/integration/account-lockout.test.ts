import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { generate } from "otplib";
import { getDatabase, schema } from "@/db/client";
import { POST as changePasswordRoute } from "@/app/api/v1/auth/change-password/route";
import { POST as disableRoute } from "@/app/api/v1/auth/disable-2fa/route";
import { POST as enableRoute } from "@/app/api/v1/auth/enable-2fa/route";
import { POST as verifyRoute } from "@/app/api/v1/auth/verify-2fa/route";
import { DELETE as deleteMeRoute } from "@/app/api/v1/auth/me/route";
import { prepareJobs, stopJobs } from "@/lib/jobs";
import { apiRequest, awayFromWindowEdge, call, json, nextTestIp } from "../support/http";
import { bearer, loginAccount, registerAccount, type TestAccount } from "../support/auth";

// docs/decisions/0012-rate-limits.md: 10 failed attempts per account per 15 minutes, from any IP, then 429.
const LOCKOUT_LIMIT = 10;
const LOCKOUT_WINDOW_MS = 15 * 60_000;
const PARALLEL_GUESSES = 14;

beforeAll(async () => {
  await prepareJobs();
});

afterAll(async () => {
  await stopJobs();
});

/** Sends `count` requests at once and tallies their statuses. */
async function statusesOf(count: number, send: () => Promise<Response>): Promise<Record<number, number>> {
  const responses = await Promise.all(Array.from({ length: count }, send));
  const tally: Record<number, number> = {};
  for (const response of responses) tally[response.status] = (tally[response.status] ?? 0) + 1;
  return tally;
}

const post = (handler: typeof changePasswordRoute, path: string, account: TestAccount, body: unknown) =>
  call(handler, apiRequest(path, { method: "POST", ip: nextTestIp(), headers: bearer(account.accessToken), body }));

describe("the account lockout counts a guess before judging it", () => {
  it(`answers ${PARALLEL_GUESSES} simultaneous wrong logins with ${LOCKOUT_LIMIT} × 401 and the rest 429, each from its own IP`, async () => {
    await awayFromWindowEdge(LOCKOUT_WINDOW_MS, 60_000);
    const account = await registerAccount();
    const tally = await statusesOf(PARALLEL_GUESSES, () => loginAccount(account.email, "Wrong-passw0rd"));
    expect(tally).toEqual({ 401: LOCKOUT_LIMIT, 429: PARALLEL_GUESSES - LOCKOUT_LIMIT });
    expect((await loginAccount(account.email, account.password)).status).toBe(429);
  });

  it("does not count a right password: many sign-ins in a row never lock the account out", async () => {
    await awayFromWindowEdge(LOCKOUT_WINDOW_MS, 60_000);
    const account = await registerAccount();
    for (let i = 0; i < LOCKOUT_LIMIT + 2; i++) expect((await loginAccount(account.email, account.password)).status).toBe(200);
    // Every failure is still available: the successful sign-ins were taken back.
    for (let i = 0; i < LOCKOUT_LIMIT; i++) expect((await loginAccount(account.email, "Wrong-passw0rd")).status).toBe(401);
    expect((await loginAccount(account.email, account.password)).status).toBe(429);
  });

  it("holds for change-password: simultaneous wrong current passwords never exceed the limit", async () => {
    await awayFromWindowEdge(LOCKOUT_WINDOW_MS, 60_000);
    const account = await registerAccount();
    const tally = await statusesOf(PARALLEL_GUESSES, () =>
      post(changePasswordRoute, "/api/v1/auth/change-password", account, { currentPassword: "Wrong-passw0rd", newPassword: "N3w-Passw0rd!" }),
    );
    expect(tally).toEqual({ 401: LOCKOUT_LIMIT, 429: PARALLEL_GUESSES - LOCKOUT_LIMIT });
    expect((await loginAccount(account.email, account.password)).status).toBe(429);
  });

  it("holds for delete-account: simultaneous wrong passwords never exceed the limit and nothing is deleted", async () => {
    await awayFromWindowEdge(LOCKOUT_WINDOW_MS, 60_000);
    const account = await registerAccount();
    const tally = await statusesOf(PARALLEL_GUESSES, () =>
      call(deleteMeRoute, apiRequest("/api/v1/auth/me", { method: "DELETE", ip: nextTestIp(), headers: bearer(account.accessToken), body: { currentPassword: "Wrong-passw0rd" } })),
    );
    expect(tally).toEqual({ 401: LOCKOUT_LIMIT, 429: PARALLEL_GUESSES - LOCKOUT_LIMIT });
    const [user] = await getDatabase().db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.id, account.id));
    expect(user?.id).toBe(account.id);
  });

  it("holds for disable-2fa: simultaneous wrong codes never exceed the limit and two-factor stays on", async () => {
    await awayFromWindowEdge(LOCKOUT_WINDOW_MS, 60_000);
    const account = await registerAccount();
    const enabled = await post(enableRoute, "/api/v1/auth/enable-2fa", account, undefined);
    const { secret } = (await json<{ data: { secret: string } }>(enabled)).data;
    const verified = await post(verifyRoute, "/api/v1/auth/verify-2fa", account, { code: await generate({ secret, epoch: Math.floor(Date.now() / 1000) }) });
    expect(verified.status).toBe(200);

    // A backup-code-shaped guess that no account holds (backup codes never use 0, 1, O or I).
    const tally = await statusesOf(PARALLEL_GUESSES, () => post(disableRoute, "/api/v1/auth/disable-2fa", account, { code: "0000-0000" }));
    expect(tally).toEqual({ 401: LOCKOUT_LIMIT, 429: PARALLEL_GUESSES - LOCKOUT_LIMIT });
    const [user] = await getDatabase().db.select({ on: schema.users.twoFactorEnabled }).from(schema.users).where(eq(schema.users.id, account.id));
    expect(user?.on).toBe(true);
  });
});
