import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js/max";
import { keyedHash } from "@/lib/auth/tokens";

/** The purposes of the keys the relay seals and hashes numbers under (lib/auth/tokens.ts derives one key each). */
export const OWNER_PHONE_SEAL = "relay-owner-phone";
const PHONE_NUMBER_HASH = "relay-phone-number";

/**
 * A phone number as E.164 (+4915123456789), or null when it is not a valid number. International form
 * ("+49 151 …", "0049 …" is not) is read as it is; a national one needs `country` (ISO 3166 alpha-2).
 * The full metadata ("max") checks the number against each country's real ranges, not only its length.
 */
export function normalizePhoneNumber(input: string, country?: string): string | null {
  const text = input.trim();
  if (!text || text.length > 40) return null;
  const parsed = parsePhoneNumberFromString(text, country ? (country.toUpperCase() as CountryCode) : undefined);
  if (!parsed || !parsed.isValid()) return null;
  return parsed.number;
}

/**
 * The keyed hash a number (E.164) is found by: owners' verified numbers here, finders' numbers in part 2.
 * HMAC under a key derived from AUTH_SECRET, since phone numbers are few enough to hash them all.
 */
export function hashPhoneNumber(e164: string): string {
  return keyedHash(PHONE_NUMBER_HASH, e164);
}

/** The last 2 digits, all that any answer or page shows of a stored number. */
export function lastDigitsOf(e164: string): string {
  return e164.slice(-2);
}
