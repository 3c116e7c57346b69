/**
 * How the owner's pages and notifications name a conversation's finder: the name they gave; for a finder
 * who called or texted through the phone relay, the last 2 digits of their number (docs/relay.md); else
 * anonymously. One name everywhere: the inbox, the conversation and the notifications.
 */
export function finderLabel(thread: { finderName: string | null; finderPhoneLastDigits?: string | null }): string {
  return thread.finderName ?? (thread.finderPhoneLastDigits ? `A finder (phone ending ${thread.finderPhoneLastDigits})` : "Anonymous finder");
}
