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

/** The client IP: the first X-Forwarded-For hop behind a trusted proxy, else the socket peer. */
export function clientIp(headers: Headers, trustProxy = env.TRUST_PROXY): string {
  if (trustProxy) {
    const forwarded = normalise(headers.get("x-forwarded-for")?.split(",")[0]);
    if (forwarded) return forwarded;
  }
  return normalise(headers.get(PEER_ADDRESS_HEADER)) ?? "unknown";
}

/** Geo headers are honoured only behind a trusted proxy. */
export function clientGeo(headers: Headers, trustProxy = env.TRUST_PROXY) {
  if (!trustProxy) return null;
  const latitude = Number(headers.get("x-vercel-ip-latitude"));
  const longitude = Number(headers.get("x-vercel-ip-longitude"));
  if (!headers.has("x-vercel-ip-latitude") || !Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
  const decode = (value: string | null) => (value ? decodeURIComponent(value) : null);
  return { latitude, longitude, city: decode(headers.get("x-vercel-ip-city")), country: headers.get("x-vercel-ip-country") };
}
