import type { ServiceContext } from "@/lib/services/context";
import { notify } from "@/lib/services/notifications";
import { preview } from "./records";
import { scamSignals } from "./scam-rules";

/**
 * MESSAGE_RECEIVED for the owner, through notify(): who wrote (the name the finder gave, never their
 * e-mail address), a one-line preview and whether it looks like a scam. `email: false` when the owner
 * already has unread messages in the thread: one e-mail per burst, while every message still reaches
 * the inbox, the live stream and push. A location shared again within the conversation's alert interval
 * (`location: true`) is quiet: listed and streamed live, neither e-mailed nor pushed. A text relayed by
 * phone (`channel: "sms"`) is "New text".
 */
export async function notifyOwnerOfMessage(
  ctx: ServiceContext,
  input: { ownerId: string; threadId: string; tagId: string; tagName: string | null; finderName: string | null; content: string; firstMessage: boolean; email: boolean; location?: boolean; channel?: "sms" },
) {
  const who = input.finderName ?? "A finder";
  const about = input.tagName ? `“${input.tagName}”` : "your tag";
  const flagged = !input.location && scamSignals(input.content).length > 0 ? " (flagged as a possible scam: read the warning before you answer)" : "";
  return notify(ctx, {
    userId: input.ownerId,
    type: "MESSAGE_RECEIVED",
    title: input.location ? `New location about ${about}` : input.channel === "sms" ? `New text about ${about}` : input.firstMessage ? `New message about ${about}` : `New reply about ${about}`,
    body: `${who}: ${preview(input.content)}${flagged}`,
    data: { threadId: input.threadId, tagId: input.tagId, ...(input.channel ? { channel: input.channel } : {}) },
    email: input.location ? false : input.email,
    push: !input.location,
  });
}
