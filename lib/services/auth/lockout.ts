import { countAttempt } from "@/lib/ratelimit";
import { RateLimitError, UnauthorizedError } from "@/lib/services/errors";

export interface LockoutSubject {
  ip: string;
  /** The account, by its normalised e-mail address (the same key whichever way it is guessed at). */
  email: string;
}

/**
 * Runs one guess at an account's password or second factor under the account lockout (docs/decisions/0012-rate-limits.md: 10
 * failures per 15 minutes from any IP, then 429). The guess is counted before it is judged, so N
 * simultaneous guesses can never pass more than the limit, and it stays counted only when it was wrong
 * (the guess threw UnauthorizedError): a right guess, or a failure of ours, is taken back.
 */
export async function underAccountLockout<T>(subject: LockoutSubject, guess: () => Promise<T>): Promise<T> {
  const attempt = await countAttempt(["accountLoginFailures"], { ip: subject.ip, key: subject.email.trim().toLowerCase() });
  if (!attempt.decision.allowed) throw new RateLimitError(attempt.decision.retryAfter);
  try {
    const result = await guess();
    await attempt.refund();
    return result;
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) await attempt.refund();
    throw error;
  }
}
