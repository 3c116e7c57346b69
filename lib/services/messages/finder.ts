import { and, count, eq, gt, isNotNull, isNull, sql } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import type { Thread } from "@/db/schema";
import { countAttempt, type CountedAttempt } from "@/lib/ratelimit";
import { signalThreadEvent } from "@/lib/realtime/channel";
import { isUserSuspended } from "@/lib/services/auth";
import { type ServiceContext, withTransaction } from "@/lib/services/context";
import { ForbiddenError, NotFoundError } from "@/lib/services/errors";
import { insertSharedLocationScan, notifyLocationShared, SHARE_ALERT_INTERVAL_MS, type ShareLocationInput } from "@/lib/services/scans";
import { hashClientIp, type Visitor } from "@/lib/services/visitor";
import { tagNameFor } from "./access";
import { isBlocked } from "@/lib/services/blocks";
import { tagOfThread, threadByToken } from "./queries";
import { claimFinderEmail, finderAddressKey, queueFinderEmail } from "./finder-email";
import { negotiateLocale } from "@/lib/i18n/locales";
import { notifyOwnerOfMessage } from "./owner-notice";
import { messagesOf, toMessageRecord } from "./records";
import type { ContactOwnerInput, ContactResult, FinderEmailInput, FinderEmailResult, FinderReplyInput, FinderThread, ThreadMessageRecord } from "./schemas";
import { newThreadToken, sealThreadToken, threadTokenHash, threadUrl } from "./thread-token";

const NOT_CONTACTABLE = "This tag's owner cannot be contacted through it.";
const BLOCKED = "The owner is not accepting messages from you.";
const SUSPENDED_FINDER = "This conversation was opened by an account that is suspended.";
const OWN_TAG = "This is your own tag: you cannot write to yourself as its finder.";

/** The signed-in user sending, if any (auth is optional on the finder endpoints). */
function finderUserIdOf(ctx: ServiceContext): string | null {
  return ctx.actor.kind === "user" ? ctx.actor.userId : null;
}

/**
 * POST /scan/:encryptedId/contact: opens an anonymous conversation with the tag's owner. Unknown tag 404;
 * an unowned or DEACTIVATED tag (contactEnabled false) 403; the tag's owner (signed in or by credential) 403;
 * a signed-in finder the owner has blocked 403.
 * The token is answered once and stored only as a keyed hash (and sealed, when the finder left an e-mail
 * address, for the reply e-mails). The owner is notified (MESSAGE_RECEIVED) without the finder's address.
 */
export async function contactOwner(ctx: ServiceContext, encryptedId: string, input: ContactOwnerInput, visitor: Visitor): Promise<ContactResult> {
  const finderUserId = finderUserIdOf(ctx);
  return withTransaction(ctx, async (tx) => {
    const [tag] = await tx.db
      .select({ id: schema.tags.id, ownerId: schema.tags.ownerId, status: schema.tags.status, itemName: schema.tags.itemName })
      .from(schema.tags)
      .where(eq(schema.tags.encryptedId, encryptedId));
    if (!tag) throw new NotFoundError("Tag not found.");
    if (!tag.ownerId || tag.status === "DEACTIVATED") throw new ForbiddenError(NOT_CONTACTABLE);
    // The owner cannot be a finder of their own tag: such a conversation would get a handover code and
    // could be named as the finder who returned the item, paying the reward to the owner.
    if (finderUserId === tag.ownerId) throw new ForbiddenError(OWN_TAG);
    if (finderUserId && (await isBlocked(tx.db, tag.ownerId, finderUserId))) throw new ForbiddenError(BLOCKED);

    const token = newThreadToken();
    const finderEmail = input.finderEmail ?? null;
    const [thread] = await tx.db
      .insert(schema.threads)
      .values({
        tagId: tag.id,
        ownerId: tag.ownerId,
        tokenHash: threadTokenHash(token),
        tokenSealed: finderEmail ? sealThreadToken(token) : null,
        finderName: input.finderName ?? null,
        finderEmail,
        finderUserId,
        finderIpHash: hashClientIp(visitor.ip),
        finderLocale: negotiateLocale(visitor.acceptLanguage),
      })
      .returning();
    // lastMessageAt defaults to now(), the same transaction time as this message's createdAt.
    const [message] = await tx.db.insert(schema.threadMessages).values({ threadId: thread!.id, sender: "FINDER", content: input.message }).returning();
    await notifyOwnerOfMessage(tx, {
      ownerId: tag.ownerId,
      threadId: thread!.id,
      tagId: tag.id,
      tagName: tag.itemName,
      finderName: thread!.finderName,
      content: message!.content,
      firstMessage: true,
      email: true,
    });
    return {
      threadToken: token,
      threadUrl: threadUrl(token),
      message: "Your message was sent to the owner. Keep the conversation link: it is the only way back to the reply.",
    };
  });
}

/**
 * GET /scan/thread/:token: the finder's view. Reading it marks the owner's messages read (only the
 * finder holds the token). tagName is null when the tag's profile is PRIVATE or the tag has left the owner.
 */
export async function getFinderThread(ctx: ServiceContext, token: string, now = new Date()): Promise<FinderThread> {
  const thread = await threadByToken(ctx.db, token);
  await ctx.db
    .update(schema.threadMessages)
    .set({ readAt: now })
    .where(and(eq(schema.threadMessages.threadId, thread.id), eq(schema.threadMessages.sender, "OWNER"), isNull(schema.threadMessages.readAt)));
  const [tag, messages] = await Promise.all([tagOfThread(ctx.db, thread), messagesOf(ctx.db, thread.id)]);
  return { threadId: thread.id, tagName: tagNameFor(thread, tag, "finder"), status: thread.status, emailOnReply: Boolean(thread.finderEmail && thread.tokenSealed), messages };
}

/**
 * The conversation a token opens, locked, when the finder may write to it now: a CLOSED or BLOCKED one,
 * one opened by an account that is now suspended, and a finder account the owner has blocked are 403.
 */
async function threadOpenToFinder(db: Executor, token: string, signedIn: string | null): Promise<Thread> {
  const thread = await threadByToken(db, token, { lock: true });
  if (thread.status === "BLOCKED") throw new ForbiddenError("The owner has blocked this conversation.");
  if (thread.status === "CLOSED") throw new ForbiddenError("The owner has closed this conversation.");
  // A suspension ends the account's finder conversations too: the thread token alone would otherwise
  // let a suspended user keep writing to owners without signing in.
  if (thread.finderUserId && (await isUserSuspended(db, thread.finderUserId))) throw new ForbiddenError(SUSPENDED_FINDER);
  for (const userId of new Set([thread.finderUserId, signedIn])) {
    if (userId && (await isBlocked(db, thread.ownerId, userId))) throw new ForbiddenError(BLOCKED);
  }
  return thread;
}

/** The text of a shared location's message, for the inbox's preview and API clients: never the coordinates. */
export function sharedLocationText(accuracy: number | null): string {
  return `Location shared${accuracy !== null ? ` (within ${Math.round(accuracy)} m)` : ""}.`;
}

/**
 * POST /scan/thread/:token/location: the finder shares where they are (the browser asked them) as a
 * message in the conversation, which both sides see with the place, its accuracy and its time. Refused
 * as a reply is (403 CLOSED, BLOCKED, blocked or suspended finder; 404 unknown token).
 * - While the tag is still the conversation owner's, the place is also kept in the tag's scan list and
 *   map (a shared-location scan row, as POST /scan/:encryptedId/location keeps it). A tag given away
 *   since takes nothing: its new owner never sees an old conversation's places.
 * - The owner is told with FINDER_LOCATION_SHARED (leading to the conversation) at most once per
 *   conversation per 10 minutes. A place shared again within that time is a quiet message notification:
 *   the inbox and the owner's open pages show it live, but it is neither e-mailed nor pushed.
 * The thread row is locked, so concurrent shares queue and exactly one of a burst alerts.
 */
export async function shareLocationInThread(ctx: ServiceContext, token: string, input: ShareLocationInput, visitor: Visitor): Promise<ThreadMessageRecord> {
  const signedIn = finderUserIdOf(ctx);
  return withTransaction(ctx, async (tx) => {
    const thread = await threadOpenToFinder(tx.db, token, signedIn);
    const [recent] = await tx.db
      .select({ id: schema.threadMessages.id })
      .from(schema.threadMessages)
      .where(
        and(
          eq(schema.threadMessages.threadId, thread.id),
          isNotNull(schema.threadMessages.latitude),
          gt(schema.threadMessages.createdAt, sql`now() - ${sql.raw(`interval '${SHARE_ALERT_INTERVAL_MS} milliseconds'`)}`),
        ),
      )
      .limit(1);
    const accuracy = input.accuracy ?? null;
    // Never stamped before the conversation's last message: shared in the transaction that opened the
    // conversation (a lost pet's sighting), now() is the first message's time too, and the owner must read
    // the words before the place.
    const createdAt = sql<Date>`greatest(now(), ${thread.lastMessageAt.toISOString()}::timestamptz + interval '1 millisecond')`;
    const [message] = await tx.db
      .insert(schema.threadMessages)
      .values({ threadId: thread.id, sender: "FINDER", content: sharedLocationText(accuracy), latitude: input.latitude, longitude: input.longitude, accuracy, createdAt })
      .returning();
    await tx.db.update(schema.threads).set({ lastMessageAt: message!.createdAt }).where(eq(schema.threads.id, thread.id));
    await signalThreadEvent(tx.db, { threadId: thread.id, kind: "message" });

    const [tag] = await tx.db.select().from(schema.tags).where(eq(schema.tags.id, thread.tagId));
    const stillTheirs = tag !== undefined && tag.ownerId === thread.ownerId;
    const scan = stillTheirs ? await insertSharedLocationScan(tx.db, tag.id, input, visitor) : null;
    const tagName = tagNameFor(thread, tag, "owner");
    if (!recent) {
      await notifyLocationShared(tx, {
        ownerId: thread.ownerId,
        itemName: tagName,
        finderName: thread.finderName,
        inConversation: true,
        accuracy,
        data: { tagId: thread.tagId, threadId: thread.id, messageId: message!.id, scanId: scan?.id ?? null, latitude: input.latitude, longitude: input.longitude, accuracy },
      });
    } else {
      await notifyOwnerOfMessage(tx, {
        ownerId: thread.ownerId,
        threadId: thread.id,
        tagId: thread.tagId,
        tagName,
        finderName: thread.finderName,
        content: message!.content,
        firstMessage: false,
        email: false,
        location: true,
      });
    }
    return toMessageRecord(message!);
  });
}

/**
 * POST /scan/thread/:token/reply. The thread is locked, so a status change and a reply never cross:
 * CLOSED or BLOCKED answers 403, as do a finder account the owner has blocked and a conversation
 * opened by an account that is now suspended. Each reply notifies
 * the owner; only the first unread one of a burst is also e-mailed (see notifyOwnerOfMessage).
 */
export async function replyAsFinder(ctx: ServiceContext, token: string, input: FinderReplyInput): Promise<ThreadMessageRecord> {
  const signedIn = finderUserIdOf(ctx);
  return withTransaction(ctx, async (tx) => {
    const thread = await threadOpenToFinder(tx.db, token, signedIn);
    const [unread] = await tx.db
      .select({ n: count() })
      .from(schema.threadMessages)
      .where(and(eq(schema.threadMessages.threadId, thread.id), eq(schema.threadMessages.sender, "FINDER"), isNull(schema.threadMessages.readAt)));
    const [message] = await tx.db.insert(schema.threadMessages).values({ threadId: thread.id, sender: "FINDER", content: input.message }).returning();
    await tx.db.update(schema.threads).set({ lastMessageAt: message!.createdAt }).where(eq(schema.threads.id, thread.id));
    // The finder's other open tabs of this conversation show the reply too.
    await signalThreadEvent(tx.db, { threadId: thread.id, kind: "message" });
    const tag = await tagOfThread(tx.db, thread);
    await notifyOwnerOfMessage(tx, {
      ownerId: thread.ownerId,
      threadId: thread.id,
      tagId: thread.tagId,
      tagName: tagNameFor(thread, tag, "owner"),
      finderName: thread.finderName,
      content: message!.content,
      firstMessage: false,
      email: Number(unread?.n ?? 0) === 0,
    });
    return toMessageRecord(message!);
  });
}

/**
 * The finder page's "e-mail me the link" button: sends the thread link to the address the finder left,
 * and only to an address nobody confirmed, so: once per conversation (linkEmailedAt), within the finder
 * e-mail slot (one e-mail per 10 minutes, shared with the reply e-mails), at most a few a day to one
 * address whatever the conversation (finderLinkEmailsByAddress), and never for a conversation whose
 * finder account is suspended. The thread row is locked, so of concurrent requests one at a time decides
 * and at most one sends. Unknown token 404; otherwise the same answer whether or not an e-mail went out,
 * so it tells nothing about the address, the conversation or the caps.
 */
export async function emailThreadLinkToFinder(ctx: ServiceContext, token: string, now = new Date()): Promise<{ message: string }> {
  const ip = ctx.actor.kind === "system" ? "" : ctx.actor.ip;
  let counted: CountedAttempt | undefined;
  try {
    await withTransaction(ctx, async (tx) => {
      const thread = await threadByToken(tx.db, token, { lock: true });
      if (!thread.finderEmail || thread.linkEmailedAt) return;
      if (thread.finderUserId && (await isUserSuspended(tx.db, thread.finderUserId))) return;
      if (!(await claimFinderEmail(tx, thread.id, now, { link: true }))) return;
      // Counted only once this conversation's one link e-mail is about to go, so repeated clicks on one
      // conversation never use up the address's budget for the others.
      counted = await countAttempt(["finderLinkEmailsByAddress"], { ip, key: finderAddressKey(thread.finderEmail) });
      if (!counted.decision.allowed) {
        // Over the address's cap: give the slots back (the row is still locked by us), so the finder may
        // ask again once the day has passed; and take back the refused count.
        await tx.db
          .update(schema.threads)
          .set({ finderNotifiedAt: thread.finderNotifiedAt, linkEmailedAt: null, updatedAt: thread.updatedAt })
          .where(eq(schema.threads.id, thread.id));
        await counted.refund();
        counted = undefined;
        return;
      }
      await queueFinderEmail(tx, thread, token, "link");
    });
  } catch (error) {
    // Nothing was sent: the count goes back too.
    await counted?.refund();
    throw error;
  }
  return { message: "If an e-mail address was given for this conversation, the link is on its way. We send it once per conversation, and at most one e-mail every 10 minutes." };
}

/**
 * PUT /scan/thread/:token/email and the thread page's form: the finder asks to be e-mailed when the owner
 * replies (or changes the address). Nothing is sent now; the next owner reply e-mails it, within the
 * conversation's one e-mail per 10 minutes (finder-email.ts). The token is sealed for those e-mails as at
 * contact time. A CLOSED or BLOCKED conversation 403 (no reply will come), unknown token 404. The
 * address is never shown to the owner.
 */
export async function setFinderEmail(ctx: ServiceContext, token: string, input: FinderEmailInput): Promise<FinderEmailResult> {
  return withTransaction(ctx, async (tx) => {
    const thread = await threadByToken(tx.db, token, { lock: true });
    if (thread.status !== "ACTIVE") throw new ForbiddenError(`This conversation is ${thread.status === "CLOSED" ? "closed" : "blocked"}.`);
    // updatedAt kept: the owner sees nothing of this.
    await tx.db
      .update(schema.threads)
      .set({ finderEmail: input.finderEmail, tokenSealed: thread.tokenSealed ?? sealThreadToken(token), updatedAt: thread.updatedAt })
      .where(eq(schema.threads.id, thread.id));
    return { message: "We will e-mail you when the owner replies (at most one e-mail every 10 minutes).", emailOnReply: true as const };
  });
}
