import type { LookupAddress } from "node:dns";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import webpush from "web-push";
import { traceOutgoing } from "@/lib/telemetry/tracing";
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
 * endpoint against the SSRF guard, and POSTs it to the addresses the guard checked: no redirects
 * followed (a 3xx is a failure) and a timeout. Never throws for delivery problems; see PushOutcome.
 */
export async function sendPush(target: PushTarget, payload: string, options: SendPushOptions = {}): Promise<PushOutcome> {
  let checked: { url: URL; addresses: string[] };
  try {
    checked = await validatePushEndpoint(target.endpoint, options);
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

  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(details.headers)) headers[name.toLowerCase()] = String(value);
  headers["content-length"] = String(details.body.length);

  try {
    const status = await traceOutgoing("push", "deliver", () => postToPinnedAddress(checked.url, checked.addresses, headers, details.body, options.timeoutMs ?? DEFAULT_TIMEOUT_MS), {
      "server.address": checked.url.hostname,
    }, (answer) => (answer >= 200 && answer < 300 ? undefined : `push service answered ${answer}`));
    if (status >= 200 && status < 300) return { outcome: "delivered", status };
    if (status === 404 || status === 410) return { outcome: "gone", status, reason: `push service answered ${status}` };
    return { outcome: "failed", status, reason: `push service answered ${status}` };
  } catch (error) {
    return { outcome: "failed", reason: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * POSTs to `url`, connecting only to the addresses the SSRF guard checked: the host name is not
 * resolved again, so a DNS answer that changes between the check and the request (DNS rebinding)
 * cannot point the request at a private address. TLS still verifies the certificate for the host
 * name. Redirects are not followed (the status is returned as is). Resolves with the status code.
 */
function postToPinnedAddress(url: URL, addresses: string[], headers: Record<string, string>, body: Buffer, timeoutMs: number): Promise<number> {
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    // With autoSelectFamily (Node 20's default) net asks for every address; otherwise for one.
    if (lookupOptions.all) {
      (callback as (error: null, addresses: LookupAddress[]) => void)(
        null,
        addresses.map((address) => ({ address, family: isIP(address) })),
      );
    } else {
      callback(null, addresses[0]!, isIP(addresses[0]!));
    }
  };
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(url, { method: "POST", headers, lookup: pinned, signal: AbortSignal.timeout(timeoutMs) }, (response) => {
      // Only the status matters; drain the body so the socket is released.
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
      response.on("error", reject);
      response.on("close", () => {
        if (!response.complete) reject(new Error("the push service closed the connection mid-response"));
      });
    });
    request.on("error", reject);
    request.end(body);
  });
}
