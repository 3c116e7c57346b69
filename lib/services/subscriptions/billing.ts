import { and, desc, eq } from "drizzle-orm";
import { schema } from "@/db/client";
import type { Invoice } from "@/db/schema";
import { paymentProvider } from "@/lib/payments/provider";
import { getUserById } from "@/lib/services/auth";
import { requireUser, type ServiceContext, withTransaction } from "@/lib/services/context";
import { ConflictError, DomainError, NotFoundError, PaymentProviderError } from "@/lib/services/errors";
import { notify } from "@/lib/services/notifications";
import { appBaseUrl, toMajor } from "@/lib/services/orders";
import { countedTags, TIER_TAG_LIMITS } from "@/lib/services/tags";
import { ENTITLED } from "./apply";
import { PRO_PLAN } from "./plans";
import type { BillingRecord, CancelSubscriptionResult, InvoiceRecord, SubscribeInput, SubscribeResult } from "./schemas";

export const INVOICES_SHOWN = 50;
export const NO_SUBSCRIPTION = "You have no active subscription to cancel.";

const day = (date: Date) => date.toISOString().slice(0, 10);

/** Calls the provider, so that a failure of the provider (or of its delivery to us) is a 502, never a 500. */
async function atProvider<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new PaymentProviderError(undefined, { provider: paymentProvider().name, retryable: true });
  }
}

/**
 * POST /orders/subscribe: a hosted checkout for the PRO plan (only PRO: the schema refuses anything else).
 * A user whose paid plan is in force (an entitled subscription, or a tier an admin granted) is 409; a plan
 * cancelled at period end is still in force until then, so that is 409 too.
 *
 * The provider is called outside any transaction with one idempotency key per user, per subscription
 * they last had and per day, so concurrent or retried calls answer the one session, while a user whose
 * subscription ended (or who comes back the next day, when a provider's session has expired) gets a new
 * one. Nothing changes on our side until the provider's events arrive at the webhook.
 */
export async function subscribeToPro(ctx: ServiceContext, input: SubscribeInput, now = new Date()): Promise<SubscribeResult> {
  const { userId } = requireUser(ctx);
  const user = await getUserById(ctx.db, userId);
  const [current] = await ctx.db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, userId));
  const entitled = current ? ENTITLED.has(current.status) : false;
  if (user.subscription !== "FREE" || entitled) {
    const tier = user.subscription !== "FREE" ? user.subscription : current!.tier;
    throw new ConflictError(
      current?.cancelAtPeriodEnd && entitled
        ? `Your ${tier} plan is cancelled but stays active until ${current.currentPeriodEnd ? day(current.currentPeriodEnd) : "the end of the period"}; subscribe again after it ends.`
        : `You already have the ${tier} plan.`,
      { tier, status: current?.status ?? null, cancelAtPeriodEnd: current?.cancelAtPeriodEnd ?? false },
    );
  }
  const [customer] = await ctx.db.select().from(schema.paymentCustomers).where(eq(schema.paymentCustomers.userId, userId));
  const base = appBaseUrl();
  const limit = TIER_TAG_LIMITS[input.tier];
  const session = await atProvider(() =>
    paymentProvider().createCheckoutSession({
      mode: "subscription",
      userId,
      email: user.email,
      customerId: customer?.providerCustomerId ?? null,
      amountMinor: PRO_PLAN.amountMinor,
      currency: PRO_PLAN.currency,
      description: `Tag Service ${PRO_PLAN.name}: up to ${limit} tags, billed every ${PRO_PLAN.interval}`,
      metadata: { userId, tier: input.tier },
      successUrl: `${base}/dashboard/billing?checkout=success`,
      cancelUrl: `${base}/dashboard/billing?checkout=cancelled`,
      idempotencyKey: `subscribe-${userId}-${current?.providerSubscriptionId ?? "first"}-${day(now)}`,
    }),
  );
  return { checkoutUrl: session.url, sessionId: session.id };
}

/**
 * DELETE /orders/subscribe: the subscription in force is cancelled at the end of its period (access
 * continues until then). No subscription in force is 404. Asking again answers the same end without
 * calling the provider. The provider's own customer.subscription.updated event says the same thing later;
 * whichever of the two records it first tells the user (SUBSCRIPTION_UPDATED), the other changes nothing.
 */
export async function cancelSubscription(ctx: ServiceContext): Promise<CancelSubscriptionResult> {
  const { userId } = requireUser(ctx);
  const [current] = await ctx.db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, userId));
  if (!current || !ENTITLED.has(current.status) || !current.providerSubscriptionId) throw new NotFoundError(NO_SUBSCRIPTION);
  const answer = (endsAt: Date) => ({
    message: `Your ${current.tier === "PREMIUM" ? "Premium" : "Pro"} plan stays active until ${day(endsAt)} and will not renew.`,
    endsAt: endsAt.toISOString(),
  });
  if (current.cancelAtPeriodEnd && current.currentPeriodEnd) return answer(current.currentPeriodEnd);

  const subscriptionId = current.providerSubscriptionId;
  const { currentPeriodEnd } = await atProvider(() => paymentProvider().cancelSubscriptionAtPeriodEnd(subscriptionId, `subscription-cancel-${subscriptionId}`));
  return withTransaction(ctx, async (tx) => {
    const [locked] = await tx.db
      .select()
      .from(schema.subscriptions)
      .where(and(eq(schema.subscriptions.userId, userId), eq(schema.subscriptions.providerSubscriptionId, subscriptionId)))
      .for("update");
    if (!locked) throw new NotFoundError(NO_SUBSCRIPTION);
    if (locked.cancelAtPeriodEnd && locked.currentPeriodEnd) return answer(locked.currentPeriodEnd);
    await tx.db.update(schema.subscriptions).set({ cancelAtPeriodEnd: true, currentPeriodEnd }).where(eq(schema.subscriptions.id, locked.id));
    const result = answer(currentPeriodEnd);
    await notify(tx, {
      userId,
      type: "SUBSCRIPTION_UPDATED",
      title: `Your ${locked.tier === "PREMIUM" ? "Premium" : "Pro"} plan will end`,
      body: result.message,
      data: { status: locked.status, tier: locked.tier, cancelAtPeriodEnd: true, endsAt: result.endsAt },
    });
    return result;
  });
}

export function toInvoiceRecord(invoice: Invoice): InvoiceRecord {
  return {
    id: invoice.id,
    amount: toMajor(invoice.amountMinor),
    currency: invoice.currency,
    status: invoice.status,
    date: invoice.issuedAt.toISOString(),
    description: invoice.description,
    orderId: invoice.orderId,
    invoiceUrl: invoice.orderId ? `${appBaseUrl()}/api/v1/orders/${invoice.orderId}/invoice` : null,
  };
}

/**
 * GET /orders/billing: the plan in force and its subscription, the tag limit and use, the card (null: the
 * providers' hosted pages keep card details and no event we handle carries them) and the invoices, newest
 * first (order payments and subscription periods, both recorded by the webhook's event handlers).
 */
export async function getBilling(ctx: ServiceContext): Promise<BillingRecord> {
  const { userId } = requireUser(ctx);
  const [user, [current], tagsUsed, invoices] = await Promise.all([
    getUserById(ctx.db, userId),
    ctx.db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, userId)),
    countedTags(ctx.db, userId),
    ctx.db
      .select()
      .from(schema.invoices)
      .where(eq(schema.invoices.userId, userId))
      .orderBy(desc(schema.invoices.issuedAt), desc(schema.invoices.id))
      .limit(INVOICES_SHOWN),
  ]);
  return {
    subscription: {
      tier: user.subscription,
      status: current?.status ?? null,
      currentPeriodEnd: current?.currentPeriodEnd?.toISOString() ?? null,
      cancelAtPeriodEnd: current?.cancelAtPeriodEnd ?? false,
    },
    tagLimit: TIER_TAG_LIMITS[user.subscription],
    tagsUsed,
    paymentMethod: null,
    invoices: invoices.map(toInvoiceRecord),
  };
}
