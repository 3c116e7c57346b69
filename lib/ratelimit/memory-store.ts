import type { WindowState } from "./decision";
import type { ResolvedRateLimitPolicy } from "./policies";
import { windowBounds, type WindowStore } from "./store";

interface Counter {
  window: number;
  count: number;
  resetMs: number;
}

const SWEEP_INTERVAL_MS = 60_000;
/** Counters held at most: a flood of distinct clients evicts the oldest counters instead of growing the heap. */
export const DEFAULT_MAX_COUNTERS = 100_000;

/**
 * Fixed windows in process memory, with the same arithmetic as @upstash/ratelimit's fixedWindow
 * (INCR the window's counter; allowed while count <= limit; reset at the end of the window). Used when no
 * Redis is configured and as the fallback when the configured store fails. Expired counters are swept at
 * most once a minute, on use, so no timer keeps the process alive. The map is bounded: past `maxCounters`
 * the counter that went longest without a new window is dropped (O(1): a Map iterates in insertion order
 * and a counter is re-inserted when its window turns).
 */
export class MemoryWindowStore implements WindowStore {
  readonly kind = "memory" as const;
  private counters = new Map<string, Counter>();
  private nextSweepMs = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxCounters: number = DEFAULT_MAX_COUNTERS,
  ) {}

  async hit(policy: ResolvedRateLimitPolicy, identifier: string): Promise<WindowState> {
    const nowMs = this.now();
    this.sweep(nowMs);
    const { window, resetMs } = windowBounds(policy.windowMs, nowMs);
    const key = counterKey(policy, identifier);
    let counter = this.counters.get(key);
    if (!counter || counter.window !== window) {
      if (counter) this.counters.delete(key);
      else this.evictIfFull();
      counter = { window, count: 0, resetMs };
      this.counters.set(key, counter);
    }
    counter.count += 1;
    return { allowed: counter.count <= policy.limit, limit: policy.limit, remaining: Math.max(0, policy.limit - counter.count), resetMs };
  }

  async refund(policy: ResolvedRateLimitPolicy, identifier: string, resetMs: number): Promise<void> {
    const counter = this.counters.get(counterKey(policy, identifier));
    if (counter && counter.resetMs === resetMs && counter.count > 0) counter.count -= 1;
  }

  async peek(policy: ResolvedRateLimitPolicy, identifier: string): Promise<WindowState> {
    const { window, resetMs } = windowBounds(policy.windowMs, this.now());
    const counter = this.counters.get(counterKey(policy, identifier));
    const used = counter && counter.window === window ? counter.count : 0;
    const remaining = Math.max(0, policy.limit - used);
    return { allowed: remaining > 0, limit: policy.limit, remaining, resetMs };
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    this.clear();
  }

  clear(): void {
    this.counters.clear();
  }

  get size(): number {
    return this.counters.size;
  }

  private evictIfFull(): void {
    while (this.counters.size >= this.maxCounters) {
      const oldest = this.counters.keys().next();
      if (oldest.done) return;
      this.counters.delete(oldest.value);
    }
  }

  private sweep(nowMs: number): void {
    if (nowMs < this.nextSweepMs) return;
    this.nextSweepMs = nowMs + SWEEP_INTERVAL_MS;
    for (const [key, counter] of this.counters) if (counter.resetMs <= nowMs) this.counters.delete(key);
  }
}

function counterKey(policy: ResolvedRateLimitPolicy, identifier: string): string {
  // The window length is part of the key so a limiter rebuilt with other windows never reads stale counts.
  return `${policy.name}:${policy.windowMs}:${identifier}`;
}
