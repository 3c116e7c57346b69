import type { KeyObject } from "node:crypto";
import { derivedKey, keyedHash } from "@/lib/auth/tokens";

/**
 * Coarse location from the geo headers of the proxy in front (lib/http/geo-headers.ts), each part
 * validated on its own: the coordinates come as a pair or not at all, and a city or country may come
 * without them (Cloudflare sends the country by default, the rest only when asked to).
 */
export interface CoarseLocation {
  latitude: number | null;
  longitude: number | null;
  city: string | null;
  country: string | null;
}

/**
 * What the public finder endpoints and pages know of an anonymous visitor, read once from the request by
 * `visitorFrom` (lib/http/visitor.ts) so the API and the pages record the same facts. The raw IP is used
 * only to derive `ipHash` and for rate limits; it is never stored.
 */
export interface Visitor {
  ip: string;
  userAgent: string | null;
  geo: CoarseLocation | null;
  /** HTTP method of the request ("GET", "HEAD"); a HEAD is never a real scan. */
  method: string;
  /** True when the browser says this is a prefetch (Sec-Purpose / Purpose: prefetch), not a visit. */
  prefetch: boolean;
  /** Accept-Language, as sent; for choosing the finder's language. */
  acceptLanguage: string | null;
}

const CLIENT_IP_PURPOSE = "client-ip";

/**
 * Recent clients' hashes, oldest first: an HMAC is one of the costliest steps of a scan in our process, and a
 * client's requests come in bursts (a page and its scan, a finder's messages). Bounded, and in this process's
 * memory only, where the raw IP already is for the rate limits; emptied when the key changes.
 */
const IP_HASHES_MAX = 10_000;
const ipHashes = new Map<string, string>();
let ipHashesKey: KeyObject | undefined;

/** The keyed hash of a client IP stored with scans, threads and emergency accesses; null when unknown. */
export function hashClientIp(ip: string): string | null {
  if (!ip || ip === "unknown") return null;
  const key = derivedKey(CLIENT_IP_PURPOSE);
  if (key !== ipHashesKey) {
    ipHashes.clear();
    ipHashesKey = key;
  }
  const known = ipHashes.get(ip);
  if (known !== undefined) return known;
  const hash = keyedHash(CLIENT_IP_PURPOSE, ip);
  if (ipHashes.size >= IP_HASHES_MAX) ipHashes.delete(ipHashes.keys().next().value!);
  ipHashes.set(ip, hash);
  return hash;
}
