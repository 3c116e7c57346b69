import { keyedHash, openSealedText, randomToken, sealText } from "@/lib/auth/tokens";
import { env } from "@/lib/env";

/**
 * The thread token: the finder's only key to a conversation. 256 random bits as base64url (43
 * characters). Stored as a keyed hash for lookup, and sealed (only when the finder left an e-mail
 * address) so the reply e-mail can carry the link long after the token was shown.
 */
export const THREAD_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newThreadToken(): string {
  return randomToken(32);
}

/** The lookup key stored in threads.tokenHash (HMAC under a key of its own). */
export function threadTokenHash(token: string): string {
  return keyedHash("thread-token-hash", token);
}

export function sealThreadToken(token: string): string {
  return sealText("thread-token-seal", token);
}

export function openThreadToken(sealed: string): string {
  return openSealedText("thread-token-seal", sealed);
}

/** The finder's page for the conversation: `<APP_URL>/thread/<token>`. */
export function threadUrl(token: string): string {
  return `${env.APP_URL.replace(/\/+$/, "")}/thread/${token}`;
}
