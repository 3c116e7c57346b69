import type { Visitor } from "@/lib/services/visitor";
import { clientIp } from "./client-ip";
import { clientGeo } from "./geo-headers";

function isPrefetch(headers: Headers): boolean {
  const purpose = `${headers.get("sec-purpose") ?? ""},${headers.get("purpose") ?? ""},${headers.get("x-purpose") ?? ""},${headers.get("x-moz") ?? ""}`;
  return /\bprefetch\b/i.test(purpose) || headers.get("next-router-prefetch") === "1";
}

/** The visitor facts of a request (API route or page), with the client IP decided by TRUST_PROXY and the location by GEO_HEADERS. */
export function visitorFrom(headers: Headers, method = "GET", ip: string = clientIp(headers)): Visitor {
  return {
    ip,
    userAgent: headers.get("user-agent"),
    geo: clientGeo(headers),
    method: method.toUpperCase(),
    prefetch: isPrefetch(headers),
    acceptLanguage: headers.get("accept-language"),
  };
}
