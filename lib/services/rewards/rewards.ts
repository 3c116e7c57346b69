import { randomInt } from "node:crypto";
import { and, desc, eq, inArray, isNotNull, ne, sql } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import type { Reward, Tag, Thread } from "@/db/schema";
import { keyedHash, openSealedText, randomBase62, sealText } from "@/lib/auth/tokens";
import { env } from "@/lib/env";
import { requireUser, type ServiceContext, withTransaction } from "@/lib/services/context";
import { ConflictError, NotFoundError, UnprocessableError, ValidationError } from "@/lib/services/errors";
import { emailFinder, openThreadToken, threadByToken } from "@/lib/services/messages";
import { notify } from "@/lib/services/notifications";
import { changeTagStatus } from "@/lib/services/tags";
import { toMajor } from "./queries";
import {
  HANDOVER_CODE_MAX_FAILURES,
  type Certificate,
  type CertificateResult,
  type ConfirmReturnInput,
  type ConfirmReturnResult,
  type CreateRewardInput,
  type DisputeRewardInput,
  type DisputeRewardResult,
  type FinderReward,
  type ReturnConfirmation,
  type PayRewardInput,
  type PayRewardResult,
  type RewardRecord,
} from "./schemas";
import { boundedTotal, keysetPage, type ListOrder, type Page, type PageRequest } from "@/lib/services/paging";

const REWARD_NOT_FOUND = "Reward not found.";
const TAG_NOT_FOUND = "Tag not found.";
const CERTIFICATE_NOT_FOUND = "Certificate not found.";
const HANDOVER_PURPOSE = "reward-handover-code";
const HANDOVER_ADVICE = "Give this code to the owner only when the item is back in their hands: it confirms the handover.";

type RewardStatus = Reward["status"];

const toMinor = (amount: number) => Math.round(amount * 100);
const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** How a return was confirmed; returns confirmed before this was recorded read it from verifiedHandover. */
function confirmationOf(row: Reward): ReturnConfirmation | null {
  if (row.returnedAt === null) return null;
  return row.returnConfirmation ?? (row.verifiedHandover ? "HANDOVER_CODE" : "OWNER");
}

function toRecord(row: Reward, tagName: string | null): RewardRecord {
  return {
    id: row.id,
    tagId: row.tagId,
    tagName,
    amount: toMajor(row.amountMinor),
    currency: row.currency,
    description: row.description,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    returnedAt: iso(row.returnedAt),
    verifiedHandover: row.verifiedHandover,
    returnConfirmation: confirmationOf(row),
    finderThreadId: row.finderThreadId,
    handoverAttemptsLeft: Math.max(0, HANDOVER_CODE_MAX_FAILURES - row.handoverFailures),
    certificateId: row.status === "RETURNED" || row.status === "PAID" ? row.certificateId : null,
    paymentRef: row.paymentRef,
    paidAt: iso(row.paidAt),
    disputeReason: row.disputeReason,
  };
}

const newHandoverCode = () => String(randomInt(0, 1_000_000)).padStart(6, "0");

/** The keyed hash a reward's handover code is found by; the reward's id in it keeps equal codes of two rewards apart. */
const handoverCodeHash = (rewardId: string, code: string) => keyedHash(HANDOVER_PURPOSE, `${rewardId}:${code}`);

/**
 * The handover code of one conversation for one reward, made on first need. Codes are unique per reward
 * (a unique index on its keyed hash), so a code names exactly one finder; six digits are enough because the
 * owner, the only one who can try codes, gets five wrong tries per reward. Concurrent first views agree on
 * one code: the loser of the insert reads the winner's. A code colliding with another finder's is drawn again.
 */
async function handoverCodeFor(db: Executor, rewardId: string, threadId: string): Promise<string> {
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const [existing] = await db
      .select({ codeSealed: schema.rewardHandovers.codeSealed })
      .from(schema.rewardHandovers)
      .where(and(eq(schema.rewardHandovers.rewardId, rewardId), eq(schema.rewardHandovers.threadId, threadId)));
    if (existing) return openSealedText(HANDOVER_PURPOSE, existing.codeSealed);
    const code = newHandoverCode();
    await db
      .insert(schema.rewardHandovers)
      .values({ rewardId, threadId, codeSealed: sealText(HANDOVER_PURPOSE, code), codeHash: handoverCodeHash(rewardId, code) })
      .onConflictDoNothing();
  }
  throw new ConflictError("No handover code could be made for this conversation. Try again.");
}

/** The caller's tag, locked for update; someone else's (or an unknown id) is 404. */
async function lockOwnTag(db: Executor, userId: string, tagId: string): Promise<Tag> {
  const [tag] = await db
    .select()
    .from(schema.tags)
    .where(and(eq(schema.tags.id, tagId), eq(schema.tags.ownerId, userId)))
    .for("update");
  if (!tag) throw new NotFoundError(TAG_NOT_FOUND);
  return tag;
}

/** The caller's reward, locked for update; someone else's (or an unknown id) is 404. */
async function lockOwnReward(db: Executor, userId: string, rewardId: string): Promise<Reward> {
  const [reward] = await db
    .select()
    .from(schema.rewards)
    .where(and(eq(schema.rewards.id, rewardId), eq(schema.rewards.ownerId, userId)))
    .for("update");
  if (!reward) throw new NotFoundError(REWARD_NOT_FOUND);
  return reward;
}

function refuse(action: string, status: RewardStatus, allowedFrom: RewardStatus[]): never {
  throw new ConflictError(`A ${status} reward cannot be ${action}.`, { status, allowedFrom });
}

/**
 * Tells the finders of the tag's conversations (with this owner) that the reward changed: an e-mail with
 * the conversation link to those who left an address, through the finders' e-mail slot (at most one per
 * 10 minutes per conversation). The e-mail says no more than that; the state is in GET /scan/thread/:token/reward.
 */
async function tellFinders(ctx: ServiceContext, reward: Pick<Reward, "ownerId" | "tagId" | "finderThreadId" | "returnedAt">) {
  // Once returned, what follows (paid, disputed) is the named finder's business alone; with none named, nobody's.
  if (reward.returnedAt && !reward.finderThreadId) return;
  const threads = await ctx.db
    .select()
    .from(schema.threads)
    .where(
      and(
        eq(schema.threads.tagId, reward.tagId),
        eq(schema.threads.ownerId, reward.ownerId),
        eq(schema.threads.status, "ACTIVE"),
        isNotNull(schema.threads.finderEmail),
        isNotNull(schema.threads.tokenSealed),
        reward.finderThreadId ? eq(schema.threads.id, reward.finderThreadId) : undefined,
      ),
    );
  for (const thread of threads) await emailFinder(ctx, thread, openThreadToken(thread.tokenSealed!), "reward");
}

async function notifyOwner(ctx: ServiceContext, reward: Pick<Reward, "id" | "ownerId" | "tagId">, status: RewardStatus | "REMOVED", body: string) {
  await notify(ctx, {
    userId: reward.ownerId,
    type: "REWARD_UPDATED",
    title: status === "REMOVED" ? "Reward removed" : `Reward ${status.toLowerCase()}`,
    body,
    data: { rewardId: reward.id, tagId: reward.tagId, status },
  });
}

async function tellOwner(ctx: ServiceContext, reward: Pick<Reward, "id" | "ownerId" | "tagId" | "finderThreadId" | "returnedAt">, status: RewardStatus | "REMOVED", body: string) {
  await notifyOwner(ctx, reward, status, body);
  await tellFinders(ctx, reward);
}

const rewardsOrder: ListOrder<{ reward: Reward }> = {
  name: "rewards",
  keys: [
    { column: schema.rewards.createdAt, direction: "desc", type: "timestamp" },
    { column: schema.rewards.id, direction: "desc", type: "uuid" },
  ],
  valuesOf: (row) => [row.reward.createdAt, row.reward.id],
};

/** GET /rewards: the caller's rewards, newest first; with `tagId`, only that tag's (someone else's tag: none). */
export async function listRewards(ctx: ServiceContext, page: PageRequest & { tagId?: string }): Promise<Page<RewardRecord>> {
  const { userId } = requireUser(ctx);
  const mine = page.tagId ? and(eq(schema.rewards.ownerId, userId), eq(schema.rewards.tagId, page.tagId)) : eq(schema.rewards.ownerId, userId);
  const plan = keysetPage(rewardsOrder, [userId, page.tagId ?? null], page);
  const [rows, total] = await Promise.all([
    ctx.db
      .select({ reward: schema.rewards, tagName: schema.tags.itemName })
      .from(schema.rewards)
      .leftJoin(schema.tags, eq(schema.tags.id, schema.rewards.tagId))
      .where(and(mine, plan.where))
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    boundedTotal(ctx.db, ctx.db.select({ one: sql`1` }).from(schema.rewards).where(mine)),
  ]);
  return plan.finish(rows, (row) => toRecord(row.reward, row.tagName), total);
}

/**
 * POST /rewards/:tagId: offers a reward on the caller's tag. One ACTIVE or RETURNED reward per tag (409):
 * the tag row is locked while checking, and a partial unique index backs it up. Each finder's conversation
 * gets its own handover code when it first shows the reward.
 */
export async function createReward(ctx: ServiceContext, tagId: string, input: CreateRewardInput): Promise<RewardRecord> {
  const { userId } = requireUser(ctx);
  return withTransaction(ctx, async (tx) => {
    const tag = await lockOwnTag(tx.db, userId, tagId);
    // The caller's own open reward only: a RETURNED one the owner before a transfer still has to pay is theirs.
    const [open] = await tx.db
      .select({ id: schema.rewards.id, status: schema.rewards.status })
      .from(schema.rewards)
      .where(and(eq(schema.rewards.tagId, tag.id), eq(schema.rewards.ownerId, userId), inArray(schema.rewards.status, ["ACTIVE", "RETURNED"])));
    if (open) throw new ConflictError("A reward is already active on this tag.", { rewardId: open.id, status: open.status });
    const [row] = await tx.db
      .insert(schema.rewards)
      .values({
        tagId: tag.id,
        ownerId: userId,
        amountMinor: toMinor(input.amount),
        currency: input.currency.toUpperCase(),
        description: input.description || null,
      })
      .returning();
    await tellOwner(tx, row!, "ACTIVE", `You offered a reward of ${toMajor(row!.amountMinor)} ${row!.currency} for ${tag.itemName ?? "your tag"}.`);
    return toRecord(row!, tag.itemName);
  });
}

/** What saveTagReward did: offered a new reward, changed the ACTIVE one, left it as it was, or nothing (none asked, none there). */
export type TagRewardOutcome = "created" | "changed" | "unchanged" | "none";

/**
 * The reward half of lost mode's one form (lost-mode.ts), inside the caller's transaction
 * when one is open. With `input`, it offers a reward as POST /rewards/:tagId does (createReward, whose rules
 * apply), or changes the amount, currency and note of the owner's ACTIVE reward in place: the finders' handover
 * codes stay valid, and finders who left an e-mail address are told the reward changed. `null` asks for no
 * reward: nothing happens when there is none, and an ACTIVE one is not silently dropped (a field error: it is
 * withdrawn with DELETE /rewards/:id, an act of its own). A RETURNED reward still to pay blocks a new offer (409).
 */
export async function saveTagReward(ctx: ServiceContext, tagId: string, input: CreateRewardInput | null): Promise<{ outcome: TagRewardOutcome; reward: RewardRecord | null }> {
  const { userId } = requireUser(ctx);
  return withTransaction(ctx, async (tx) => {
    const tag = await lockOwnTag(tx.db, userId, tagId);
    const [open] = await tx.db
      .select()
      .from(schema.rewards)
      .where(and(eq(schema.rewards.tagId, tag.id), eq(schema.rewards.ownerId, userId), inArray(schema.rewards.status, ["ACTIVE", "RETURNED"])))
      .for("update");
    if (!open) return input ? { outcome: "created", reward: await createReward(tx, tagId, input) } : { outcome: "none", reward: null };
    if (open.status === "RETURNED") {
      if (!input) return { outcome: "unchanged", reward: toRecord(open, tag.itemName) };
      throw new ConflictError("The last reward was returned and is still to be paid: record its payment before offering a new one.", { rewardId: open.id, status: open.status });
    }
    if (!input) throw ValidationError.field("amount", "Enter the reward's amount. To take the reward back, use “Withdraw the offer”.");
    const changes = { amountMinor: toMinor(input.amount), currency: input.currency.toUpperCase(), description: input.description || null };
    if (changes.amountMinor === open.amountMinor && changes.currency === open.currency && changes.description === open.description) {
      return { outcome: "unchanged", reward: toRecord(open, tag.itemName) };
    }
    const [row] = await tx.db.update(schema.rewards).set(changes).where(eq(schema.rewards.id, open.id)).returning();
    await tellOwner(tx, row!, "ACTIVE", `You changed the reward for ${tag.itemName ?? "your tag"} to ${toMajor(row!.amountMinor)} ${row!.currency}.`);
    return { outcome: "changed", reward: toRecord(row!, tag.itemName) };
  });
}

/** DELETE /rewards/:id: only an ACTIVE or DISPUTED reward can be removed (409 otherwise). */
export async function deleteReward(ctx: ServiceContext, rewardId: string): Promise<{ message: string }> {
  const { userId } = requireUser(ctx);
  return withTransaction(ctx, async (tx) => {
    const reward = await lockOwnReward(tx.db, userId, rewardId);
    if (reward.status !== "ACTIVE" && reward.status !== "DISPUTED") refuse("removed", reward.status, ["ACTIVE", "DISPUTED"]);
    await tx.db.delete(schema.rewards).where(eq(schema.rewards.id, reward.id));
    await tellOwner(tx, reward, "REMOVED", "Your reward was removed.");
    return { message: "The reward was removed." };
  });
}

type ConfirmOutcome = { ok: ConfirmReturnResult } | { wrongCode: { attemptsLeft: number } } | { locked: true };

const CONFIRMED_MESSAGE: Record<ReturnConfirmation, string> = {
  HANDOVER_CODE: "Return confirmed with the finder's handover code. The reward can now be paid.",
  OWNER_CHOSE_FINDER: "Return confirmed for the finder of the conversation you chose. The reward can now be paid.",
  OWNER: "Return confirmed. The reward can now be paid.",
};

/** The finder a confirmation names: the conversation a handover code belongs to, or the one the owner chose. */
async function finderThreadOf(db: Executor, reward: Reward, input: ConfirmReturnInput): Promise<Thread | "wrongCode" | "locked" | null> {
  if (input.handoverCode !== undefined) {
    if (reward.handoverFailures >= HANDOVER_CODE_MAX_FAILURES) return "locked";
    const [match] = await db
      .select({ thread: schema.threads })
      .from(schema.rewardHandovers)
      .innerJoin(schema.threads, eq(schema.threads.id, schema.rewardHandovers.threadId))
      .where(and(eq(schema.rewardHandovers.rewardId, reward.id), eq(schema.rewardHandovers.codeHash, handoverCodeHash(reward.id, input.handoverCode))));
    return match?.thread ?? "wrongCode";
  }
  if (input.threadId === undefined) return null;
  const [thread] = await db
    .select()
    .from(schema.threads)
    .where(and(eq(schema.threads.id, input.threadId), eq(schema.threads.tagId, reward.tagId), eq(schema.threads.ownerId, reward.ownerId)));
  // Not counted as a wrong code: a conversation id is no secret to guess, and only the owner's own are found.
  if (!thread) throw new UnprocessableError("That conversation is not one of this tag's. Nothing was changed.", { threadId: input.threadId });
  if (thread.finderUserId === reward.ownerId) throw new UnprocessableError("You opened that conversation yourself: the owner cannot be the finder. Nothing was changed.", { threadId: input.threadId });
  return thread;
}

/**
 * POST /rewards/confirm-return/:tagId: the tag's ACTIVE reward becomes RETURNED (409 when there is none)
 * and a LOST tag becomes FOUND through changeTagStatus. The confirmation may name the finder, whose
 * conversation alone then gets the thanks, the payment news and the certificate:
 * - `handoverCode`: the code of one conversation (each has its own) — a verified handover. A code that is
 *   no conversation's is counted and refused (422, nothing else changes); after five the check is locked (422).
 * - `threadId`: the owner chooses the conversation (a finder without a phone, a meeting in person).
 * - neither: the owner confirms alone and no finder is named.
 * The tag's other open conversations are closed (the owner can reopen them) and their finders told the
 * item is home. The tag row is locked first, so of concurrent confirmations exactly one takes effect.
 */
export async function confirmReturn(ctx: ServiceContext, tagId: string, input: ConfirmReturnInput, now = new Date()): Promise<ConfirmReturnResult> {
  const { userId } = requireUser(ctx);
  const outcome = await withTransaction(ctx, async (tx): Promise<ConfirmOutcome> => {
    const tag = await lockOwnTag(tx.db, userId, tagId);
    const [reward] = await tx.db
      .select()
      .from(schema.rewards)
      .where(and(eq(schema.rewards.tagId, tag.id), eq(schema.rewards.ownerId, userId), eq(schema.rewards.status, "ACTIVE")))
      .for("update");
    if (!reward) throw new ConflictError("There is no ACTIVE reward on this tag to confirm.", { allowedFrom: ["ACTIVE"] });
    const finder = await finderThreadOf(tx.db, reward, input);
    if (finder === "locked") return { locked: true };
    if (finder === "wrongCode") {
      const failures = reward.handoverFailures + 1;
      await tx.db.update(schema.rewards).set({ handoverFailures: failures }).where(eq(schema.rewards.id, reward.id));
      return { wrongCode: { attemptsLeft: Math.max(0, HANDOVER_CODE_MAX_FAILURES - failures) } };
    }
    const confirmation: ReturnConfirmation = finder === null ? "OWNER" : input.handoverCode !== undefined ? "HANDOVER_CODE" : "OWNER_CHOSE_FINDER";
    const [returned] = await tx.db
      .update(schema.rewards)
      .set({
        status: "RETURNED",
        returnedAt: now,
        certificateId: randomBase62(24),
        verifiedHandover: confirmation === "HANDOVER_CODE",
        returnConfirmation: confirmation,
        finderThreadId: finder?.id ?? null,
      })
      .where(eq(schema.rewards.id, reward.id))
      .returning();
    // The codes have done their work: none of them can confirm anything any more.
    await tx.db.delete(schema.rewardHandovers).where(eq(schema.rewardHandovers.rewardId, reward.id));
    const others = await tx.db
      .update(schema.threads)
      .set({ status: "CLOSED" })
      .where(and(eq(schema.threads.tagId, tag.id), eq(schema.threads.ownerId, userId), eq(schema.threads.status, "ACTIVE"), finder ? ne(schema.threads.id, finder.id) : undefined))
      .returning();
    if (tag.status === "LOST") await changeTagStatus(tx.db, tag, { to: "FOUND", actor: { kind: "user", userId }, reason: "Reward return confirmed", now });
    await notifyOwner(tx, reward, "RETURNED", CONFIRMED_MESSAGE[confirmation]);
    if (finder?.finderEmail && finder.tokenSealed && finder.status === "ACTIVE") await emailFinder(tx, finder, openThreadToken(finder.tokenSealed), "reward", { now });
    for (const thread of others) {
      if (thread.finderEmail && thread.tokenSealed) await emailFinder(tx, thread, openThreadToken(thread.tokenSealed), "closed", { now });
    }
    return {
      ok: {
        tagId: tag.id,
        status: "RETURNED",
        verifiedHandover: returned!.verifiedHandover,
        confirmation,
        finderThreadId: returned!.finderThreadId,
        message: CONFIRMED_MESSAGE[confirmation],
      },
    };
  });
  if ("ok" in outcome) return outcome.ok;
  if ("locked" in outcome) {
    throw new UnprocessableError("Too many wrong handover codes: the code check is locked for this reward. Confirm the return by choosing the conversation, or without a code.", { locked: true, attemptsLeft: 0 });
  }
  throw new UnprocessableError("The handover code is not one of this tag's finders' codes. Nothing was changed.", { locked: outcome.wrongCode.attemptsLeft === 0, attemptsLeft: outcome.wrongCode.attemptsLeft });
}

/** POST /rewards/:id/pay: RETURNED → PAID with an optional external payment reference; 409 from any other state. */
export async function payReward(ctx: ServiceContext, rewardId: string, input: PayRewardInput, now = new Date()): Promise<PayRewardResult> {
  const { userId } = requireUser(ctx);
  return withTransaction(ctx, async (tx) => {
    const reward = await lockOwnReward(tx.db, userId, rewardId);
    if (reward.status !== "RETURNED") refuse("paid", reward.status, ["RETURNED"]);
    const [row] = await tx.db
      .update(schema.rewards)
      .set({ status: "PAID", paidAt: now, paymentRef: input.paymentRef ?? null })
      .where(eq(schema.rewards.id, reward.id))
      .returning();
    await tellOwner(tx, reward, "PAID", "The reward was recorded as paid.");
    return { id: row!.id, status: "PAID", paymentRef: row!.paymentRef, paidAt: row!.paidAt!.toISOString() };
  });
}

/** POST /rewards/:id/dispute: RETURNED or PAID → DISPUTED with the reason; 409 from ACTIVE or DISPUTED. */
export async function disputeReward(ctx: ServiceContext, rewardId: string, input: DisputeRewardInput): Promise<DisputeRewardResult> {
  const { userId } = requireUser(ctx);
  return withTransaction(ctx, async (tx) => {
    const reward = await lockOwnReward(tx.db, userId, rewardId);
    if (reward.status !== "RETURNED" && reward.status !== "PAID") refuse("disputed", reward.status, ["RETURNED", "PAID"]);
    await tx.db.update(schema.rewards).set({ status: "DISPUTED", disputeReason: input.reason }).where(eq(schema.rewards.id, reward.id));
    await tellOwner(tx, reward, "DISPUTED", `The reward is disputed: ${input.reason}`);
    return { id: reward.id, status: "DISPUTED", disputeReason: input.reason, message: "The reward is marked as disputed." };
  });
}

function verifyUrl(certificateId: string): string {
  return `${env.APP_URL.replace(/\/+$/, "")}/certificates/${certificateId}`;
}

async function certificateOf(db: Executor, reward: Reward): Promise<Certificate> {
  const [tag] = await db.select({ itemName: schema.tags.itemName, visibility: schema.tags.visibility }).from(schema.tags).where(eq(schema.tags.id, reward.tagId));
  return {
    tagId: reward.tagId,
    // A PRIVATE profile keeps its item name off the public certificate, as off the scan page.
    itemName: tag?.visibility === "PUBLIC" ? tag.itemName : null,
    returnedAt: reward.returnedAt!.toISOString(),
    certificateId: reward.certificateId!,
    verifyUrl: verifyUrl(reward.certificateId!),
    verifiedHandover: reward.verifiedHandover,
    confirmation: confirmationOf(reward) ?? "OWNER",
    rewardAmount: toMajor(reward.amountMinor),
    rewardCurrency: reward.currency,
    rewardStatus: reward.status as "RETURNED" | "PAID",
  };
}

/** GET /rewards/certificate/:tagId (public): the certificate of the tag's latest RETURNED or PAID reward of its current owner, else 404. */
export async function certificateForTag(ctx: ServiceContext, tagId: string): Promise<CertificateResult> {
  // Only the current owner's returns: a previous owner's (before a transfer) is their history, not the
  // tag's new owner's; its certificate stays reachable by its own unguessable id.
  const [reward] = await ctx.db
    .select({ reward: schema.rewards })
    .from(schema.rewards)
    .innerJoin(schema.tags, and(eq(schema.tags.id, schema.rewards.tagId), eq(schema.tags.ownerId, schema.rewards.ownerId)))
    .where(and(eq(schema.rewards.tagId, tagId), inArray(schema.rewards.status, ["RETURNED", "PAID"])))
    .orderBy(desc(schema.rewards.returnedAt))
    .limit(1)
    .then((rows) => rows.map((row) => row.reward));
  if (!reward?.certificateId || !reward.returnedAt) throw new NotFoundError(CERTIFICATE_NOT_FOUND);
  return { certificate: await certificateOf(ctx.db, reward) };
}

/** GET /rewards/certificates/:certificateId (public): the same object, while its reward is RETURNED or PAID. */
export async function certificateById(ctx: ServiceContext, certificateId: string): Promise<CertificateResult> {
  const [reward] = await ctx.db
    .select()
    .from(schema.rewards)
    .where(and(eq(schema.rewards.certificateId, certificateId), inArray(schema.rewards.status, ["RETURNED", "PAID"])));
  if (!reward?.returnedAt) throw new NotFoundError(CERTIFICATE_NOT_FOUND);
  return { certificate: await certificateOf(ctx.db, reward) };
}

const NO_REWARD: FinderReward = {
  offered: false,
  amount: null,
  currency: null,
  description: null,
  status: null,
  outcome: null,
  handoverCode: null,
  handoverAdvice: null,
  verifiedHandover: false,
  certificateUrl: null,
};

/**
 * GET /scan/thread/:token/reward: what the finder of a conversation sees of the tag's current reward (the
 * latest one the conversation's owner offered on it). While the reward is ACTIVE: this conversation's own
 * handover code (made on first view; none for a conversation the owner opened on their own tag). Once
 * returned: the reward's state and certificate to the finder the return named; every other conversation
 * only learns the item is back with its owner (never whether or what was paid).
 */
export async function finderReward(ctx: ServiceContext, token: string): Promise<FinderReward> {
  const thread = await threadByToken(ctx.db, token);
  // Once the tag has left the conversation's owner (a transfer), nothing of a reward is shown there: the
  // owner's offer ended with the transfer, and the new owner's is not this conversation's.
  const [reward] = await ctx.db
    .select({ reward: schema.rewards })
    .from(schema.rewards)
    .innerJoin(schema.tags, and(eq(schema.tags.id, schema.rewards.tagId), eq(schema.tags.ownerId, schema.rewards.ownerId)))
    .where(and(eq(schema.rewards.tagId, thread.tagId), eq(schema.rewards.ownerId, thread.ownerId)))
    .orderBy(desc(schema.rewards.createdAt))
    .limit(1)
    .then((rows) => rows.map((row) => row.reward));
  if (!reward) return NO_REWARD;
  const offer = { offered: true, amount: toMajor(reward.amountMinor), currency: reward.currency, description: reward.description };
  if (reward.status === "ACTIVE") {
    const code = thread.finderUserId === reward.ownerId ? null : await handoverCodeFor(ctx.db, reward.id, thread.id);
    return { ...offer, status: "ACTIVE", outcome: "OPEN", handoverCode: code, handoverAdvice: code ? HANDOVER_ADVICE : null, verifiedHandover: false, certificateUrl: null };
  }
  if (reward.finderThreadId === thread.id) {
    return {
      ...offer,
      status: reward.status,
      outcome: "YOURS",
      handoverCode: null,
      handoverAdvice: null,
      verifiedHandover: reward.verifiedHandover,
      certificateUrl: (reward.status === "RETURNED" || reward.status === "PAID") && reward.certificateId ? verifyUrl(reward.certificateId) : null,
    };
  }
  return { ...offer, status: "RETURNED", outcome: "ITEM_BACK", handoverCode: null, handoverAdvice: null, verifiedHandover: false, certificateUrl: null };
}

/** A conversation an owner may name as the finder who returned the item (confirm-return's `threadId`). */
export interface ReturnCandidate {
  threadId: string;
  finderName: string | null;
  createdAt: string;
  status: Thread["status"];
}

/**
 * The caller's conversations on their tag that confirm-return may name, newest first: the conversations
 * finders opened (not one the owner opened on their own tag). Someone else's tag: none.
 */
export async function returnCandidates(ctx: ServiceContext, tagId: string): Promise<ReturnCandidate[]> {
  const { userId } = requireUser(ctx);
  const rows = await ctx.db
    .select({ id: schema.threads.id, finderName: schema.threads.finderName, finderUserId: schema.threads.finderUserId, createdAt: schema.threads.createdAt, status: schema.threads.status })
    .from(schema.threads)
    .where(and(eq(schema.threads.tagId, tagId), eq(schema.threads.ownerId, userId)))
    .orderBy(desc(schema.threads.createdAt));
  return rows.filter((row) => row.finderUserId !== userId).map((row) => ({ threadId: row.id, finderName: row.finderName, createdAt: row.createdAt.toISOString(), status: row.status }));
}
