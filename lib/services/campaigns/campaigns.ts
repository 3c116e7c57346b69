import { createElement } from "react";
import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { CampaignEmail } from "@/emails/campaign";
import { queueEmail } from "@/lib/email/queue";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { recordAudit } from "@/lib/services/audit";
import { unsubscribeHeaders, unsubscribePageUrl } from "@/lib/services/contact";
import { requireAdmin, type ServiceContext, withTransaction } from "@/lib/services/context";
import { NotFoundError, UnprocessableError } from "@/lib/services/errors";
import type { CampaignRecord, CreateCampaignInput } from "./schemas";

/** Deliveries one `campaigns.send-batch` job sends in its transaction. */
export const CAMPAIGN_BATCH_SIZE = 50;

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

export async function listCampaigns(ctx: ServiceContext, query: { page: number; limit: number }): Promise<{ items: CampaignRecord[]; total: number }> {
  requireAdmin(ctx);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(schema.campaigns)
      .orderBy(desc(schema.campaigns.createdAt), desc(schema.campaigns.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    ctx.db.select({ n: count() }).from(schema.campaigns),
  ]);
  return { items: rows.map(toRecord), total: total?.n ?? 0 };
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
}

/**
 * One `campaigns.send-batch` run, in one transaction: takes up to `batchSize` PENDING deliveries no other
 * batch holds (FOR UPDATE SKIP LOCKED), skips those whose subscriber is no longer CONFIRMED, queues one
 * e-mail per remaining delivery and marks it SENT, then queues the next batch or, with none left, marks
 * the campaign SENT. The e-mails and the SENT marks commit together: a crash rolls both back and the
 * retry takes the same deliveries again, so no address is sent the campaign twice.
 */
export async function sendCampaignBatch(ctx: ServiceContext, campaignId: string, batchSize = CAMPAIGN_BATCH_SIZE): Promise<CampaignBatchResult> {
  return withTransaction(ctx, async (tx) => {
    const [campaign] = await tx.db.select().from(schema.campaigns).where(eq(schema.campaigns.id, campaignId));
    if (!campaign || campaign.status !== "SENDING") return { sent: 0, skipped: 0, remaining: 0 };
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
      .limit(batchSize)
      .for("update", { of: schema.campaignDeliveries, skipLocked: true });

    let sent = 0;
    let skipped = 0;
    const now = new Date();
    for (const delivery of batch) {
      const deliveryKey = and(eq(schema.campaignDeliveries.campaignId, campaignId), eq(schema.campaignDeliveries.subscriberId, delivery.subscriberId));
      if (delivery.subscriberStatus !== "CONFIRMED") {
        await tx.db.update(schema.campaignDeliveries).set({ status: "SKIPPED" }).where(deliveryKey);
        skipped += 1;
        continue;
      }
      await queueEmail(tx, {
        to: delivery.email,
        subject: campaign.subject,
        templateName: "newsletter.campaign",
        template: createElement(CampaignEmail, { subject: campaign.subject, content: campaign.content, unsubscribeUrl: unsubscribePageUrl(delivery.subscriberId) }),
        headers: unsubscribeHeaders(delivery.subscriberId),
        bulk: true,
      });
      await tx.db.update(schema.campaignDeliveries).set({ status: "SENT", sentAt: now }).where(deliveryKey);
      sent += 1;
    }
    if (sent > 0) {
      await tx.db
        .update(schema.campaigns)
        .set({ sentCount: sql`${schema.campaigns.sentCount} + ${sent}` })
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
    return { sent, skipped, remaining };
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
