import { env } from "@/lib/env";
import { checkRateLimits } from "@/lib/ratelimit";
import { createOutboxTransport } from "./outbox-transport";
import { createResendTransport } from "./resend-transport";
import { createSendPace } from "./send-pace";
import type { EmailTransport } from "./types";

let cached: { key: string | undefined; transport: EmailTransport } | undefined;

/**
 * Every instance's sends to Resend share one per-second window (EMAIL_SEND_RATE) in the rate limiter's
 * store. A key policy: there is no client IP here.
 */
const waitForResendSlot = createSendPace({ takeSlot: () => checkRateLimits(["emailProviderSends"], { ip: "", key: "resend" }) });

/** Resend when RESEND_API_KEY is set, otherwise the outbox table (docs/decisions/0035-email-delivery.md). */
export function defaultTransport(): EmailTransport {
  const key = env.RESEND_API_KEY;
  if (!cached || cached.key !== key) {
    cached = { key, transport: key ? createResendTransport({ apiKey: key, waitForSendSlot: waitForResendSlot }) : createOutboxTransport() };
  }
  return cached.transport;
}
