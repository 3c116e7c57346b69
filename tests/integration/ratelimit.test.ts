import { randomBytes, randomUUID } from "node:crypto";
import { Redis as IORedis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import {
  checkRateLimits,
  createRateLimiter,
  getRateLimiter,
  rateLimitHealth,
  resetRateLimiterForTests,
  type RateLimitBackendConfig,
  type RateLimiter,
} from "@/lib/ratelimit";
import { HOUR_MS, MINUTE_MS, type RateLimitPolicyOverrides } from "@/lib/ratelimit/policies";
import { awayFromWindowEdge } from "../support/http";

// Rate limiter behaviour on each backend. The Redis backend runs against the real Redis at REDIS_URL
// (CI sets it); without it those tests are skipped.
const REDIS_URL = process.env.REDIS_URL;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function uniqueIp(): string {
  const [a, b, c] = randomBytes(3);
  return `10.${a}.${b}.${c}`;
}

/** The X-RateLimit-Reset a fixed window of this length reports now, in Unix seconds. */
function windowResetSeconds(windowMs: number, nowMs = Date.now()): number {
  return Math.ceil(((Math.floor(nowMs / windowMs) + 1) * windowMs) / 1000);
}

/** Waits for the start of the next window, so a short-window test does not straddle a boundary. */
async function startOfNextWindow(windowMs: number): Promise<void> {
  const now = Date.now();
  await sleep((Math.floor(now / windowMs) + 1) * windowMs - now + 5);
}

const backends: Array<{ name: string; config: RateLimitBackendConfig | undefined }> = [
  { name: "memory", config: { backend: "memory" } },
  { name: "redis", config: REDIS_URL ? { backend: "redis", url: REDIS_URL } : undefined },
];

for (const { name, config } of backends) {
  describe.skipIf(!config)(`rate limiter on the ${name} backend`, () => {
    const limiters: RateLimiter[] = [];
    const warnings: string[] = [];

    function limiter(policies: RateLimitPolicyOverrides, prefix = `tagsvc:rl:test:${randomUUID()}`): RateLimiter {
      const created = createRateLimiter(config!, { prefix, policies, warn: (message) => warnings.push(message) });
      limiters.push(created);
      return created;
    }

    afterAll(async () => {
      await Promise.all(limiters.map((l) => l.close()));
      // A Redis-backed test that silently counted in memory would prove nothing.
      expect(warnings).toEqual([]);
    });

    it("uses the backend it was built for and reports its health", async () => {
      const l = limiter({});
      expect(l.backend).toBe(name);
      expect(await l.health()).toBe(name === "memory" ? "memory" : "ok");
    });

    it("allows N requests, then blocks with remaining 0, the window's reset and a Retry-After", async () => {
      const l = limiter({ auth: { limit: 3, windowMs: HOUR_MS } });
      const subject = { ip: uniqueIp() };
      const resetBefore = windowResetSeconds(HOUR_MS);

      for (let i = 0; i < 3; i++) {
        expect(await l.check(["auth"], subject)).toMatchObject({ allowed: true, policy: "auth", limit: 3, remaining: 2 - i, retryAfter: 0 });
      }
      const blocked = await l.check(["auth"], subject);
      const resetAfter = windowResetSeconds(HOUR_MS);
      const nowSeconds = Date.now() / 1000;

      expect(blocked).toMatchObject({ allowed: false, policy: "auth", limit: 3, remaining: 0 });
      expect([resetBefore, resetAfter]).toContain(blocked.reset);
      expect(blocked.retryAfter).toBeGreaterThanOrEqual(1);
      expect(blocked.retryAfter).toBeLessThanOrEqual(3600);
      expect(Math.abs(blocked.retryAfter - (blocked.reset - nowSeconds))).toBeLessThanOrEqual(1);

      // Still blocked on later attempts, with the same reset.
      expect(await l.check(["auth"], subject)).toMatchObject({ allowed: false, remaining: 0, reset: blocked.reset });
    });

    it("opens again when the window ends", async () => {
      const windowMs = 300;
      const l = limiter({ emergencyScan: { limit: 2, windowMs } });
      const subject = { ip: uniqueIp() };
      await startOfNextWindow(windowMs);
      expect((await l.check(["emergencyScan"], subject)).allowed).toBe(true);
      expect((await l.check(["emergencyScan"], subject)).allowed).toBe(true);
      const blocked = await l.check(["emergencyScan"], subject);
      expect(blocked).toMatchObject({ allowed: false, remaining: 0, retryAfter: 1 });

      await sleep(windowMs);
      expect(await l.check(["emergencyScan"], subject)).toMatchObject({ allowed: true, remaining: 1, retryAfter: 0 });
    });

    it("keeps windows independent per subject and per policy", async () => {
      const l = limiter({ auth: { limit: 2, windowMs: HOUR_MS }, general: { limit: 2, windowMs: HOUR_MS }, accountLoginFailures: { limit: 2, windowMs: HOUR_MS } });
      const ip = uniqueIp();

      await l.check(["auth"], { ip });
      await l.check(["auth"], { ip });
      expect((await l.check(["auth"], { ip })).allowed).toBe(false);
      // Another IP has its own window; another policy on the same IP too.
      expect(await l.check(["auth"], { ip: uniqueIp() })).toMatchObject({ allowed: true, remaining: 1 });
      expect(await l.check(["general"], { ip })).toMatchObject({ allowed: true, remaining: 1 });
      // An IP policy ignores who is signed in.
      expect((await l.check(["auth"], { ip, userId: "someone" })).allowed).toBe(false);

      // "general" counts signed-in callers per user, wherever they come from, and anonymous ones per IP.
      const alice = `user-${randomUUID()}`;
      const bob = `user-${randomUUID()}`;
      expect((await l.check(["general"], { ip, userId: alice })).remaining).toBe(1);
      expect((await l.check(["general"], { ip: uniqueIp(), userId: alice })).remaining).toBe(0);
      expect((await l.check(["general"], { ip: uniqueIp(), userId: alice })).allowed).toBe(false);
      expect((await l.check(["general"], { ip, userId: bob })).remaining).toBe(1);
      expect((await l.check(["general"], { ip })).remaining).toBe(0);

      // Key policies count per key, from any IP.
      const account = `account-${randomUUID()}`;
      await l.check(["accountLoginFailures"], { ip: uniqueIp(), key: account });
      await l.check(["accountLoginFailures"], { ip: uniqueIp(), key: account });
      expect((await l.check(["accountLoginFailures"], { ip: uniqueIp(), key: account })).allowed).toBe(false);
      expect((await l.check(["accountLoginFailures"], { ip, key: `account-${randomUUID()}` })).allowed).toBe(true);
    });

    it("countAttempt counts before judging and refunds a legitimate attempt once, in its own window only", async () => {
      await awayFromWindowEdge(HOUR_MS, 10_000);
      const l = limiter({ accountLoginFailures: { limit: 3, windowMs: HOUR_MS } });
      const subject = { ip: uniqueIp(), key: `account-${randomUUID()}` };
      const attempts = await Promise.all(Array.from({ length: 5 }, () => l.countAttempt(["accountLoginFailures"], subject)));
      expect(attempts.filter((a) => a.decision.allowed)).toHaveLength(3);
      // Taking back one allowed attempt (twice: the second is a no-op) leaves room for exactly one more.
      const allowed = attempts.find((a) => a.decision.allowed)!;
      await allowed.refund();
      await allowed.refund();
      // The 2 refused attempts pushed the count to 5; one refund brings it to 4, still over the limit of 3.
      expect((await l.check(["accountLoginFailures"], subject, { consume: false })).allowed).toBe(false);

      const fresh = { ip: uniqueIp(), key: `account-${randomUUID()}` };
      for (let i = 0; i < 5; i++) await (await l.countAttempt(["accountLoginFailures"], fresh)).refund();
      expect(await l.check(["accountLoginFailures"], fresh, { consume: false })).toMatchObject({ allowed: true, remaining: 3 });

      // A refund after its window ended credits nothing to the next window.
      const windowMs = 300;
      const short = limiter({ emergencyScan: { limit: 1, windowMs } });
      const late = { ip: uniqueIp() };
      await startOfNextWindow(windowMs);
      const first = await short.countAttempt(["emergencyScan"], late);
      await sleep(windowMs);
      await first.refund();
      expect((await short.countAttempt(["emergencyScan"], late)).decision).toMatchObject({ allowed: true, remaining: 0 });
      expect((await short.countAttempt(["emergencyScan"], late)).decision.allowed).toBe(false);
    });

    it("with several policies, counts each and reports the tightest", async () => {
      await awayFromWindowEdge(MINUTE_MS, 10_000);
      const l = limiter({ general: { limit: 5, windowMs: MINUTE_MS }, auth: { limit: 3, windowMs: MINUTE_MS }, contactForm: { limit: 2, windowMs: HOUR_MS } });
      const subject = { ip: uniqueIp() };

      // Least remaining wins while everything is allowed.
      expect(await l.check(["general", "auth"], subject)).toMatchObject({ allowed: true, policy: "auth", limit: 3, remaining: 2 });
      expect(await l.check(["general", "auth"], subject)).toMatchObject({ allowed: true, policy: "auth", remaining: 1 });
      // Both were counted.
      expect(await l.check(["general"], subject, { consume: false })).toMatchObject({ policy: "general", remaining: 3 });

      // A blocked policy wins over one with requests left.
      await l.check(["auth"], subject);
      expect(await l.check(["auth", "general"], subject)).toMatchObject({ allowed: false, policy: "auth", remaining: 0 });
      // Every listed policy counts the request, refused or not.
      expect(await l.check(["general"], subject, { consume: false })).toMatchObject({ allowed: true, remaining: 2 });

      // Among blocked policies, the longest wait wins: an hour window ends no earlier than a minute one.
      await l.check(["contactForm"], subject);
      await l.check(["contactForm"], subject);
      const both = await l.check(["contactForm", "auth"], subject);
      expect(both).toMatchObject({ allowed: false, policy: "contactForm", limit: 2 });
      expect(both.retryAfter).toBeGreaterThanOrEqual((await l.check(["auth"], subject)).retryAfter);

      // The same policy listed twice counts once.
      const other = { ip: uniqueIp() };
      expect(await l.check(["auth", "auth"], other)).toMatchObject({ remaining: 2 });
    });

    it("peeks without consuming (CORS preflight)", async () => {
      const l = limiter({ general: { limit: 2, windowMs: HOUR_MS }, auth: { limit: 5, windowMs: HOUR_MS } });
      const subject = { ip: uniqueIp() };
      for (let i = 0; i < 3; i++) {
        expect(await l.check(["general"], subject, { consume: false })).toMatchObject({ allowed: true, policy: "general", limit: 2, remaining: 2, retryAfter: 0 });
      }
      expect(await l.check(["general"], subject)).toMatchObject({ allowed: true, remaining: 1 });
      expect(await l.check(["general"], subject, { consume: false })).toMatchObject({ allowed: true, remaining: 1 });
      expect(await l.check(["general", "auth"], subject, { consume: false })).toMatchObject({ policy: "general", remaining: 1 });
      expect(await l.check(["auth"], subject, { consume: false })).toMatchObject({ remaining: 5 });
      expect(await l.check(["general"], subject)).toMatchObject({ allowed: true, remaining: 0 });

      // Exhausted: a peek says the next request would be refused, and when it may retry.
      const peek = await l.check(["general"], subject, { consume: false });
      expect(peek).toMatchObject({ allowed: false, remaining: 0, reset: windowResetSeconds(HOUR_MS) });
      expect(peek.retryAfter).toBeGreaterThan(0);
    });

    it("rejects misuse: no policy, or a key policy without a key", async () => {
      const l = limiter({});
      await expect(l.check([], { ip: uniqueIp() })).rejects.toThrow(/at least one policy/);
      await expect(l.check(["accountLoginFailures"], { ip: uniqueIp() })).rejects.toThrow(/explicit key/);
    });

    if (name === "redis") {
      it("stores each window under the prefix with an expiry, shared by every instance", async () => {
        await awayFromWindowEdge(MINUTE_MS, 10_000);
        const prefix = `tagsvc:rl:test:${randomUUID()}`;
        const instanceA = limiter({ vinVerify: { limit: 3, windowMs: MINUTE_MS } }, prefix);
        const instanceB = limiter({ vinVerify: { limit: 3, windowMs: MINUTE_MS } }, prefix);
        const ip = uniqueIp();
        expect((await instanceA.check(["vinVerify"], { ip })).remaining).toBe(2);
        expect((await instanceB.check(["vinVerify"], { ip })).remaining).toBe(1);
        expect((await instanceA.check(["vinVerify"], { ip })).remaining).toBe(0);
        expect((await instanceB.check(["vinVerify"], { ip })).allowed).toBe(false);

        const redis = new IORedis(REDIS_URL!);
        try {
          const keys = await redis.keys(`${prefix}:*`);
          expect(keys).toEqual([`${prefix}:vinVerify:ip:${ip}:${Math.floor(Date.now() / MINUTE_MS)}`]);
          expect(await redis.get(keys[0]!)).toBe("4");
          const ttl = await redis.pttl(keys[0]!);
          expect(ttl).toBeGreaterThan(0);
          expect(ttl).toBeLessThanOrEqual(MINUTE_MS);
        } finally {
          redis.disconnect();
        }
      });
    }
  });
}

describe("process-wide limiter", () => {
  afterAll(() => {
    // Leave a fresh limiter with the table's limits for the next test file in this worker.
    resetRateLimiterForTests();
  });

  it("follows the environment's backend and reports its health", async () => {
    resetRateLimiterForTests();
    expect(getRateLimiter().backend).toBe(REDIS_URL ? "redis" : "memory");
    expect(await rateLimitHealth()).toBe(REDIS_URL ? "ok" : "memory");
    expect(getRateLimiter()).toBe(getRateLimiter());
  });

  it("uses the table's limits scaled by RATE_LIMIT_MULTIPLIER", async () => {
    resetRateLimiterForTests();
    const multiplier = Number(process.env.RATE_LIMIT_MULTIPLIER ?? 1);
    const decision = await checkRateLimits(["general"], { ip: uniqueIp() });
    expect(decision).toMatchObject({ allowed: true, policy: "general", limit: Math.max(1, Math.round(100 * multiplier)) });
    expect(decision.remaining).toBe(decision.limit - 1);
  });

  it("starts from zero after resetRateLimiterForTests, with optional exact limits", async () => {
    const ip = uniqueIp();
    resetRateLimiterForTests({ general: { limit: 2 } });
    await checkRateLimits(["general"], { ip });
    await checkRateLimits(["general"], { ip });
    expect(await checkRateLimits(["general"], { ip })).toMatchObject({ allowed: false, limit: 2, remaining: 0 });

    resetRateLimiterForTests({ general: { limit: 2 } });
    expect(await checkRateLimits(["general"], { ip })).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
  });
});
