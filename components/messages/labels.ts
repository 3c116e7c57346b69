import { finderLabel } from "@/lib/services/messages";

/** How the inbox and a conversation name the finder: as the notifications do (finderLabel, docs/relay.md). */
export function threadTitle(item: { finderName: string | null; finderPhoneLastDigits?: string | null; relayPhone?: { lastDigits: string } | null }): string {
  return finderLabel({ finderName: item.finderName, finderPhoneLastDigits: item.finderPhoneLastDigits ?? item.relayPhone?.lastDigits ?? null });
}

/** What the conversation is about: the tag's name, unless it is unnamed or no longer the owner's. */
export function threadSubject(item: { tagName: string | null }): string {
  return item.tagName ?? "an unnamed tag, or one you no longer have";
}

/**
 * What the owner's reply panel says happens to a reply: for a conversation the phone relay opened, whether
 * it is texted to the finder (docs/relay.md); else whether the finder is e-mailed a link to it.
 */
export function replyPanelDescription(thread: { notifiesFinder: boolean; relayPhone: { lastDigits: string; canTextBack: boolean } | null }): string {
  if (thread.relayPhone) {
    return thread.relayPhone.canTextBack
      ? `Your reply is texted to the finder (phone ending ${thread.relayPhone.lastDigits}) from the relay number, as your own text to it would be. They never see your phone number or e-mail address unless you write them here.`
      : "This finder can no longer be reached by text: their last text is more than 7 days old, they only called, or they stopped texts from the relay. Your reply is still saved here, and they read it if they open their conversation link.";
  }
  return thread.notifiesFinder
    ? "The finder reads your reply on their page and gets an e-mail with a link to it (at most one every 10 minutes). They never see your e-mail address or phone number unless you write them here."
    : "The finder reads your reply when they open their link again: they left no e-mail address. They never see your e-mail address or phone number unless you write them here.";
}
