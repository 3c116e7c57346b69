import { randomInt } from "node:crypto";
import { and, count, desc, eq, gt, isNotNull, isNull, lt, ne, sql } from "drizzle-orm";
import { schema, type Executor, type Transaction } from "@/db/client";
import type { Thread } from "@/db/schema";
import { sealText } from "@/lib/auth/tokens";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { signalThreadEvent } from "@/lib/realtime/channel";
import type { ServiceContext } from "@/lib/services/context";
import { finderLabel, newThreadToken, notifyOwnerOfMessage, threadTokenHash } from "@/lib/services/messages";
import { notify } from "@/lib/services/notifications";
import { hashPhoneNumber, lastDigitsOf } from "./phone-number";
import { RELAY_CODE_ALPHABET, RELAY_CODE_LENGTH, type OpenConversation } from "./sms-words";

/**
 * The relay's side of a conversation (docs/relay.md): the thread a finder's number opens on a tag, its
 * texts and calls as messages (channel sms / call) beside the web ones, and the owner's notifications.
 */

/** The purpose the finder's number is sealed under while the owner may text back. */
export const FINDER_PHONE_SEAL = "relay-finder-phone";
/** How long after a finder's last text the owner's text still reaches them. */
export const REPLY_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

type Tx = ServiceContext & { db: Transaction };

/** Blocking a finder's conversation blocks their number with that owner: any BLOCKED conversation of the number. */
export async function numberBlockedBy(db: Executor, ownerId: string, phoneHash: string): Promise<boolean> {
  const [row] = await db
    .select({ id: schema.threads.id })
    .from(schema.threads)
    .where(and(eq(schema.threads.ownerId, ownerId), eq(schema.threads.finderPhoneHash, phoneHash), eq(schema.threads.status, "BLOCKED")))
    .limit(1);
  return Boolean(row);
}

function randomRelayCode(): string {
  return Array.from({ length: RELAY_CODE_LENGTH }, () => RELAY_CODE_ALPHABET[randomInt(0, RELAY_CODE_ALPHABET.length)]).join("");
}

/** A code none of the owner's conversations has (the owner's row lock serialises two new conversations). */
async function freeRelayCode(db: Executor, ownerId: string): Promise<string> {
  for (;;) {
    const code = randomRelayCode();
    const [taken] = await db
      .select({ id: schema.threads.id })
      .from(schema.threads)
      .where(and(eq(schema.threads.ownerId, ownerId), eq(schema.threads.relayCode, code)));
    if (!taken) return code;
  }
}

/** The sweep that erases the sealed number runs when this window ends (docs/relay.md). */
async function scheduleErasure(tx: Tx, thread: Thread): Promise<void> {
  if (!thread.finderPhoneUntil) return;
  await enqueueJob(tx, "relay.erase-finder-numbers", { threadId: thread.id }, { startAfter: new Date(thread.finderPhoneUntil.getTime() + 1000) });
}

export interface PhoneThread {
  thread: Thread;
  /** A new conversation's token (the finder's link to it), only when it was opened now. */
  newToken: string | null;
}

/**
 * The conversation of this number about this tag: the newest ACTIVE one continues; otherwise (none, or
 * the owner closed it) a new one opens, with its code. A texting finder's number is sealed and the
 * reply window moved on (`sealForReply`); a caller's is kept only as hash and last 2 digits.
 */
export async function phoneThread(tx: Tx, input: { tagId: string; ownerId: string; phone: string; locale: string; sealForReply: boolean; now: Date }): Promise<PhoneThread> {
  const phoneHash = hashPhoneNumber(input.phone);
  // Two first texts from one number at once must not open two conversations.
  await tx.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`relay-thread:${input.ownerId}`}))`);
  const reply = input.sealForReply ? { finderPhoneSealed: sealText(FINDER_PHONE_SEAL, input.phone), finderPhoneUntil: new Date(input.now.getTime() + REPLY_WINDOW_MS) } : {};
  const [current] = await tx.db
    .select()
    .from(schema.threads)
    .where(and(eq(schema.threads.tagId, input.tagId), eq(schema.threads.ownerId, input.ownerId), eq(schema.threads.finderPhoneHash, phoneHash), eq(schema.threads.status, "ACTIVE")))
    .orderBy(desc(schema.threads.createdAt))
    .limit(1);
  if (current) {
    if (!input.sealForReply) return { thread: current, newToken: null };
    // A conversation a call opened has no link the finder knows: their first text into it gets one, as a
    // conversation a text opens does (docs/relay.md). Nobody holds the call's token, so it is replaced.
    const [texted] = await tx.db
      .select({ id: schema.threadMessages.id })
      .from(schema.threadMessages)
      .where(and(eq(schema.threadMessages.threadId, current.id), eq(schema.threadMessages.sender, "FINDER"), eq(schema.threadMessages.channel, "sms")))
      .limit(1);
    const token = texted ? null : newThreadToken();
    const [updated] = await tx.db
      .update(schema.threads)
      .set({ ...reply, ...(token ? { tokenHash: threadTokenHash(token) } : {}) })
      .where(eq(schema.threads.id, current.id))
      .returning();
    await scheduleErasure(tx, updated!);
    return { thread: updated!, newToken: token };
  }
  const token = newThreadToken();
  const [thread] = await tx.db
    .insert(schema.threads)
    .values({
      tagId: input.tagId,
      ownerId: input.ownerId,
      tokenHash: threadTokenHash(token),
      finderLocale: input.locale,
      finderPhoneHash: phoneHash,
      finderPhoneLastDigits: lastDigitsOf(input.phone),
      relayCode: await freeRelayCode(tx.db, input.ownerId),
      ...reply,
    })
    .returning();
  if (input.sealForReply) await scheduleErasure(tx, thread!);
  return { thread: thread!, newToken: token };
}

/** A relayed text or call as a message of the conversation, signalled to both sides' open pages. */
export async function addRelayMessage(
  tx: Tx,
  threadId: string,
  message: { sender: "FINDER" | "OWNER"; channel: "sms" | "call"; content: string; callOutcome?: "answered" | "missed"; callSeconds?: number | null },
) {
  const [row] = await tx.db
    .insert(schema.threadMessages)
    .values({ threadId, sender: message.sender, channel: message.channel, content: message.content, callOutcome: message.callOutcome ?? null, callSeconds: message.callSeconds ?? null })
    .returning();
  await tx.db.update(schema.threads).set({ lastMessageAt: row!.createdAt }).where(eq(schema.threads.id, threadId));
  await signalThreadEvent(tx.db, { threadId, kind: "message" });
  return row!;
}

/**
 * MESSAGE_RECEIVED for a relayed text through the messages' own notice (scam flag, preview, preferences);
 * e-mailed only for the first unread message of a burst, as web replies are.
 */
export async function notifyOwnerOfText(tx: Tx, thread: Thread, itemName: string | null, content: string, messageId: string) {
  const [unread] = await tx.db
    .select({ n: count() })
    .from(schema.threadMessages)
    .where(and(eq(schema.threadMessages.threadId, thread.id), eq(schema.threadMessages.sender, "FINDER"), isNull(schema.threadMessages.readAt), ne(schema.threadMessages.id, messageId)));
  await notifyOwnerOfMessage(tx, {
    ownerId: thread.ownerId,
    threadId: thread.id,
    tagId: thread.tagId,
    tagName: itemName,
    finderName: finderLabel(thread),
    content,
    firstMessage: false,
    email: (unread?.n ?? 0) === 0,
    channel: "sms",
  });
}

const about = (itemName: string | null) => (itemName ? `“${itemName}”` : "your tag");

/** "2 min 5 s", "40 s". */
export function callLength(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return minutes ? `${minutes} min${rest ? ` ${rest} s` : ""}` : `${rest} s`;
}

/** CALL_RECEIVED (answered, with its length) or CALL_MISSED, under the owner's message preferences. */
export async function notifyOwnerOfCall(tx: Tx, thread: Thread, itemName: string | null, outcome: { answered: boolean; seconds: number | null }) {
  await notify(tx, {
    userId: thread.ownerId,
    type: outcome.answered ? "CALL_RECEIVED" : "CALL_MISSED",
    title: outcome.answered ? `Call about ${about(itemName)}` : `Missed call about ${about(itemName)}`,
    body: outcome.answered
      ? `${finderLabel(thread)} called through the relay (${callLength(outcome.seconds ?? 0)}).`
      : `${finderLabel(thread)} called through the relay and could not reach you. You can answer in the conversation.`,
    data: { threadId: thread.id, tagId: thread.tagId, channel: "call" },
  });
}

/**
 * The conversations an owner's text can go to: a finder texted within the reply window (newest first),
 * still ACTIVE. Numbers whose window has passed are erased first (docs/relay.md: erased when read after
 * expiry, and by the sweep every relay text runs).
 */
export async function openConversations(db: Executor, ownerId: string, now: Date): Promise<(OpenConversation & { sealed: string; tagId: string })[]> {
  await eraseExpiredFinderNumbers(db, now);
  const rows = await db
    .select({ threadId: schema.threads.id, relayCode: schema.threads.relayCode, sealed: schema.threads.finderPhoneSealed, tagId: schema.threads.tagId })
    .from(schema.threads)
    .where(and(eq(schema.threads.ownerId, ownerId), eq(schema.threads.status, "ACTIVE"), isNotNull(schema.threads.finderPhoneSealed), gt(schema.threads.finderPhoneUntil, now)))
    .orderBy(desc(schema.threads.finderPhoneUntil));
  return rows.flatMap((row) => (row.relayCode && row.sealed ? [{ threadId: row.threadId, relayCode: row.relayCode, sealed: row.sealed, tagId: row.tagId }] : []));
}

/** Erases every finder number whose reply window has passed (the hash and last 2 digits stay). */
export async function eraseExpiredFinderNumbers(db: Executor, now: Date): Promise<number> {
  const erased = await db
    .update(schema.threads)
    .set({ finderPhoneSealed: null, finderPhoneUntil: null })
    .where(and(isNotNull(schema.threads.finderPhoneSealed), lt(schema.threads.finderPhoneUntil, now)))
    .returning({ id: schema.threads.id });
  return erased.length;
}
