import { generateSecret, generateURI, verify } from "otplib";
import { openSealedText, sealText } from "./tokens";

/** RFC 6238: SHA-1, 6 digits, 30 s steps, one step of tolerance either side. */
export const TOTP_PERIOD_SECONDS = 30;
const TOLERANCE_SECONDS = TOTP_PERIOD_SECONDS;
export const TOTP_ISSUER = "Tag Service";

export function newTotpSecret(): string {
  return generateSecret();
}

export function totpUri(secret: string, accountEmail: string): string {
  return generateURI({ issuer: TOTP_ISSUER, label: accountEmail, secret, period: TOTP_PERIOD_SECONDS, digits: 6, algorithm: "sha1" });
}

/**
 * The time step the code matched, or null. A code whose step is not after `lastTimeStep` is refused,
 * so a code is accepted once.
 */
export async function verifyTotp(secret: string, code: string, options: { lastTimeStep?: number | null; now?: Date } = {}): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const epoch = Math.floor((options.now ?? new Date()).getTime() / 1000);
  // otplib throws when afterTimeStep lies beyond the window (a clock that went backwards): refuse instead.
  if (options.lastTimeStep != null && options.lastTimeStep >= Math.floor(epoch / TOTP_PERIOD_SECONDS) + 1) return null;
  const result = await verify({
    secret,
    token: code,
    period: TOTP_PERIOD_SECONDS,
    digits: 6,
    algorithm: "sha1",
    epoch,
    epochTolerance: TOLERANCE_SECONDS,
    ...(options.lastTimeStep != null ? { afterTimeStep: options.lastTimeStep } : {}),
  });
  return result.valid && "timeStep" in result ? result.timeStep : null;
}

const ENCRYPTION_PURPOSE = "totp-secret-aes-256-gcm";

/** AES-256-GCM, as `iv.tag.ciphertext` in base64url. */
export function encryptSecret(plain: string): string {
  return sealText(ENCRYPTION_PURPOSE, plain);
}

export function decryptSecret(sealed: string): string {
  return openSealedText(ENCRYPTION_PURPOSE, sealed);
}
