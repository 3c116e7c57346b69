import { and, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { preparedFor } from "@/db/prepared";
import type { Thread } from "@/db/schema";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { signalThreadEvent } from "@/lib/realtime/channel";
import { requireUser, withTransaction, type ServiceContext } from "@/lib/services/context";
import { ConflictError } from "@/lib/services/errors";
import { boundedTotal, keysetPage, type ListOrder, type Page, type PageRequest } from "@/lib/services/paging";
import { ownedThread, tagNameFor } from "./access";
import { tagOfThread } from "./queries";
import { emailFinder } from "./finder-email";
import { messagesOf, toMessageRecord } from "./records";
import { containsContactDetails, scamSignals } from "./scam-rules";
import type { OwnerReply, OwnerReplyInput, OwnerThread, ThreadListItem, ThreadStatus } from "./schemas";
import { openThreadToken } from "./thread-token";

const { threads, threadMessages, tags } = schema;

/** Text of the thread's newest message (a correlated subquery, one index probe per listed thread). */
const lastMessageSql = sql<string | null>`(
  select ${threadMessages.content} from ${threadMessages}
  where ${threadMessages.threadId} = ${threads.id}
  order by ${threadMessages.createdAt} desc, ${threadMessages.id} desc
  limit 1
)`;

/** Finder messages the owner has not read (the partial index on unread messages serves it). */
const unreadCountSql = sql<number>`(
  select count(*)::int from ${threadMessages}
  where ${threadMessages.threadId} = ${threads.id} and ${threadMessages.sender} = 'FINDER' and ${threadMessages.readAt} is null
)`;

/** The owner's threads (all, or one tag's) with what the inbox shows of each, in the inbox's order. */
function threadRows(db: Executor, where: SQL | undefined) {
  return db
    .select({
      id: threads.id,
      tagId: threads.tagId,
      ownerId: threads.ownerId,
      tagOwnerId: tags.ownerId,
      itemName: tags.itemName,
      visibility: tags.visibility,
      finderName: threads.finderName,
      finderPhoneLastDigits: threads.finderPhoneLastDigits,
      status: threads.status,
      lastMessageAt: threads.lastMessageAt,
      createdAt: threads.createdAt,
      updatedAt: threads.updatedAt,
      lastMessage: lastMessageSql,
      unreadCount: unreadCountSql,
    })
    .from(threads)
    .innerJoin(tags, eq(tags.id, threads.tagId))
    .where(where)
    .orderBy(...threadOrderBy);
}

type ThreadRow = Awaited<ReturnType<ReturnType<typeof threadRows>["execute"]>>[number];

const threadOrder: ListOrder<ThreadRow> = {
  name: "threads",
  keys: [
    { column: threads.lastMessageAt, direction: "desc", type: "timestamp" },
    { column: threads.id, direction: "desc", type: "uuid" },
  ],
  valuesOf: (row) => [row.lastMessageAt, row.id],
};
const threadOrderBy = [desc(threads.lastMessageAt), desc(threads.id)];

/** GET /messages's page by number, prepared (db/prepared.ts): all the owner's threads, or one tag's. */
function prepareThreadList(db: Executor) {
  const variant = (byTag: boolean) => {
    const mine = byTag ? and(eq(threads.ownerId, sql.placeholder("userId")), eq(threads.tagId, sql.placeholder("tagId"))) : eq(threads.ownerId, sql.placeholder("userId"));
    const name = byTag ? "threads_of_tag" : "threads";
    return threadRows(db, mine).limit(sql.placeholder("limit")).offset(sql.placeholder("offset")).prepare(`${name}_page`);
  };
  return { all: variant(false), ofTag: variant(true) };
}

const threadListQueries = new WeakMap<Executor, ReturnType<typeof prepareThreadList>>();

/**
 * GET /messages: the owner's conversations, most recent activity first, each with the newest message's
 * text and the count of unread finder messages; `tagId` keeps one tag's. By page (a prepared statement) or
 * by cursor (index threads_owner_last_message_id_idx). The finder's e-mail address and account never appear.
 */
export async function listThreads(ctx: ServiceContext, page: PageRequest & { tagId?: string }): Promise<Page<ThreadListItem>> {
  const { userId } = requireUser(ctx);
  const mine = page.tagId ? and(eq(threads.ownerId, userId), eq(threads.tagId, page.tagId)) : eq(threads.ownerId, userId);
  const plan = keysetPage(threadOrder, [userId, page.tagId ?? null], page);
  const rowsRead = plan.where
    ? threadRows(ctx.db, and(mine, plan.where)).limit(plan.limit)
    : preparedFor(threadListQueries, ctx.db, prepareThreadList)[page.tagId ? "ofTag" : "all"].execute({ userId, tagId: page.tagId ?? null, limit: plan.limit, offset: plan.offset });
  const [rows, total] = await Promise.all([rowsRead, boundedTotal(ctx.db, ctx.db.select({ one: sql`1` }).from(threads).where(mine))]);
  const flagged = await flaggedThreads(ctx.db, rows.slice(0, page.limit).map((row) => row.id));
  return plan.finish(rows, (row) => ({
    id: row.id,
    tagId: row.tagId,
    tagName: tagNameFor(row, { ownerId: row.tagOwnerId, itemName: row.itemName, visibility: row.visibility }, "owner"),
    finderName: row.finderName,
    finderPhoneLastDigits: row.finderPhoneLastDigits,
    lastMessage: row.lastMessage ?? null,
    unreadCount: Number(row.unreadCount ?? 0),
    scamFlagged: flagged.has(row.id),
    status: row.status,
    lastMessageAt: new Date(row.lastMessageAt).toISOString(),
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  }), total);
}

/**
 * The threads, of those given, with a finder message that trips the scam rules. The rules run on the text
 * (they are never stored), so this reads the finder messages of one page of threads in one query.
 */
async function flaggedThreads(db: Executor, threadIds: string[]): Promise<Set<string>> {
  if (threadIds.length === 0) return new Set();
  const rows = await db
    .select({ threadId: threadMessages.threadId, content: threadMessages.content })
    .from(threadMessages)
    .where(and(inArray(threadMessages.threadId, threadIds), eq(threadMessages.sender, "FINDER")));
  return new Set(rows.filter((row) => scamSignals(row.content).length > 0).map((row) => row.threadId));
}

/** The error code of a reply that needs the owner's confirmation first (see replyAsOwner). */
export const CONFIRM_CONTACT_DETAILS = "CONFIRM_CONTACT_DETAILS";

/**
 * Whether a text still reaches the finder of a conversation the relay opened (docs/relay.md): their sealed
 * number is within its 7-day window and has not sent STOP. Read here, not through the relay domain, which
 * imports this one.
 */
async function textReachesFinder(db: Executor, thread: Thread, now: Date): Promise<boolean> {
  if (!thread.finderPhoneSealed || !thread.finderPhoneUntil || thread.finderPhoneUntil <= now || !thread.finderPhoneHash) return false;
  const [stopped] = await db.select({ phoneHash: schema.relayOptOuts.phoneHash }).from(schema.relayOptOuts).where(eq(schema.relayOptOuts.phoneHash, thread.finderPhoneHash));
  return !stopped;
}

async function ownerView(ctx: ServiceContext, thread: Thread): Promise<OwnerThread> {
  const [tag, messages] = await Promise.all([tagOfThread(ctx.db, thread), messagesOf(ctx.db, thread.id)]);
  return {
    threadId: thread.id,
    tagId: thread.tagId,
    tagName: tagNameFor(thread, tag, "owner"),
    finderName: thread.finderName,
    status: thread.status,
    notifiesFinder: Boolean(thread.finderEmail && thread.tokenSealed),
    relayPhone: thread.finderPhoneLastDigits ? { lastDigits: thread.finderPhoneLastDigits, code: thread.relayCode, canTextBack: await textReachesFinder(ctx.db, thread, new Date()) } : null,
    createdAt: thread.createdAt.toISOString(),
    updatedAt: thread.updatedAt.toISOString(),
    messages,
  };
}

/** GET /messages/:threadId. Another owner's thread, or a malformed id, is 404. Reading does not mark it read (PATCH …/read does). */
export async function getThread(ctx: ServiceContext, threadId: string): Promise<OwnerThread> {
  return ownerView(ctx, await ownedThread(ctx, threadId));
}

async function markFinderMessagesRead(ctx: ServiceContext, threadId: string, now: Date): Promise<number> {
  const marked = await ctx.db
    .update(threadMessages)
    .set({ readAt: now })
    .where(and(eq(threadMessages.threadId, threadId), eq(threadMessages.sender, "FINDER"), isNull(threadMessages.readAt)))
    .returning({ id: threadMessages.id });
  return marked.length;
}

/** PATCH /messages/:threadId/read: the finder's messages in the thread count as read. Idempotent. */
export async function markThreadRead(ctx: ServiceContext, threadId: string, now = new Date()): Promise<{ message: string }> {
  const thread = await ownedThread(ctx, threadId);
  await markFinderMessagesRead(ctx, thread.id, now);
  return { message: "Conversation marked as read." };
}

/**
 * POST /messages/:threadId/reply. Only to an ACTIVE thread (409 otherwise: reopen it first). Replying
 * marks the finder's messages read. A finder who left an e-mail address is e-mailed the thread link in
 * their language, at most once per 10 minutes however many replies race (finder-email.ts).
 */
export async function replyAsOwner(ctx: ServiceContext, threadId: string, input: OwnerReplyInput, now = new Date()): Promise<OwnerReply> {
  return withTransaction(ctx, async (tx) => {
    const thread = await ownedThread(tx, threadId, { lock: true });
    if (thread.status !== "ACTIVE") {
      throw new ConflictError(`This conversation is ${thread.status === "CLOSED" ? "closed" : "blocked"}. Reopen it before replying.`, { status: thread.status });
    }
    // A phone number or address sent to a finder whose messages look like a scam is asked about first.
    if (!input.confirmContactDetails && containsContactDetails(input.content) && (await flaggedThreads(tx.db, [thread.id])).size > 0) {
      throw new ConflictError("This conversation looks like a scam and your reply gives your contact details. Send it again with confirmContactDetails: true if you are sure.", {
        reason: CONFIRM_CONTACT_DETAILS,
      });
    }
    const [message] = await tx.db.insert(threadMessages).values({ threadId: thread.id, sender: "OWNER", content: input.content }).returning();
    await tx.db.update(threads).set({ lastMessageAt: message!.createdAt }).where(eq(threads.id, thread.id));
    await markFinderMessagesRead(tx, thread.id, now);
    // The finder's open thread page shows the reply at once (sent on commit).
    await signalThreadEvent(tx.db, { threadId: thread.id, kind: "message" });
    if (thread.finderEmail && thread.tokenSealed) {
      await emailFinder(tx, thread, openThreadToken(thread.tokenSealed), "reply", { warnings: scamSignals(message!.content), now });
    }
    // A finder who reached the owner through the relay gets the reply by text, as the owner's own text
    // would reach them: one job per reply, run after this commits (docs/relay.md).
    let textedToFinder: boolean | null = null;
    if (thread.finderPhoneLastDigits) {
      textedToFinder = await textReachesFinder(tx.db, thread, now);
      if (textedToFinder) await enqueueJob(tx, "relay.text-owner-reply", { messageId: message!.id });
    }
    return { ...toMessageRecord(message!), textedToFinder };
  });
}

/**
 * PATCH /messages/:threadId { status }: close, block or reopen. Blocking a thread whose finder wrote
 * while signed in also blocks that account (a user_blocks row), so the block follows them to new
 * conversations; unblocking (to ACTIVE or CLOSED) lifts it again unless another of the owner's threads with
 * that finder is still BLOCKED. Setting the current status is a no-op.
 * The finder's identity is never revealed to the owner by any of this.
 */
export async function setThreadStatus(ctx: ServiceContext, threadId: string, status: ThreadStatus): Promise<OwnerThread> {
  const { userId } = requireUser(ctx);
  return withTransaction(ctx, async (tx) => {
    const thread = await ownedThread(tx, threadId, { lock: true });
    if (thread.status === status) return ownerView(tx, thread);
    const [updated] = await tx.db.update(threads).set({ status }).where(eq(threads.id, thread.id)).returning();
    // Ends the finder's live stream of a conversation that is no longer open.
    await signalThreadEvent(tx.db, { threadId: thread.id, kind: "status" });
    const finder = thread.finderUserId && thread.finderUserId !== userId ? thread.finderUserId : null;
    if (finder && status === "BLOCKED") {
      await tx.db.insert(schema.userBlocks).values({ blockerId: userId, blockedId: finder }).onConflictDoNothing();
    } else if (finder && thread.status === "BLOCKED") {
      // Unblocking lifts the account block too, unless another of the owner's conversations with the
      // same finder is still BLOCKED (that block stands).
      const [stillBlocked] = await tx.db
        .select({ id: threads.id })
        .from(threads)
        .where(and(eq(threads.ownerId, userId), eq(threads.finderUserId, finder), eq(threads.status, "BLOCKED")))
        .limit(1);
      if (!stillBlocked) await tx.db.delete(schema.userBlocks).where(and(eq(schema.userBlocks.blockerId, userId), eq(schema.userBlocks.blockedId, finder)));
    }
    return ownerView(tx, updated!);
  });
}
