import { keyedHash } from "@/lib/auth/tokens";

/**
 * A user id as spans carry it (`user.hash`): HMAC-SHA256 under a key derived from AUTH_SECRET for this
 * purpose alone, cut to 128 bits. The same user gets the same value on every span, so a trace can be
 * grouped by user, but the id cannot be read back or matched against the database without the secret.
 */
export function telemetryUserHash(userId: string): string {
  return keyedHash("telemetry-user", userId).slice(0, 32);
}
