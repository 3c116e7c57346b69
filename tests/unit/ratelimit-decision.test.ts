import { describe, expect, it } from "vitest";
import { tightestDecision, toDecision, type RateLimitDecision } from "@/lib/ratelimit/decision";
import { sha1Hex, stripScriptFlags } from "@/lib/ratelimit/ioredis-adapter";
import { MemoryWindowStore } from "@/lib/ratelimit/memory-store";
import { resolveRateLimitPolicies } from "@/lib/ratelimit/policies";

function decision(overrides: Partial<RateLimitDecision>): RateLimitDecision {
  return { allowed: true, policy: "general", limit: 100, remaining: 50, reset: 1_800_000_060, retryAfter: 0, ...overrides };
}

describe("toDecision", () => {
  const now = 1_800_000_000_250;

  it("reports reset in whole Unix seconds (rounded up) and no wait when allowed", () => {
    expect(toDecision("auth", { allowed: true, limit: 10, remaining: 4, resetMs: 1_800_000_060_000 }, now)).toEqual({
      allowed: true,
      policy: "auth",
      limit: 10,
      remaining: 4,
      reset: 1_800_000_060,
      retryAfter: 0,
    });
    expect(toDecision("auth", { allowed: true, limit: 10, remaining: 4, resetMs: 1_800_000_000_400 }, now).reset).toBe(1_800_000_001);
  });

  it("gives Retry-After in whole seconds, at least 1, when blocked", () => {
    expect(toDecision("auth", { allowed: false, limit: 10, remaining: 0, resetMs: 1_800_000_060_000 }, now).retryAfter).toBe(60);
    expect(toDecision("auth", { allowed: false, limit: 10, remaining: 0, resetMs: 1_800_000_000_400 }, now).retryAfter).toBe(1);
    // A window that ended between the store's answer and now still asks for a wait.
    expect(toDecision("auth", { allowed: false, limit: 10, remaining: 0, resetMs: now - 5 }, now).retryAfter).toBe(1);
  });

  it("never reports negative remaining", () => {
    expect(toDecision("auth", { allowed: false, limit: 10, remaining: -3, resetMs: now + 1000 }, now).remaining).toBe(0);
  });
});

describe("tightestDecision", () => {
  it("rejects an empty list", () => {
    expect(() => tightestDecision([])).toThrow();
  });

  it("returns the only decision", () => {
    const only = decision({ policy: "auth" });
    expect(tightestDecision([only])).toBe(only);
  });

  it("prefers the least remaining when all are allowed", () => {
    const general = decision({ policy: "general", remaining: 97 });
    const auth = decision({ policy: "auth", limit: 10, remaining: 7 });
    const scan = decision({ policy: "publicScan", limit: 30, remaining: 29 });
    expect(tightestDecision([general, auth, scan]).policy).toBe("auth");
    expect(tightestDecision([scan, auth, general]).policy).toBe("auth");
  });

  it("prefers any blocked policy over allowed ones, even with more remaining elsewhere", () => {
    const general = decision({ policy: "general", remaining: 0, allowed: true });
    const registration = decision({ policy: "registration", allowed: false, remaining: 0, retryAfter: 1200, reset: 1_800_001_200 });
    expect(tightestDecision([general, registration]).policy).toBe("registration");
  });

  it("among blocked policies, reports the longest wait", () => {
    const auth = decision({ policy: "auth", allowed: false, remaining: 0, retryAfter: 42, reset: 1_800_000_042 });
    const registration = decision({ policy: "registration", allowed: false, remaining: 0, retryAfter: 1800, reset: 1_800_001_800 });
    const general = decision({ policy: "general", allowed: false, remaining: 0, retryAfter: 42, reset: 1_800_000_042 });
    expect(tightestDecision([auth, registration, general]).policy).toBe("registration");
    expect(tightestDecision([registration, auth]).policy).toBe("registration");
  });

  it("breaks ties by the later reset, then by list order", () => {
    const early = decision({ policy: "auth", remaining: 3, reset: 1_800_000_060 });
    const late = decision({ policy: "registration", remaining: 3, reset: 1_800_003_600 });
    expect(tightestDecision([early, late]).policy).toBe("registration");
    expect(tightestDecision([late, early]).policy).toBe("registration");
    const same = decision({ policy: "vinVerify", remaining: 3, reset: 1_800_000_060 });
    expect(tightestDecision([early, same]).policy).toBe("auth");
    expect(tightestDecision([same, early]).policy).toBe("vinVerify");
  });
});

describe("MemoryWindowStore (fixed windows on a controlled clock)", () => {
  const policies = resolveRateLimitPolicies(1, { auth: { limit: 3, windowMs: 60_000 }, general: { limit: 2, windowMs: 1_000 } });

  function storeAt(start: number) {
    const clock = { now: start };
    return { clock, store: new MemoryWindowStore(() => clock.now) };
  }

  it("holds at most maxCounters counters: a flood of new clients evicts the stalest, not memory", async () => {
    const clock = { now: 1_800_000_010_000 };
    const store = new MemoryWindowStore(() => clock.now, 100);
    await store.hit(policies.auth, "ip:victim");
    await store.hit(policies.auth, "ip:victim");
    for (let i = 0; i < 10_000; i++) await store.hit(policies.auth, `ip:flood-${i}`);
    expect(store.size).toBe(100);
    // The newest clients are still counted; the oldest one was dropped first.
    expect((await store.peek(policies.auth, "ip:flood-9999")).remaining).toBe(2);
    expect((await store.peek(policies.auth, "ip:victim")).remaining).toBe(3);
  });

  it("allows `limit` requests in a window, blocks the rest, and resets at the window's end", async () => {
    const { clock, store } = storeAt(1_800_000_010_000);
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await store.hit(policies.auth, "ip:a"));
    expect(results.map((r) => [r.allowed, r.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
      [false, 0],
    ]);
    expect(new Set(results.map((r) => r.resetMs))).toEqual(new Set([1_800_000_060_000]));

    clock.now = 1_800_000_059_999;
    expect((await store.hit(policies.auth, "ip:a")).allowed).toBe(false);
    clock.now = 1_800_000_060_000;
    expect(await store.hit(policies.auth, "ip:a")).toEqual({ allowed: true, limit: 3, remaining: 2, resetMs: 1_800_000_120_000 });
  });

  it("keeps identifiers and policies apart", async () => {
    const { store } = storeAt(1_800_000_000_000);
    await store.hit(policies.general, "ip:a");
    await store.hit(policies.general, "ip:a");
    expect((await store.hit(policies.general, "ip:a")).allowed).toBe(false);
    expect((await store.hit(policies.general, "ip:b")).remaining).toBe(1);
    expect((await store.hit(policies.auth, "ip:a")).remaining).toBe(2);
  });

  it("peeks without counting", async () => {
    const { store } = storeAt(1_800_000_000_000);
    expect(await store.peek(policies.general, "ip:a")).toEqual({ allowed: true, limit: 2, remaining: 2, resetMs: 1_800_000_001_000 });
    await store.hit(policies.general, "ip:a");
    await store.peek(policies.general, "ip:a");
    await store.peek(policies.general, "ip:a");
    expect((await store.peek(policies.general, "ip:a")).remaining).toBe(1);
    await store.hit(policies.general, "ip:a");
    // Exhausted: one more request would not pass.
    expect(await store.peek(policies.general, "ip:a")).toEqual({ allowed: false, limit: 2, remaining: 0, resetMs: 1_800_000_001_000 });
  });

  it("sweeps ended windows so memory does not grow without bound", async () => {
    const { clock, store } = storeAt(1_800_000_000_000);
    for (let i = 0; i < 50; i++) await store.hit(policies.general, `ip:${i}`);
    expect(store.size).toBe(50);
    clock.now += 61_000; // past every 1 s window and the once-a-minute sweep interval
    await store.hit(policies.general, "ip:new");
    expect(store.size).toBe(1);
  });
});

describe("script preparation for Redis 7.0", () => {
  it("strips the allow-key-locking flag line and nothing else", () => {
    const script = "#!lua flags=allow-key-locking\n  local key = KEYS[1]\n  return 1\n";
    expect(stripScriptFlags(script)).toBe("  local key = KEYS[1]\n  return 1\n");
    expect(stripScriptFlags("local x = 1\nreturn x")).toBe("local x = 1\nreturn x");
  });

  it("hashes as Redis does (SHA-1 hex of the script text)", () => {
    expect(sha1Hex("return 1")).toBe("e0e1f9fabfc9d4800c877a703b823ac0578ff8db");
  });
});
