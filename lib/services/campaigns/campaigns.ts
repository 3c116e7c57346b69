import { createHash } from "node:crypto";
import { createElement } from "react";
import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { CampaignEmail } from "@/emails/campaign";
import { env } from "@/lib/env";
import { EMAIL_BATCH_MAX } from "@/lib/email/batch";
import { safeHeaders, singleLine } from "@/lib/email/headers";
import { EMAIL_SEND_JOB } from "@/lib/email/queue";
import { renderEmail } from "@/lib/email/render";
import { defaultTransport } from "@/lib/email/transport";
import type { EmailMessage, EmailTransport } from "@/lib/email/types";
import { JOBS_SCHEMA } from "@/lib/jobs/boss";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { countEmailSent } from "@/lib/metrics/registry";
import { recordAudit } from "@/lib/services/audit";
import { unsubscribeHeaders, unsubscribePageUrl } from "@/lib/services/contact";
import { requireAdmin, type ServiceContext, withTransaction } from "@/lib/services/context";
import { NotFoundError, UnprocessableError } from "@/lib/services/errors";
import type { CampaignRecord, CreateCampaignInput } from "./schemas";
import { boundedTotal, keysetPage, type ListOrder, type Page, type PageRequest } from "@/lib/services/paging";
import { escapeHtml } from "@/lib/html-escape";

/** Deliveries one `campaigns.send-batch` job sends, in one call to the provider's batch endpoint (its maximum). */
export const CAMPAIGN_BATCH_SIZE = EMAIL_BATCH_MAX;

const CAMPAIGN_NOT_FOUND = "Campaign not found.";

type CampaignRow = typeof schema.campaigns.$inferSelect;

function toRecord(row: CampaignRow): CampaignRecord {
  return {
    id: row.id,
    subject: row.subject,
    status: row.status,
    recipientCount: row.recipientCount,
    sentCount: row.sentCount,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}

/** How many addresses a campaign created now would go to. */
export async function countConfirmedSubscribers(ctx: ServiceContext): Promise<number> {
  requireAdmin(ctx);
  const [row] = await ctx.db.select({ n: count() }).from(schema.newsletterSubscribers).where(eq(schema.newsletterSubscribers.status, "CONFIRMED"));
  return row?.n ?? 0;
}

/**
 * POST /admin/campaigns: fixes the recipients (every CONFIRMED subscriber, one delivery row each) and queues
 * the first batch, in one transaction with its audit entry. No confirmed subscriber: 422.
 */
export async function createCampaign(ctx: ServiceContext, input: CreateCampaignInput): Promise<CampaignRecord> {
  const admin = requireAdmin(ctx);
  return withTransaction(ctx, async (tx) => {
    const [campaign] = await tx.db
      .insert(schema.campaigns)
      .values({ subject: input.subject, content: input.content, status: "SENDING", createdById: admin.userId, startedAt: new Date() })
      .returning();
    const deliveries = await tx.db
      .insert(schema.campaignDeliveries)
      .select(
        tx.db
          .select({
            campaignId: sql<string>`${campaign!.id}::uuid`.as("campaign_id"),
            subscriberId: schema.newsletterSubscribers.id,
            email: schema.newsletterSubscribers.email,
            status: sql<"PENDING">`'PENDING'::campaign_delivery_status`.as("status"),
            sentAt: sql<Date | null>`null::timestamptz`.as("sent_at"),
          })
          .from(schema.newsletterSubscribers)
          .where(eq(schema.newsletterSubscribers.status, "CONFIRMED")),
      )
      .returning({ subscriberId: schema.campaignDeliveries.subscriberId });
    if (deliveries.length === 0) throw new UnprocessableError("There are no confirmed subscribers to send to.");
    const [saved] = await tx.db
      .update(schema.campaigns)
      .set({ recipientCount: deliveries.length })
      .where(eq(schema.campaigns.id, campaign!.id))
      .returning();
    await enqueueJob(tx, "campaigns.send-batch", { campaignId: saved!.id });
    const record = toRecord(saved!);
    await recordAudit(tx, { action: "campaign.create", entityType: "campaign", entityId: saved!.id, before: null, after: { ...record, content: saved!.content } });
    return record;
  });
}

const campaignOrder: ListOrder<typeof schema.campaigns.$inferSelect> = {
  name: "campaigns",
  keys: [
    { column: schema.campaigns.createdAt, direction: "desc", type: "timestamp" },
    { column: schema.campaigns.id, direction: "desc", type: "uuid" },
  ],
  valuesOf: (row) => [row.createdAt, row.id],
};

export async function listCampaigns(ctx: ServiceContext, query: PageRequest): Promise<Page<CampaignRecord>> {
  requireAdmin(ctx);
  const plan = keysetPage(campaignOrder, [], query);
  const [rows, total] = await Promise.all([
    ctx.db
      .select()
      .from(schema.campaigns)
      .where(plan.where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    boundedTotal(ctx.db, ctx.db.select({ one: sql`1` }).from(schema.campaigns)),
  ]);
  return plan.finish(rows, toRecord, total);
}

export async function getCampaign(ctx: ServiceContext, campaignId: string): Promise<CampaignRecord> {
  requireAdmin(ctx);
  const [row] = await ctx.db.select().from(schema.campaigns).where(eq(schema.campaigns.id, campaignId));
  if (!row) throw new NotFoundError(CAMPAIGN_NOT_FOUND);
  return toRecord(row);
}

async function pendingCount(db: Executor, campaignId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(schema.campaignDeliveries)
    .where(and(eq(schema.campaignDeliveries.campaignId, campaignId), eq(schema.campaignDeliveries.status, "PENDING")));
  return row?.n ?? 0;
}

export interface CampaignBatchResult {
  sent: number;
  skipped: number;
  /** PENDING deliveries left after this batch (as this transaction saw them). */
  remaining: number;
  /** True when the run sent nothing because transactional e-mail was waiting; a later run carries on. */
  deferred?: boolean;
}

export interface SendCampaignBatchOptions {
  /** The e-mail transport (defaultTransport(): Resend, or the outbox in development). */
  transport?: EmailTransport;
  /** How many times this campaign has already given way to transactional e-mail in a row. */
  deferrals?: number;
}

/**
 * A campaign run gives way to transactional e-mail (a sign-in link, a finder's message) waiting to go out,
 * since both share the provider's rate; after this many runs in a row it sends anyway, so a steady stream of
 * transactional e-mail delays a campaign by at most about as many seconds.
 */
export const CAMPAIGN_MAX_DEFERRALS = 30;

/** True when an `email.send` job is ready to run now (waiting, not scheduled for later). */
async function transactionalEmailWaiting(db: Executor): Promise<boolean> {
  const result: unknown = await db.execute(
    sql`select exists (select 1 from ${sql.raw(JOBS_SCHEMA)}.job where name = ${EMAIL_SEND_JOB} and state in ('created', 'retry') and start_after <= now()) as waiting`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{ waiting: boolean }>;
  return rows[0]?.waiting === true;
}

/** Stands in for each recipient's unsubscribe page address in the batch's one rendering. */
const UNSUBSCRIBE_PLACEHOLDER = "urn:campaign-unsubscribe-placeholder";

/**
 * One `campaigns.send-batch` run, in one transaction: takes up to `batchSize` (at most Resend's 100)
 * PENDING deliveries no other batch holds (FOR UPDATE SKIP LOCKED), skips those whose subscriber is no
 * longer CONFIRMED, and hands the rest to the provider in ONE batch call (each e-mail with its recipient's
 * own unsubscribe link and List-Unsubscribe headers), then marks them SENT and queues the next batch or,
 * with none left, marks the campaign SENT.
 *
 * Nobody gets a campaign twice: the call's idempotency key names the campaign and the exact deliveries it
 * carries. A failed call, or a crash after the provider accepted the batch but before the commit, rolls
 * the SENT marks back; the retry takes the same deliveries (ordered by address), makes the same key, and
 * the provider answers the first call's result without sending again.
 *
 * When transactional e-mail is waiting to go out, the run sends nothing and queues itself a second later
 * (at most CAMPAIGN_MAX_DEFERRALS times in a row), so the campaign never holds the provider's rate they share.
 */
export async function sendCampaignBatch(
  ctx: ServiceContext,
  campaignId: string,
  batchSize = CAMPAIGN_BATCH_SIZE,
  options: SendCampaignBatchOptions = {},
): Promise<CampaignBatchResult> {
  const size = Math.max(1, Math.min(batchSize, EMAIL_BATCH_MAX));
  const deferrals = options.deferrals ?? 0;
  return withTransaction(ctx, async (tx) => {
    const [campaign] = await tx.db.select().from(schema.campaigns).where(eq(schema.campaigns.id, campaignId));
    if (!campaign || campaign.status !== "SENDING") return { sent: 0, skipped: 0, remaining: 0 };
    if (deferrals < CAMPAIGN_MAX_DEFERRALS && (await transactionalEmailWaiting(tx.db))) {
      await enqueueJob(tx, "campaigns.send-batch", { campaignId, batchSize, deferrals: deferrals + 1 }, { startAfter: 1 });
      return { sent: 0, skipped: 0, remaining: await pendingCount(tx.db, campaignId), deferred: true };
    }
    const batch = await tx.db
      .select({
        subscriberId: schema.campaignDeliveries.subscriberId,
        email: schema.campaignDeliveries.email,
        subscriberStatus: schema.newsletterSubscribers.status,
      })
      .from(schema.campaignDeliveries)
      .innerJoin(schema.newsletterSubscribers, eq(schema.newsletterSubscribers.id, schema.campaignDeliveries.subscriberId))
      .where(and(eq(schema.campaignDeliveries.campaignId, campaignId), eq(schema.campaignDeliveries.status, "PENDING")))
      .orderBy(asc(schema.campaignDeliveries.email))
      .limit(size)
      .for("update", { of: schema.campaignDeliveries, skipLocked: true });

    const inCampaign = eq(schema.campaignDeliveries.campaignId, campaignId);
    const skippedIds = batch.filter((delivery) => delivery.subscriberStatus !== "CONFIRMED").map((delivery) => delivery.subscriberId);
    const recipients = batch.filter((delivery) => delivery.subscriberStatus === "CONFIRMED");
    if (skippedIds.length > 0) {
      await tx.db.update(schema.campaignDeliveries).set({ status: "SKIPPED" }).where(and(inCampaign, inArray(schema.campaignDeliveries.subscriberId, skippedIds)));
    }
    if (recipients.length > 0) {
      // One rendering for the batch (rendering is the slow part); each copy gets its recipient's own link.
      const subject = singleLine(campaign.subject);
      const rendered = await renderEmail(createElement(CampaignEmail, { subject, content: campaign.content, unsubscribeUrl: UNSUBSCRIBE_PLACEHOLDER }), subject);
      if (!rendered.html.includes(UNSUBSCRIBE_PLACEHOLDER) || !rendered.text.includes(UNSUBSCRIBE_PLACEHOLDER)) {
        throw new Error("The campaign template lost its unsubscribe link");
      }
      const messages: EmailMessage[] = recipients.map((delivery) => {
        const link = unsubscribePageUrl(delivery.subscriberId);
        return {
          from: env.EMAIL_FROM,
          to: delivery.email,
          subject: rendered.subject,
          html: rendered.html.replaceAll(UNSUBSCRIBE_PLACEHOLDER, escapeHtml(link)),
          text: rendered.text.replaceAll(UNSUBSCRIBE_PLACEHOLDER, link),
          template: "newsletter.campaign",
          headers: safeHeaders(unsubscribeHeaders(delivery.subscriberId)),
        };
      });
      const key = createHash("sha256")
        .update(recipients.map((delivery) => delivery.subscriberId).join(","))
        .digest("hex")
        .slice(0, 32);
      const transport = options.transport ?? defaultTransport();
      try {
        await transport.sendBatch(messages, { idempotencyKey: `campaign-${campaignId}-${key}`, db: tx.db });
      } catch (error) {
        countEmailSent(transport.name, "failed", messages.length);
        throw error;
      }
      countEmailSent(transport.name, "sent", messages.length);
      await tx.db
        .update(schema.campaignDeliveries)
        .set({ status: "SENT", sentAt: new Date() })
        .where(and(inCampaign, inArray(schema.campaignDeliveries.subscriberId, recipients.map((delivery) => delivery.subscriberId))));
      await tx.db
        .update(schema.campaigns)
        .set({ sentCount: sql`${schema.campaigns.sentCount} + ${recipients.length}` })
        .where(eq(schema.campaigns.id, campaignId));
    }
    const remaining = await pendingCount(tx.db, campaignId);
    if (remaining > 0) {
      // Rows another batch holds still count as PENDING here; a next batch that finds nothing to take ends the chain.
      if (batch.length > 0) await enqueueJob(tx, "campaigns.send-batch", { campaignId, batchSize });
    } else {
      await tx.db
        .update(schema.campaigns)
        .set({ status: "SENT", completedAt: new Date() })
        .where(and(eq(schema.campaigns.id, campaignId), eq(schema.campaigns.status, "SENDING")));
    }
    return { sent: recipients.length, skipped: skippedIds.length, remaining };
  });
}

/**
 * Queues a batch for every campaign still SENDING: after a restart, a campaign whose batch job was lost (its
 * retries spent, say) carries on. A batch too many is harmless: it finds nothing to take, or finishes the campaign.
 */
export async function resumeCampaigns(ctx: ServiceContext): Promise<number> {
  const sending = await ctx.db.select({ id: schema.campaigns.id }).from(schema.campaigns).where(eq(schema.campaigns.status, "SENDING"));
  for (const campaign of sending) await enqueueJob(ctx, "campaigns.send-batch", { campaignId: campaign.id });
  return sending.length;
}
