import type { RateLimitPolicyName } from "./policies";

export interface RateLimitDecision {
  allowed: boolean;
  policy: RateLimitPolicyName;
  limit: number;
  remaining: number;
  /** When the window ends, Unix time in seconds (the X-RateLimit-Reset header). */
  reset: number;
  /** Seconds until a request may pass again; > 0 only when blocked (the Retry-After header). */
  retryAfter: number;
}

/** One window's state as a store reports it. */
export interface WindowState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** End of the window, epoch milliseconds. */
  resetMs: number;
}

export function toDecision(policy: RateLimitPolicyName, state: WindowState, nowMs: number = Date.now()): RateLimitDecision {
  const remaining = Math.max(0, Math.floor(state.remaining));
  return {
    allowed: state.allowed,
    policy,
    limit: state.limit,
    remaining,
    reset: Math.ceil(state.resetMs / 1000),
    retryAfter: state.allowed ? 0 : Math.max(1, Math.ceil((state.resetMs - nowMs) / 1000)),
  };
}

/**
 * The decision to report when several policies apply: a blocked one if any (the longest wait), otherwise
 * the one with the least remaining. Ties go to the window that ends later, then to the earlier in the list.
 */
export function tightestDecision(decisions: readonly RateLimitDecision[]): RateLimitDecision {
  const [first, ...rest] = decisions;
  if (!first) throw new Error("tightestDecision needs at least one decision");
  let tightest = first;
  for (const candidate of rest) if (isTighter(candidate, tightest)) tightest = candidate;
  return tightest;
}

function isTighter(a: RateLimitDecision, b: RateLimitDecision): boolean {
  if (a.allowed !== b.allowed) return !a.allowed;
  if (!a.allowed && a.retryAfter !== b.retryAfter) return a.retryAfter > b.retryAfter;
  if (a.allowed && a.remaining !== b.remaining) return a.remaining < b.remaining;
  return a.reset > b.reset;
}
