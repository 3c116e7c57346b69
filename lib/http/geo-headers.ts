import { env, type Env } from "@/lib/env";
import type { CoarseLocation } from "@/lib/services/visitor";

export type GeoHeaderSource = Env["GEO_HEADERS"];

/** The header names each provider sets (and overwrites, so a client's own copy never reaches us). */
const HEADERS = {
  vercel: { latitude: "x-vercel-ip-latitude", longitude: "x-vercel-ip-longitude", city: "x-vercel-ip-city", country: "x-vercel-ip-country" },
  cloudflare: { latitude: "cf-iplatitude", longitude: "cf-iplongitude", city: "cf-ipcity", country: "cf-ipcountry" },
} as const;

/** Longest city name kept: real ones are far shorter, and the scan list shows it as is. */
export const MAX_CITY_LENGTH = 100;

/** A plain decimal number as the providers send it ("48.8566", "-0.1278"): no exponent, hex, Infinity or spaces. */
const DECIMAL = /^[+-]?\d{1,3}(?:\.\d{1,20})?$/;
/** Letters, marks, digits, punctuation, symbols and spaces: no control, format (bidi, zero-width), private-use or unpaired surrogate characters. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]+$/u;
/** What a percent-encoded value may hold before decoding (RFC 3986 unreserved, reserved and "%"). */
const PERCENT_ENCODED = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/?#[\]% ]+$/;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * One header's value, or null when it is missing, empty, or sent more than once: Headers joins repeated
 * fields with ", ", which none of these values contains as sent (numbers, a percent-encoded city, a
 * two-letter code, a geolocation database's city name), so a comma means someone added a copy.
 */
function single(headers: Headers, name: string): string | null {
  const value = headers.get(name)?.trim();
  if (!value || value.includes(",")) return null;
  return value;
}

function coordinate(raw: string | null, limit: number): number | null {
  if (raw === null || !DECIMAL.test(raw)) return null;
  const value = Number(raw);
  return Number.isFinite(value) && Math.abs(value) <= limit ? value : null;
}

/**
 * Node hands header bytes over as Latin-1 characters; a provider sending UTF-8 (Cloudflare's plain-text
 * city) needs them read back as UTF-8. Invalid UTF-8 is not a city name.
 */
function fromHeaderBytes(value: string): string | null {
  if (!/[^\x00-\x7f]/.test(value)) return value;
  if (/[^\x00-\xff]/.test(value)) return null;
  try {
    return utf8.decode(Buffer.from(value, "latin1"));
  } catch {
    return null;
  }
}

/** Vercel percent-encodes the city (RFC 3986): a malformed escape or a raw non-ASCII byte is not its doing. */
function percentDecoded(value: string): string | null {
  if (!PERCENT_ENCODED.test(value)) return null;
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/** A city name fit to store and show: printable (checked after decoding, so "%00" cannot slip a NUL in) and bounded. */
function cityName(decoded: string | null): string | null {
  if (decoded === null) return null;
  const city = decoded.trim();
  if (!city || [...city].length > MAX_CITY_LENGTH || !PRINTABLE.test(city)) return null;
  return city;
}

/** ISO 3166-1 alpha-2; Cloudflare's XX (unknown) and T1 (Tor) say nothing of a place. */
function countryCode(raw: string | null): string | null {
  if (raw === null || !/^[A-Z]{2}$/.test(raw) || raw === "XX") return null;
  return raw;
}

/**
 * The coarse location of a request, read from the geo headers of the proxy GEO_HEADERS names, and only
 * behind a trusted proxy (TRUST_PROXY): without one, nothing overwrites what a client sends. Each value
 * is checked on its own and a bad one is dropped, never stored: coordinates only as a pair, both finite
 * decimals in range. Null when nothing usable remains. The one reader of geo headers, so the finder page
 * and the API place a scan alike.
 */
export function clientGeo(headers: Headers, source: GeoHeaderSource = env.GEO_HEADERS, trustedProxies: number = env.TRUST_PROXY): CoarseLocation | null {
  if (source === "none" || trustedProxies < 1) return null;
  const names = HEADERS[source];
  let latitude = coordinate(single(headers, names.latitude), 90);
  let longitude = coordinate(single(headers, names.longitude), 180);
  if (latitude === null || longitude === null) latitude = longitude = null;
  const rawCity = single(headers, names.city);
  const city = rawCity === null ? null : cityName(source === "vercel" ? percentDecoded(rawCity) : fromHeaderBytes(rawCity));
  const country = countryCode(single(headers, names.country));
  if (latitude === null && city === null && country === null) return null;
  return { latitude, longitude, city, country };
}
