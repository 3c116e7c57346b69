import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import { env } from "@/lib/env";
import { classifyAddress } from "./address";

/**
 * The SSRF guard for push subscription endpoints (docs/decisions/0036-push-ssrf-guard.md).
 * By default an endpoint must be https on a host whose every resolved address is public; with
 * `allowPrivate` (tests only) http and loopback/private hosts are accepted too.
 */
export interface EndpointPolicy {
  allowPrivate?: boolean;
  /** Resolves a host name to all its addresses; dns.lookup by default. */
  lookup?: (hostname: string) => Promise<string[]>;
}

export class PushEndpointError extends Error {
  /** False when the refusal may pass (the host did not resolve this time). */
  constructor(
    message: string,
    readonly permanent = true,
  ) {
    super(message);
    this.name = "PushEndpointError";
  }
}

const MAX_ENDPOINT_LENGTH = 2048;

async function systemLookup(hostname: string): Promise<string[]> {
  const results = await dnsLookup(hostname, { all: true, verbatim: true });
  return results.map((result) => result.address);
}

export function allowPrivateEndpoints(): boolean {
  return env.PUSH_ALLOW_PRIVATE_ENDPOINTS;
}

/** The URL rules alone (no DNS): scheme, no credentials, a host. Throws PushEndpointError. */
export function parsePushEndpoint(endpoint: string, allowPrivate = allowPrivateEndpoints()): URL {
  if (endpoint.length > MAX_ENDPOINT_LENGTH) throw new PushEndpointError("The push endpoint is too long.");
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new PushEndpointError("The push endpoint is not a valid URL.");
  }
  const schemes = allowPrivate ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(url.protocol)) throw new PushEndpointError("The push endpoint must use https.");
  if (url.username || url.password) throw new PushEndpointError("The push endpoint must not carry credentials.");
  if (!url.hostname) throw new PushEndpointError("The push endpoint has no host.");
  // Push services listen on 443; another port would make us a scanner of the host's other services.
  if (!allowPrivate && url.port !== "") throw new PushEndpointError("The push endpoint must use port 443.");
  return url;
}

/**
 * Checks an endpoint fully: the URL rules, then every address its host resolves to (an IP literal
 * is judged as is). Returns the parsed URL and the addresses. Throws PushEndpointError when refused.
 */
export async function validatePushEndpoint(endpoint: string, policy: EndpointPolicy = {}): Promise<{ url: URL; addresses: string[] }> {
  const allowPrivate = policy.allowPrivate ?? allowPrivateEndpoints();
  const url = parsePushEndpoint(endpoint, allowPrivate);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await (policy.lookup ?? systemLookup)(host);
    } catch {
      throw new PushEndpointError("The push endpoint's host cannot be resolved.", false);
    }
    if (addresses.length === 0) throw new PushEndpointError("The push endpoint's host cannot be resolved.", false);
  }
  if (!allowPrivate) {
    const refused = addresses.find((address) => classifyAddress(address) !== "public");
    if (refused) throw new PushEndpointError("The push endpoint must be on a public host.");
  }
  return { url, addresses };
}
