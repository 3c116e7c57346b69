import type { WindowState } from "./decision";
import type { ResolvedRateLimitPolicy } from "./policies";

export type RateLimitBackendKind = "memory" | "redis" | "upstash";

/**
 * A fixed-window counter. The window of a request is floor(now / windowMs); it ends at
 * (window + 1) * windowMs, epoch milliseconds, so every backend reports the same reset.
 */
export interface WindowStore {
  readonly kind: RateLimitBackendKind;
  /** Counts one request against the policy for this identifier. */
  hit(policy: ResolvedRateLimitPolicy, identifier: string): Promise<WindowState>;
  /**
   * Takes back one request counted by `hit` in the window that ends at `resetMs` (an attempt counted up
   * front that turned out legitimate). Does nothing once that window is over.
   */
  refund(policy: ResolvedRateLimitPolicy, identifier: string, resetMs: number): Promise<void>;
  /** The window's state without counting; `allowed` says whether one more request would pass. */
  peek(policy: ResolvedRateLimitPolicy, identifier: string): Promise<WindowState>;
  /** Resolves when the store answers; rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function windowBounds(windowMs: number, nowMs: number): { window: number; resetMs: number } {
  const window = Math.floor(nowMs / windowMs);
  return { window, resetMs: (window + 1) * windowMs };
}
