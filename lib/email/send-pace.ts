import type { RateLimitDecision } from "@/lib/ratelimit/decision";

/** Asks the shared counter for one send now: allowed, or when its window ends (RateLimitDecision.reset). */
export type TakeSendSlot = () => Promise<Pick<RateLimitDecision, "allowed" | "reset">>;

export interface SendPaceOptions {
  takeSlot: TakeSendSlot;
  /** How long one e-mail may wait for a slot before its job is retried instead (30 s; a job expires after 120). */
  maxWaitMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** No slot came within the wait: the e-mail is not sent, and its job retries later. */
export class SendPaceTimeoutError extends Error {
  constructor(readonly waitedMs: number) {
    super(`no send slot within ${waitedMs} ms`);
    this.name = "SendPaceTimeoutError";
  }
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Waits for the right to hand one e-mail to the provider, so that all instances together send at most the
 * provider's rate (a per-second window shared through the rate limiter's store). A sender refused a slot
 * sleeps until the window ends, plus a little jitter so the waiters don't all ask at the same instant, and
 * asks again; after `maxWaitMs` it gives up with SendPaceTimeoutError.
 */
export function createSendPace({ takeSlot, maxWaitMs = 30_000, now = Date.now, sleep = realSleep }: SendPaceOptions): () => Promise<void> {
  return async function waitForSendSlot() {
    const started = now();
    for (;;) {
      const decision = await takeSlot();
      if (decision.allowed) return;
      const waited = now() - started;
      const untilReset = Math.max(0, decision.reset * 1000 - now());
      const pause = Math.max(5, untilReset) + Math.floor(Math.random() * 50);
      if (waited + pause > maxWaitMs) throw new SendPaceTimeoutError(waited);
      await sleep(pause);
    }
  };
}
