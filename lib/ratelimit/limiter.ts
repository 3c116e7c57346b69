import { tightestDecision, toDecision, type RateLimitDecision, type WindowState } from "./decision";
import { MemoryWindowStore } from "./memory-store";
import {
  resolveRateLimitPolicies,
  subjectIdentifier,
  type RateLimitPolicyName,
  type RateLimitPolicyOverrides,
  type RateLimitSubject,
  type ResolvedRateLimitPolicies,
  type ResolvedRateLimitPolicy,
} from "./policies";
import { createRedisStore, createUpstashStore } from "./redis-store";
import type { RateLimitBackendKind, WindowStore } from "./store";

export type RateLimitBackendConfig =
  | { backend: "memory" }
  | { backend: "redis"; url: string }
  | { backend: "upstash"; url: string; token: string };

export type RateLimitWarn = (message: string, fields?: Record<string, unknown>) => void;

export interface RateLimiterOptions {
  /** Key prefix in Redis. */
  prefix?: string;
  /** Scales every limit of the table (RATE_LIMIT_MULTIPLIER). Default 1. */
  multiplier?: number;
  /** Exact limits/windows for some policies, not scaled (tests). */
  policies?: RateLimitPolicyOverrides;
  /** How long a store call may take before the request falls back to memory. Default 1000 ms. */
  timeoutMs?: number;
  /** Where the "store unavailable" warning goes (at most once per warnIntervalMs). */
  warn?: RateLimitWarn;
  warnIntervalMs?: number;
}

export interface RateLimitCheckOptions {
  /** false: report the state without counting this request (CORS preflight). Default true. */
  consume?: boolean;
}

export interface CountedAttempt {
  decision: RateLimitDecision;
  refund(): Promise<void>;
}

export type RateLimitHealth = "ok" | "memory" | "down";

export interface RateLimiter {
  readonly backend: RateLimitBackendKind;
  readonly prefix: string;
  readonly policies: ResolvedRateLimitPolicies;
  /**
   * Counts the request against every listed policy (in parallel) and reports the tightest. Never rejects
   * because of the store: on a store error the request is counted in process memory instead.
   */
  check(policies: readonly RateLimitPolicyName[], subject: RateLimitSubject, options?: RateLimitCheckOptions): Promise<RateLimitDecision>;
  /**
   * Counts an attempt before it is judged, so N simultaneous attempts can never pass more than the limit
   * (a peek-then-count would let them all through), and returns the decision with a `refund` that takes
   * the attempt back when it turns out legitimate (the right password). Store failures fall back to memory
   * as `check` does; a refund that fails is dropped (it can only make the limit stricter).
   */
  countAttempt(policies: readonly RateLimitPolicyName[], subject: RateLimitSubject): Promise<CountedAttempt>;
  /** "memory" for the memory backend; "ok" when the store answers a ping within the timeout; else "down". */
  health(timeoutMs?: number): Promise<RateLimitHealth>;
  /** Closes the store connection and forgets in-memory counts. */
  close(): Promise<void>;
}

export const DEFAULT_PREFIX = "tagsvc:rl";
const DEFAULT_TIMEOUT_MS = 1_000;
const DEFAULT_WARN_INTERVAL_MS = 60_000;

function withTimeout<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function createStore(config: RateLimitBackendConfig, prefix: string, timeoutMs: number): WindowStore {
  switch (config.backend) {
    case "memory":
      return new MemoryWindowStore();
    case "redis":
      return createRedisStore(config.url, { prefix, connectTimeoutMs: timeoutMs });
    case "upstash":
      return createUpstashStore(config.url, config.token, { prefix });
  }
}

export function createRateLimiter(config: RateLimitBackendConfig, options: RateLimiterOptions = {}): RateLimiter {
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const warnIntervalMs = options.warnIntervalMs ?? DEFAULT_WARN_INTERVAL_MS;
  const warn: RateLimitWarn = options.warn ?? ((message, fields) => console.warn(message, fields ?? ""));
  const policies = resolveRateLimitPolicies(options.multiplier ?? 1, options.policies);
  const store = createStore(config, prefix, timeoutMs);
  // The memory store itself when that is the backend; otherwise the fallback for failed store calls.
  const memory = store instanceof MemoryWindowStore ? store : new MemoryWindowStore();
  let lastWarnMs = Number.NEGATIVE_INFINITY;

  function count(target: WindowStore, list: readonly ResolvedRateLimitPolicy[], identifiers: readonly string[], consume: boolean): Promise<WindowState[]> {
    return Promise.all(list.map((policy, i) => (consume ? target.hit(policy, identifiers[i]!) : target.peek(policy, identifiers[i]!))));
  }

  function warnStoreDown(error: unknown): void {
    const now = Date.now();
    if (now - lastWarnMs < warnIntervalMs) return;
    lastWarnMs = now;
    warn("rate limit store unavailable; counting in process memory", { backend: store.kind, error: errorMessage(error) });
  }

  async function countIn(names: readonly RateLimitPolicyName[], subject: RateLimitSubject, consume: boolean) {
    const unique = [...new Set(names)];
    if (unique.length === 0) throw new Error("checkRateLimits needs at least one policy");
    const list = unique.map((name) => {
      const policy = policies[name];
      if (!policy) throw new Error(`unknown rate limit policy: ${String(name)}`);
      return policy;
    });
    const identifiers = list.map((policy) => subjectIdentifier(policy, subject));

    let target: WindowStore = store;
    let states: WindowState[];
    if (store === memory) {
      states = await count(memory, list, identifiers, consume);
    } else {
      try {
        states = await withTimeout(count(store, list, identifiers, consume), timeoutMs, `rate limit store (${store.kind})`);
      } catch (error) {
        warnStoreDown(error);
        target = memory;
        states = await count(memory, list, identifiers, consume);
      }
    }
    const now = Date.now();
    const decision = tightestDecision(states.map((state, i) => toDecision(list[i]!.name, state, now)));
    return { decision, target, list, identifiers, states };
  }

  return {
    backend: store.kind,
    prefix,
    policies,

    async check(names, subject, checkOptions = {}) {
      return (await countIn(names, subject, checkOptions.consume ?? true)).decision;
    },

    async countAttempt(names, subject) {
      const { decision, target, list, identifiers, states } = await countIn(names, subject, true);
      let refunded = false;
      return {
        decision,
        async refund() {
          if (refunded) return;
          refunded = true;
          try {
            const refunds = Promise.all(list.map((policy, i) => target.refund(policy, identifiers[i]!, states[i]!.resetMs)));
            await (target === memory ? refunds : withTimeout(refunds, timeoutMs, `rate limit store (${store.kind})`));
          } catch (error) {
            warnStoreDown(error);
          }
        },
      };
    },

    async health(pingTimeoutMs = DEFAULT_TIMEOUT_MS) {
      if (store === memory) return "memory";
      try {
        await withTimeout(store.ping(), pingTimeoutMs, "rate limit store ping");
        return "ok";
      } catch {
        return "down";
      }
    },

    async close() {
      memory.clear();
      if (store !== memory) await store.close();
    },
  };
}
