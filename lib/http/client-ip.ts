import { isIP } from "node:net";
import { env } from "@/lib/env";

/**
 * Next copies a client-sent X-Forwarded-For through untouched, so the socket address cannot be read
 * from it. instrumentation.ts stamps every incoming request with this header (overwriting anything a
 * client sent), holding the TCP peer address.
 */
export const PEER_ADDRESS_HEADER = "x-tag-service-peer";

function normalise(address: string | null | undefined): string | null {
  if (!address) return null;
  let value = address.trim();
  if (value.startsWith("::ffff:") && isIP(value.slice(7)) === 4) value = value.slice(7);
  if (value.startsWith("[") && value.includes("]")) value = value.slice(1, value.indexOf("]"));
  return isIP(value) ? value : null;
}

/**
 * The client IP. `trustedProxies` is TRUST_PROXY as a count (false 0, true 1, N). Each proxy appends the
 * address it received the request from, so the N-th entry from the right is the one the outermost
 * trusted proxy saw; everything left of it is whatever the client chose to send and is never used.
 * Too few entries (or garbage there) means the request did not come through all the proxies: the
 * socket peer is the client then.
 */
export function clientIp(headers: Headers, trustedProxies: number = env.TRUST_PROXY): string {
  const peer = normalise(headers.get(PEER_ADDRESS_HEADER)) ?? "unknown";
  if (trustedProxies < 1) return peer;
  const hops = (headers.get("x-forwarded-for") ?? "").split(",").map((hop) => hop.trim()).filter(Boolean);
  if (hops.length < trustedProxies) return peer;
  return normalise(hops[hops.length - trustedProxies]) ?? peer;
}
