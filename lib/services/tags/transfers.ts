import { createElement } from "react";
import { and, desc, eq, inArray, lte } from "drizzle-orm";
import { z } from "zod";
import { schema, type Executor } from "@/db/client";
import { NoticeEmail } from "@/emails/notice";
import { queueEmail } from "@/lib/email/queue";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { countAttempt, type CountedAttempt } from "@/lib/ratelimit";
import { requireUser, type ServiceContext, withTransaction } from "@/lib/services/context";
import { ConflictError, ForbiddenError, isUniqueViolation, NotFoundError, RateLimitError, ValidationError } from "@/lib/services/errors";
import { notify } from "@/lib/services/notifications";
import { ownedTag } from "./access";
import { assertWithinTierLimit, switchOffTagRelay } from "./queries";
import { findUserByEmail, getUserById } from "@/lib/services/auth";

/** How long a transfer offer stays open. */
export const TRANSFER_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const EXPIRE_TRANSFERS_JOB = "tags.expire-transfers" as const;

const TRANSFER_NOT_FOUND = "Transfer not found.";

export const transferStatusSchema = z.enum(["PENDING", "ACCEPTED", "DECLINED", "CANCELLED", "EXPIRED"]);

export const transferRecordSchema = z
  .object({
    id: z.uuid(),
    tagId: z.uuid(),
    itemName: z.string().nullable(),
    toEmail: z.string(),
    /** A PENDING transfer past its expiry is reported EXPIRED even before the expiry job has marked it. */
    status: transferStatusSchema,
    expiresAt: z.iso.datetime(),
    respondedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "TagTransfer" });

export type TransferRecord = z.infer<typeof transferRecordSchema>;
type TransferRow = typeof schema.tagTransfers.$inferSelect;

function isOverdue(transfer: TransferRow, now: Date): boolean {
  return transfer.status === "PENDING" && transfer.expiresAt.getTime() <= now.getTime();
}

function toTransferRecord(transfer: TransferRow, itemName: string | null, now = new Date()): TransferRecord {
  return {
    id: transfer.id,
    tagId: transfer.tagId,
    itemName,
    toEmail: transfer.toEmail,
    status: isOverdue(transfer, now) ? "EXPIRED" : transfer.status,
    expiresAt: transfer.expiresAt.toISOString(),
    respondedAt: transfer.respondedAt?.toISOString() ?? null,
    createdAt: transfer.createdAt.toISOString(),
  };
}


/**
 * A transfer ends the sender's open offer on the tag: an ACTIVE reward is removed (in the accept's
 * transaction), as the owner's own withdrawal would. Nobody has earned it yet, the sender can no longer
 * confirm a return of a tag that is not theirs, and the new owner may offer their own. A RETURNED, PAID or
 * DISPUTED reward stays: it is the sender's debt or history with a finder, and stays theirs alone.
 * Answers how many were removed. It is written here with the rest of what the transfer leaves behind (the
 * sender's conversations, insurance, scans): tags sits below the rewards domain (docs/architecture.md).
 */
async function withdrawRewardsOnTransfer(db: Executor, tagId: string, fromUserId: string): Promise<number> {
  const removed = await db
    .delete(schema.rewards)
    .where(and(eq(schema.rewards.tagId, tagId), eq(schema.rewards.ownerId, fromUserId), eq(schema.rewards.status, "ACTIVE")))
    .returning({ id: schema.rewards.id });
  return removed.length;
}

const PENDING_CONFLICT = "This tag already has a pending transfer. Cancel it before starting another.";

/** Marks every PENDING transfer past its expiry EXPIRED (all of them, or one tag's) and tells each sender. Idempotent. */
export async function expireOverdueTransfers(ctx: ServiceContext, options: { tagId?: string; now?: Date } = {}): Promise<number> {
  const now = options.now ?? new Date();
  const filters = [eq(schema.tagTransfers.status, "PENDING"), lte(schema.tagTransfers.expiresAt, now)];
  if (options.tagId) filters.push(eq(schema.tagTransfers.tagId, options.tagId));
  return withTransaction(ctx, async (tx) => {
    const expired = await tx.db
      .update(schema.tagTransfers)
      .set({ status: "EXPIRED" })
      .where(and(...filters))
      .returning({ id: schema.tagTransfers.id, tagId: schema.tagTransfers.tagId, fromUserId: schema.tagTransfers.fromUserId, toEmail: schema.tagTransfers.toEmail });
    if (expired.length === 0) return 0;
    const tags = await tx.db
      .select({ id: schema.tags.id, itemName: schema.tags.itemName })
      .from(schema.tags)
      .where(inArray(schema.tags.id, [...new Set(expired.map((transfer) => transfer.tagId))]));
    const itemNames = new Map(tags.map((tag) => [tag.id, tag.itemName]));
    for (const transfer of expired) {
      await notify(tx, {
        userId: transfer.fromUserId,
        type: "TAG_STATUS_CHANGED",
        title: "Your tag transfer expired",
        body: `${transfer.toEmail} did not answer within 7 days, so ${itemNames.get(transfer.tagId) ?? "your tag"} stays in your account. You can offer it again.`,
        data: { tagId: transfer.tagId, transferId: transfer.id, transferStatus: "EXPIRED" },
      });
    }
    return expired.length;
  });
}

/**
 * Counts one offer against the sender's and the address's daily caps, before it is made, so simultaneous
 * offers can never pass more than the cap (a count-after would let them all through). A refused offer is
 * taken back at once, so the counts stay "offers made or being made"; the caller refunds the rest when
 * the offer then fails.
 */
async function countOffer(ip: string, senderId: string, toEmail: string): Promise<CountedAttempt[]> {
  const counted = await Promise.all([
    countAttempt(["transferOffersBySender"], { ip, key: senderId }),
    countAttempt(["transferOffersByRecipient"], { ip, key: toEmail }),
  ]);
  const refused = counted.filter((attempt) => !attempt.decision.allowed);
  if (refused.length === 0) return counted;
  await Promise.all(counted.map((attempt) => attempt.refund()));
  throw new RateLimitError(Math.max(...refused.map((attempt) => attempt.decision.retryAfter)));
}

/**
 * POST /tags/:id/transfer: offers the caller's tag to an e-mail address for 7 days. One pending
 * transfer per tag (409; the partial unique index settles races); not to yourself (400). Capped per
 * sender and per address a day (429, rate-limit policies transferOffersBy*); only an offer that is
 * about to be made counts, not one refused for another reason.
 */
export async function createTransfer(ctx: ServiceContext, tagId: string, input: { email: string }): Promise<TransferRecord> {
  const { userId } = requireUser(ctx);
  const ip = ctx.actor.kind === "user" ? ctx.actor.ip : "";
  const toEmail = input.email.trim().toLowerCase();
  let counted: CountedAttempt[] = [];
  try {
    return await withTransaction(ctx, async (tx) => {
      const tag = await ownedTag(tx, tagId, { lock: true });
      const sender = await getUserById(tx.db, userId);
      if (sender.email.toLowerCase() === toEmail) throw ValidationError.field("email", "You cannot transfer a tag to yourself.");
      const now = new Date();
      // An offer that ran out but was not yet marked by the job no longer blocks a new one.
      await expireOverdueTransfers(tx, { tagId: tag.id, now });
      const [pending] = await tx.db
        .select({ id: schema.tagTransfers.id })
        .from(schema.tagTransfers)
        .where(and(eq(schema.tagTransfers.tagId, tag.id), eq(schema.tagTransfers.status, "PENDING")));
      if (pending) throw new ConflictError(PENDING_CONFLICT);
      // Counted under the tag lock, after every other refusal: a 404, 400 or 409 uses up nothing.
      counted = await countOffer(ip, userId, toEmail);

      const expiresAt = new Date(now.getTime() + TRANSFER_TTL_MS);
      const [transfer] = await tx.db.insert(schema.tagTransfers).values({ tagId: tag.id, fromUserId: userId, toEmail, expiresAt, createdAt: now }).returning();
      if (!transfer) throw new Error("transfer insert returned nothing");

      const itemName = tag.itemName ?? "a tag";
      const senderName = `${sender.firstName} ${sender.lastName}`.trim() || "A user";
      await queueEmail(tx, {
        to: toEmail,
        // A fixed subject: the sender chooses their own name, and a subject is what spam filters and
        // recipients judge before opening; user text stays in the (escaped) body.
        subject: "A tag is being transferred to you",
        templateName: "tags.transfer-offer",
        template: createElement(NoticeEmail, {
          heading: "A tag is being transferred to you",
          paragraphs: [
            `${senderName} wants to transfer "${itemName}" to you. The tag, its profile and photos would become yours.`,
            `Sign in with this e-mail address (or create an account with it) to accept or decline. The offer expires on ${expiresAt.toUTCString()}.`,
          ],
          action: { label: "Review the transfer", path: "/dashboard/tags/transfers" },
          reason: "You receive this e-mail because someone offered to transfer a tag to this address.",
        }),
      });
      const recipient = await findUserByEmail(tx.db, toEmail);
      // Only the address's confirmed holder hears of the offer in the app (anyone could register the
      // address unconfirmed); the e-mail above reaches the address's real owner either way.
      if (recipient?.emailVerified) {
        // The offer e-mail above already went out; the notification is for the dashboard and push.
        await notify(tx, {
          userId: recipient.id,
          type: "TRANSFER_RECEIVED",
          title: "A tag is being transferred to you",
          body: `${tag.itemName ?? "A tag"} is waiting for you to accept it.`,
          data: { transferId: transfer.id, tagId: tag.id },
          email: false,
        });
      }
      // The expiry is a delayed job per transfer (not a cron run); it sweeps all overdue ones.
      await enqueueJob(tx, EXPIRE_TRANSFERS_JOB, { transferId: transfer.id }, { startAfter: expiresAt });
      return toTransferRecord(transfer, tag.itemName, now);
    });
  } catch (error) {
    // No offer was made (the transaction rolled back): it must not use up the caps.
    await Promise.all(counted.map((attempt) => attempt.refund()));
    if (isUniqueViolation(error)) throw new ConflictError(PENDING_CONFLICT);
    throw error;
  }
}

/**
 * GET /tags/transfers: offers to the caller's e-mail address, and offers the caller made. Newest first.
 * Incoming is empty until the caller has confirmed the address: offers to it are not theirs to see before.
 */
export async function listTransfers(ctx: ServiceContext): Promise<{ incoming: TransferRecord[]; outgoing: TransferRecord[] }> {
  const { userId } = requireUser(ctx);
  const user = await getUserById(ctx.db, userId);
  const columns = { transfer: schema.tagTransfers, itemName: schema.tags.itemName };
  const base = () => ctx.db.select(columns).from(schema.tagTransfers).innerJoin(schema.tags, eq(schema.tags.id, schema.tagTransfers.tagId));
  const [incoming, outgoing] = await Promise.all([
    user.emailVerified
      ? base()
          .where(eq(schema.tagTransfers.toEmail, user.email.toLowerCase()))
          .orderBy(desc(schema.tagTransfers.createdAt), desc(schema.tagTransfers.id))
          .limit(100)
      : [],
    base()
      .where(eq(schema.tagTransfers.fromUserId, userId))
      .orderBy(desc(schema.tagTransfers.createdAt), desc(schema.tagTransfers.id))
      .limit(100),
  ]);
  const now = new Date();
  return {
    incoming: incoming.map((row) => toTransferRecord(row.transfer, row.itemName, now)),
    outgoing: outgoing.map((row) => toTransferRecord(row.transfer, row.itemName, now)),
  };
}

/** The transfer addressed to the caller's e-mail, locked; anyone else's is a 404. */
async function incomingTransfer(db: Executor, transferId: string, email: string, lock: boolean): Promise<TransferRow> {
  const query = db
    .select()
    .from(schema.tagTransfers)
    .where(and(eq(schema.tagTransfers.id, transferId), eq(schema.tagTransfers.toEmail, email.toLowerCase())));
  const [transfer] = lock ? await query.for("update") : await query;
  if (!transfer) throw new NotFoundError(TRANSFER_NOT_FOUND);
  return transfer;
}

/** Anyone could register an unconfirmed account with the address; only its confirmed holder may answer the offer. */
function assertConfirmedRecipient(recipient: { emailVerified: boolean }, doing: "accepting" | "declining"): void {
  if (!recipient.emailVerified) throw new ForbiddenError(`Verify your e-mail address before ${doing} a transfer.`);
}

function assertStillPending(transfer: TransferRow, now: Date): void {
  if (isOverdue(transfer, now)) throw new ConflictError("This transfer has expired.");
  if (transfer.status !== "PENDING") throw new ConflictError(`This transfer is no longer pending (${transfer.status}).`);
}

/**
 * POST /tags/transfers/:id/accept (recipient). Locks the tag, then the transfer (the order every
 * transfer write uses), re-checks it is still PENDING and not expired (409), checks the recipient's
 * tier limit (422) and moves the tag, leaving the sender's contact details, insurance and scans behind
 * and withdrawing the sender's ACTIVE reward on it (all in this transaction). Two racing accepts: the second waits on the lock, then sees ACCEPTED.
 */
export async function acceptTransfer(ctx: ServiceContext, transferId: string): Promise<TransferRecord> {
  const { userId } = requireUser(ctx);
  return withTransaction(ctx, async (tx) => {
    const recipient = await getUserById(tx.db, userId);
    const seen = await incomingTransfer(tx.db, transferId, recipient.email, false);
    assertConfirmedRecipient(recipient, "accepting");
    const [tag] = await tx.db.select().from(schema.tags).where(eq(schema.tags.id, seen.tagId)).for("update");
    const transfer = await incomingTransfer(tx.db, transferId, recipient.email, true);
    const now = new Date();
    assertStillPending(transfer, now);
    if (!tag || tag.ownerId !== transfer.fromUserId) throw new ConflictError("The tag is no longer owned by the sender.");
    if (tag.status !== "DEACTIVATED") await assertWithinTierLimit(tx.db, recipient.id, recipient.subscription);

    // The profile, typed profile and photos describe the item and move with the tag. The new owner starts
    // clean (docs/decisions/0016-transfers.md) of what was the sender's: the sender's contact details, which must not keep
    // answering finders for the new owner's item; the sender's insurance policy; and the scans so far, which
    // hold finders' locations from the sender's time. Those scans are deleted rather than hidden, as
    // releasing a tag does: no one may see them any more, and the tag's count starts again from zero.
    // The sender's conversations with finders stay with the sender (docs/decisions/0016-transfers.md) but are CLOSED: the
    // finder must not keep writing to someone who no longer has the item, and a new scan reaches the new owner.
    await tx.db.update(schema.tags).set({ ownerId: recipient.id, scanCount: 0, lastScannedAt: null }).where(eq(schema.tags.id, tag.id));
    await tx.db.update(schema.tagProfiles).set({ ownerName: null, contactEmail: null, contactPhone: null }).where(eq(schema.tagProfiles.tagId, tag.id));
    await tx.db.delete(schema.tagInsurance).where(eq(schema.tagInsurance.tagId, tag.id));
    await tx.db.delete(schema.scans).where(eq(schema.scans.tagId, tag.id));
    await tx.db.delete(schema.tagScanDays).where(eq(schema.tagScanDays.tagId, tag.id));
    // The sender's open reward offer ends here: finders must not be promised it on the new owner's behalf.
    const rewardsWithdrawn = await withdrawRewardsOnTransfer(tx.db, tag.id, transfer.fromUserId);
    await switchOffTagRelay(tx.db, tag.id);
    await tx.db
      .update(schema.threads)
      .set({ status: "CLOSED" })
      .where(and(eq(schema.threads.tagId, tag.id), eq(schema.threads.ownerId, transfer.fromUserId), eq(schema.threads.status, "ACTIVE")));
    const [accepted] = await tx.db
      .update(schema.tagTransfers)
      .set({ status: "ACCEPTED", respondedAt: now })
      .where(eq(schema.tagTransfers.id, transfer.id))
      .returning();
    await notify(tx, {
      userId: transfer.fromUserId,
      type: "TAG_STATUS_CHANGED",
      title: "Your tag transfer was accepted",
      body: `${tag.itemName ?? "Your tag"} now belongs to ${transfer.toEmail}.${rewardsWithdrawn > 0 ? " Your open reward on it was withdrawn." : ""}`,
      data: { tagId: tag.id, transferId: transfer.id, transferStatus: "ACCEPTED" },
    });
    return toTransferRecord(accepted!, tag.itemName, now);
  });
}

/** POST /tags/transfers/:id/decline (recipient): needs the confirmed address (403) as accepting does. */
export async function declineTransfer(ctx: ServiceContext, transferId: string): Promise<TransferRecord> {
  const { userId } = requireUser(ctx);
  return withTransaction(ctx, async (tx) => {
    const recipient = await getUserById(tx.db, userId);
    const transfer = await incomingTransfer(tx.db, transferId, recipient.email, true);
    assertConfirmedRecipient(recipient, "declining");
    const now = new Date();
    assertStillPending(transfer, now);
    const [declined] = await tx.db
      .update(schema.tagTransfers)
      .set({ status: "DECLINED", respondedAt: now })
      .where(eq(schema.tagTransfers.id, transfer.id))
      .returning();
    const [tag] = await tx.db.select({ itemName: schema.tags.itemName }).from(schema.tags).where(eq(schema.tags.id, transfer.tagId));
    await notify(tx, {
      userId: transfer.fromUserId,
      type: "TAG_STATUS_CHANGED",
      title: "Your tag transfer was declined",
      body: `${transfer.toEmail} declined ${tag?.itemName ?? "your tag"}. It stays in your account.`,
      data: { tagId: transfer.tagId, transferId: transfer.id, transferStatus: "DECLINED" },
    });
    return toTransferRecord(declined!, tag?.itemName ?? null, now);
  });
}

/** DELETE /tags/:id/transfer (sender): cancels the tag's pending transfer; none pending is a 404. */
export async function cancelTransfer(ctx: ServiceContext, tagId: string): Promise<TransferRecord> {
  return withTransaction(ctx, async (tx) => {
    const tag = await ownedTag(tx, tagId, { lock: true });
    const now = new Date();
    await expireOverdueTransfers(tx, { tagId: tag.id, now });
    const [transfer] = await tx.db
      .select()
      .from(schema.tagTransfers)
      .where(and(eq(schema.tagTransfers.tagId, tag.id), eq(schema.tagTransfers.status, "PENDING")))
      .for("update");
    if (!transfer) throw new NotFoundError("This tag has no pending transfer.");
    const [cancelled] = await tx.db
      .update(schema.tagTransfers)
      .set({ status: "CANCELLED", respondedAt: now })
      .where(eq(schema.tagTransfers.id, transfer.id))
      .returning();
    return toTransferRecord(cancelled!, tag.itemName, now);
  });
}
