import { createHmac } from "node:crypto";
import twilio from "twilio";
import type { WebhookParams } from "./types";

/** The header Twilio signs its webhooks in. */
export const TWILIO_SIGNATURE_HEADER = "X-Twilio-Signature";

/**
 * Twilio's webhook signature (docs/relay.md): base64 HMAC-SHA1, keyed by the auth token, of the full URL
 * followed by every POST parameter sorted by name, each name then value. The test provider signs with it,
 * so `twilio.validateRequest` verifies its webhooks exactly as it verifies Twilio's.
 */
export function signTwilioRequest(secret: string, url: string, params: WebhookParams): string {
  const data = Object.keys(params)
    .sort()
    .reduce((text, name) => text + name + params[name], url);
  return createHmac("sha1", secret).update(data, "utf8").digest("base64");
}

/** The SDK's own check: the same for Twilio's deliveries (auth token) and the test provider's (its secret). */
export function verifyTwilioRequest(secret: string, signature: string | null, url: string, params: WebhookParams): boolean {
  if (!signature) return false;
  return twilio.validateRequest(secret, signature, url, params);
}
