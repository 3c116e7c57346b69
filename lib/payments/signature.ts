import { createHmac } from "node:crypto";
import { safeEqual } from "@/lib/auth/tokens";

/**
 * The payment webhook's signature (docs/decisions/0025-payment-webhook.md): `Payment-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256
 * of "<t>.<raw body>">`, where several v1 values may appear (a provider rotating its secret signs with
 * both), accepted within 300 s of our clock. The same scheme as Stripe's `Stripe-Signature`, so the test
 * provider and a real provider's events are checked by one function.
 */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export type SignatureFailure = "missing" | "malformed" | "stale" | "mismatch";

export type SignatureCheck = { ok: true; timestamp: number } | { ok: false; reason: SignatureFailure };

function hmacHex(secret: string, timestamp: number, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${body}`, "utf8").digest("hex");
}

/** The header value for `body` signed with `secret` at `timestamp` (unix seconds): what a provider sends. */
export function signPaymentPayload(body: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, body)}`;
}

/** Splits the header into its one timestamp and its v1 signatures; anything else in it is ignored (e.g. v0). */
function parseHeader(header: string): { timestamp: number; signatures: string[] } | null {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const separator = part.indexOf("=");
    if (separator < 1) return null;
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === "t") {
      if (timestamp !== null || !/^\d{1,12}$/.test(value)) return null;
      timestamp = Number(value);
    } else if (key === "v1") {
      if (!/^[0-9a-f]{64}$/i.test(value)) return null;
      signatures.push(value.toLowerCase());
    }
  }
  if (timestamp === null || signatures.length === 0) return null;
  return { timestamp, signatures };
}

/**
 * Checks a delivery: the header must carry a timestamp within the tolerance (either side of our clock)
 * and at least one v1 signature that matches the raw body under one of `secrets` (the current secret,
 * and during a rotation the previous one). Every comparison is constant-time.
 */
export function verifyPaymentSignature(
  body: string,
  header: string | null | undefined,
  secrets: readonly string[],
  options: { now?: number; toleranceSeconds?: number } = {},
): SignatureCheck {
  if (!header?.trim()) return { ok: false, reason: "missing" };
  if (header.length > 4096) return { ok: false, reason: "malformed" };
  const parsed = parseHeader(header);
  if (!parsed) return { ok: false, reason: "malformed" };
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
  if (Math.abs(now - parsed.timestamp) > tolerance) return { ok: false, reason: "stale" };
  let matched = false;
  for (const secret of secrets) {
    if (!secret) continue;
    const expected = hmacHex(secret, parsed.timestamp, body);
    // No early exit: every candidate is compared, so the time taken does not tell which one matched.
    for (const signature of parsed.signatures) matched = safeEqual(expected, signature) || matched;
  }
  return matched ? { ok: true, timestamp: parsed.timestamp } : { ok: false, reason: "mismatch" };
}
