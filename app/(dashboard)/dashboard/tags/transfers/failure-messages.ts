/** What the page says for a failed accept or decline, by the error code the action passes (never free text). */
const failureMessages: Record<string, string> = {
  NOT_FOUND: "That transfer no longer exists.",
  FORBIDDEN: "Verify your e-mail address before answering a transfer: open the link we sent you, then try again.",
  CONFLICT: "That transfer is no longer waiting for an answer (it expired, was cancelled or was already answered).",
  RATE_LIMIT_EXCEEDED: "Too many attempts. Please wait a minute and try again.",
};

export function transferFailureMessage(code: string | undefined): string {
  return (code && Object.hasOwn(failureMessages, code) ? failureMessages[code] : undefined) ?? "That did not work. Please try again.";
}
