import { randomBytes } from "node:crypto";
import { env, type Env } from "@/lib/env";
import { log } from "@/lib/log";
import { countRateLimitRefusal } from "@/lib/metrics/registry";
import type { RateLimitDecision } from "./decision";
import {
  createRateLimiter,
  DEFAULT_PREFIX,
  type RateLimitBackendConfig,
  type CountedAttempt,
  type RateLimitCheckOptions,
  type RateLimiter,
  type RateLimitHealth,
  type RateLimitWarn,
} from "./limiter";
import type { RateLimitPolicyName, RateLimitPolicyOverrides, RateLimitSubject } from "./policies";

export type { RateLimitDecision } from "./decision";
export { tightestDecision } from "./decision";
export {
  createRateLimiter,
  type CountedAttempt,
  type RateLimitBackendConfig,
  type RateLimitCheckOptions,
  type RateLimiter,
  type RateLimiterOptions,
  type RateLimitHealth,
} from "./limiter";
export {
  rateLimitPolicies,
  rateLimitPolicyNames,
  type RateLimitPolicyName,
  type RateLimitSubject,
} from "./policies";

const warn: RateLimitWarn = (message, fields) => log.warn(message, { component: "ratelimit", ...fields });

/**
 * The backend the configuration asks for: REDIS_URL (self-hosted) first, then the Upstash REST pair,
 * else process memory (docs/decisions/0012-rate-limits.md).
 */
export function rateLimitBackendFromEnv(e: Pick<Env, "REDIS_URL" | "UPSTASH_REDIS_REST_URL" | "UPSTASH_REDIS_REST_TOKEN"> = env): RateLimitBackendConfig {
  if (e.REDIS_URL) return { backend: "redis", url: e.REDIS_URL };
  if (e.UPSTASH_REDIS_REST_URL && e.UPSTASH_REDIS_REST_TOKEN) {
    return { backend: "upstash", url: e.UPSTASH_REDIS_REST_URL, token: e.UPSTASH_REDIS_REST_TOKEN };
  }
  if (e.UPSTASH_REDIS_REST_URL || e.UPSTASH_REDIS_REST_TOKEN) {
    warn("UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN must be set together; rate limits are held in process memory");
  }
  return { backend: "memory" };
}

// One limiter per process, kept on globalThis so module reloads (dev server, test files sharing a worker)
// reuse its connection.
const holder = globalThis as typeof globalThis & { __tagServiceRateLimiter?: RateLimiter };

/**
 * The limits set exactly rather than scaled by RATE_LIMIT_MULTIPLIER: the provider's send rate
 * (EMAIL_SEND_RATE) is a fact about Resend, not a limit on clients; then a test's own overrides.
 */
export function exactPolicies(e: Pick<Env, "EMAIL_SEND_RATE">, overrides?: RateLimitPolicyOverrides): RateLimitPolicyOverrides {
  return { emailProviderSends: { limit: e.EMAIL_SEND_RATE }, ...overrides };
}

function buildDefault(prefix: string, policies?: RateLimitPolicyOverrides): RateLimiter {
  return createRateLimiter(rateLimitBackendFromEnv(), { prefix, multiplier: env.RATE_LIMIT_MULTIPLIER, policies: exactPolicies(env, policies), warn });
}

export function getRateLimiter(): RateLimiter {
  holder.__tagServiceRateLimiter ??= buildDefault(DEFAULT_PREFIX);
  return holder.__tagServiceRateLimiter;
}

/** Policies that pace our own work (a send waits for its slot) rather than refuse a client: not counted as refusals. */
const pacingPolicies: ReadonlySet<RateLimitPolicyName> = new Set(["emailProviderSends"]);

/** The metrics' rate_limit_refusals_total: a counted request or attempt refused, by the policy that refused it. */
function counted(decision: RateLimitDecision): RateLimitDecision {
  if (!decision.allowed && !pacingPolicies.has(decision.policy)) countRateLimitRefusal(decision.policy);
  return decision;
}

/**
 * Counts the request against every listed policy for this subject and returns the tightest decision.
 * Never rejects because the store is down (falls back to process memory); rejects only on misuse: an
 * empty list, or a `key` policy without `subject.key`.
 */
export async function checkRateLimits(
  policies: readonly RateLimitPolicyName[],
  subject: RateLimitSubject,
  options?: RateLimitCheckOptions,
): Promise<RateLimitDecision> {
  const decision = await getRateLimiter().check(policies, subject, options);
  // A peek (a preflight, an action whose service counts the attempt itself) refuses nobody by itself.
  return options?.consume === false ? decision : counted(decision);
}

/**
 * Counts an attempt (a password or code about to be checked) before it is judged; `refund()` it when it
 * turns out right. See RateLimiter.countAttempt.
 */
export async function countAttempt(policies: readonly RateLimitPolicyName[], subject: RateLimitSubject): Promise<CountedAttempt> {
  const attempt = await getRateLimiter().countAttempt(policies, subject);
  counted(attempt.decision);
  return attempt;
}

/** For /api/health: "memory" (memory backend), "ok" (store answered a ping within 1 s) or "down". */
export function rateLimitHealth(): Promise<RateLimitHealth> {
  return getRateLimiter().health(1_000);
}

/**
 * Tests: replaces the process-wide limiter by a fresh one (same backend as the environment) under a new
 * random key prefix, so counts from earlier test files are not seen; optional exact limits for this file.
 */
export function resetRateLimiterForTests(policies?: RateLimitPolicyOverrides): RateLimiter {
  const previous = holder.__tagServiceRateLimiter;
  const limiter = buildDefault(`${DEFAULT_PREFIX}:test:${randomBytes(6).toString("hex")}`, policies);
  holder.__tagServiceRateLimiter = limiter;
  if (previous) void previous.close().catch(() => {});
  return limiter;
}
