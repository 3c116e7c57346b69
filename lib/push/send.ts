import webpush from "web-push";
import { PushEndpointError, validatePushEndpoint, type EndpointPolicy } from "./endpoint";
import { vapidKeys, vapidSubject } from "./vapid";

export interface PushTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface SendPushOptions extends EndpointPolicy {
  /** Seconds the push service keeps an undelivered message. */
  ttlSeconds?: number;
  urgency?: webpush.Urgency;
  timeoutMs?: number;
}

/**
 * What became of one push: `delivered` (2xx), `gone` (404/410, or an endpoint the SSRF guard now
 * refuses: the subscription should be removed), or `failed` (anything else: worth a retry).
 */
export type PushOutcome = { outcome: "delivered"; status: number } | { outcome: "gone"; status?: number; reason: string } | { outcome: "failed"; status?: number; reason: string };

export const DEFAULT_PUSH_TTL_SECONDS = 24 * 60 * 60;
const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Encrypts `payload` for one subscription (aes128gcm, RFC 8291) with a VAPID header, checks the
 * endpoint against the SSRF guard, and POSTs it with fetch: no redirects followed (a 3xx is a
 * failure) and a timeout. Never throws for delivery problems; see PushOutcome.
 */
export async function sendPush(target: PushTarget, payload: string, options: SendPushOptions = {}): Promise<PushOutcome> {
  try {
    await validatePushEndpoint(target.endpoint, options);
  } catch (error) {
    if (error instanceof PushEndpointError) {
      return error.permanent ? { outcome: "gone", reason: error.message } : { outcome: "failed", reason: error.message };
    }
    throw error;
  }

  const keys = vapidKeys();
  let details: webpush.RequestDetails & { body: Buffer };
  try {
    details = webpush.generateRequestDetails(target, payload, {
      TTL: options.ttlSeconds ?? DEFAULT_PUSH_TTL_SECONDS,
      urgency: options.urgency ?? "normal",
      contentEncoding: "aes128gcm",
      vapidDetails: { subject: vapidSubject(), publicKey: keys.publicKey, privateKey: keys.privateKey },
    });
  } catch (error) {
    // Unusable subscription keys: it can never be delivered to.
    return { outcome: "gone", reason: error instanceof Error ? error.message : String(error) };
  }

  const headers = new Headers();
  for (const [name, value] of Object.entries(details.headers)) {
    // fetch computes the length itself.
    if (name.toLowerCase() !== "content-length") headers.set(name, String(value));
  }

  let response: Response;
  try {
    response = await fetch(details.endpoint, {
      method: "POST",
      headers,
      body: new Uint8Array(details.body),
      redirect: "manual",
      signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
  } catch (error) {
    return { outcome: "failed", reason: error instanceof Error ? error.message : String(error) };
  }
  await response.body?.cancel().catch(() => undefined);
  const status = response.status;
  if (status >= 200 && status < 300) return { outcome: "delivered", status };
  if (status === 404 || status === 410) return { outcome: "gone", status, reason: `push service answered ${status}` };
  return { outcome: "failed", status, reason: `push service answered ${status}` };
}
