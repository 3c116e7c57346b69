import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { schema, type Executor } from "@/db/client";
import { providerEventOf } from "@/lib/payments/event";
import { type ServiceContext, withTransaction } from "@/lib/services/context";
import { notify } from "@/lib/services/notifications";
import { expireTagsBeyondTierLimit, type Tier, TIER_TAG_LIMITS } from "@/lib/services/tags";

export type SubscriptionEventKind = "created" | "updated" | "deleted";
type SubscriptionStatus = (typeof schema.subscriptionStatus.enumValues)[number];

/**
 * The provider's subscription statuses (Stripe's) in ours. `trialing` is access like `active`; `paused` and
 * `unpaid` keep the subscription but not the access; `incomplete_expired` never started.
 */
const STATUS_MAP: Record<string, SubscriptionStatus> = {
  active: "ACTIVE",
  trialing: "ACTIVE",
  past_due: "PAST_DUE",
  incomplete: "INCOMPLETE",
  incomplete_expired: "CANCELED",
  canceled: "CANCELED",
  unpaid: "UNPAID",
  paused: "UNPAID",
};

/**
 * Which statuses keep the paid tier. PAST_DUE keeps it: the provider is still retrying the card (its dunning
 * period), and it ends in `canceled` or `unpaid`, which drop it; taking tags away at the first failed
 * renewal would punish a card that simply expired.
 */
export const ENTITLED: ReadonlySet<SubscriptionStatus> = new Set(["ACTIVE", "PAST_DUE"]);

const paidTier = z.enum(["PRO", "PREMIUM"]);

const subscriptionObject = z.object({
  id: z.string().min(1),
  customer: z.union([z.string(), z.object({ id: z.string() }).transform((customer) => customer.id)]).nullish(),
  status: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  cancel_at_period_end: z.boolean().nullish(),
  current_period_start: z.number().nullish(),
  current_period_end: z.number().nullish(),
  items: z
    .object({
      data: z.array(
        z.object({
          current_period_start: z.number().nullish(),
          current_period_end: z.number().nullish(),
          price: z
            .object({
              id: z.string().optional(),
              unit_amount: z.number().int().nullish(),
              currency: z.string().nullish(),
              metadata: z.record(z.string(), z.unknown()).nullish(),
            })
            .nullish(),
        }),
      ),
    })
    .nullish(),
});
type SubscriptionObject = z.output<typeof subscriptionObject>;

/**
 * customer.subscription.created / updated / deleted: the subscription as the provider sends it. An object
 * that does not fit (no id, a status that is no string, …) fails the event at once: no retry can fix it.
 */
export const subscriptionEventSchema = providerEventOf(subscriptionObject);
export type SubscriptionEvent = z.output<typeof subscriptionEventSchema>;

/** A subscription whose price names no paid tier: no retry can fix it, so its event fails at once. */
export class UnpricedSubscriptionError extends Error {
  constructor(subscriptionId: string) {
    super(`Subscription ${subscriptionId} has no PRO or PREMIUM price (items.data[].price.metadata.tier)`);
    this.name = "UnpricedSubscriptionError";
  }
}

const userIdSchema = z.uuid();

export interface SubscriptionEventResult {
  applied: boolean;
  userId: string;
  tier: Tier;
  status: SubscriptionStatus;
  expiredTagIds: string[];
}

function tierOf(object: SubscriptionObject): Tier | undefined {
  for (const item of object.items?.data ?? []) {
    const parsed = paidTier.safeParse(item.price?.metadata?.tier);
    if (parsed.success) return parsed.data;
  }
  const fromMetadata = paidTier.safeParse(object.metadata?.tier);
  return fromMetadata.success ? fromMetadata.data : undefined;
}

function periodEndOf(object: SubscriptionObject): Date | null {
  // Stripe moved current_period_end onto the items in 2025; older API versions carry it on the subscription.
  const seconds = object.current_period_end ?? object.items?.data.find((item) => item.current_period_end)?.current_period_end;
  return seconds ? new Date(seconds * 1000) : null;
}

function periodStartOf(object: SubscriptionObject): Date | null {
  const seconds = object.current_period_start ?? object.items?.data.find((item) => item.current_period_start)?.current_period_start;
  return seconds ? new Date(seconds * 1000) : null;
}

/**
 * A paid period of an active subscription becomes one invoice row (the billing page's list), keyed by
 * `<subscription>:<period end>` so the created event, the cancel's updated event and any repeat of them
 * record it once, and a renewal (an updated event with the next period) records the next one. Only a
 * period with a price (the provider's unit amount and currency) is recorded: a free trial is not billed.
 */
async function recordPeriodInvoice(db: Executor, userId: string, object: SubscriptionObject, tier: Tier, eventTime: Date): Promise<void> {
  const end = periodEndOf(object);
  const price = object.items?.data.find((item) => typeof item.price?.unit_amount === "number" && item.price?.currency)?.price;
  if (!end || !price?.unit_amount || !price.currency) return;
  const start = periodStartOf(object) ?? eventTime;
  await db
    .insert(schema.invoices)
    .values({
      userId,
      orderId: null,
      providerRef: `${object.id}:${Math.floor(end.getTime() / 1000)}`,
      amountMinor: price.unit_amount,
      currency: price.currency.toUpperCase(),
      status: "paid",
      description: `${tierName(tier)} plan, ${start.toISOString().slice(0, 10)} to ${end.toISOString().slice(0, 10)}`,
      issuedAt: start,
    })
    .onConflictDoNothing({ target: schema.invoices.providerRef });
}

/**
 * The user a subscription event is about: by its customer (payment_customers, linked by the checkout), else
 * by metadata.userId (our checkout sets it), linking that customer to the user on the way. Neither known:
 * thrown as retryable, since the checkout event that links the customer may simply not have arrived yet.
 */
async function subscriberOf(db: Executor, object: SubscriptionObject): Promise<string> {
  if (object.customer) {
    const [linked] = await db.select({ userId: schema.paymentCustomers.userId }).from(schema.paymentCustomers).where(eq(schema.paymentCustomers.providerCustomerId, object.customer));
    if (linked) return linked.userId;
  }
  const claimed = userIdSchema.safeParse(object.metadata?.userId);
  if (claimed.success) {
    const [user] = await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.id, claimed.data));
    if (user) {
      if (object.customer) {
        await db.insert(schema.paymentCustomers).values({ userId: user.id, providerCustomerId: object.customer }).onConflictDoNothing();
      }
      return user.id;
    }
  }
  throw new Error(`No user for subscription ${object.id} (customer ${object.customer ?? "none"}) yet`);
}

function tierName(tier: Tier): string {
  return tier.charAt(0) + tier.slice(1).toLowerCase();
}

/**
 * customer.subscription.created / updated / deleted (the API specification's events; docs/decisions/0027-subscriptions.md): upserts the
 * user's subscription row and sets users.subscription (the paid tier while ACTIVE or PAST_DUE, else FREE).
 *
 * Out of order: the event's `created` time is stored as providerUpdatedAt, and an event older than the
 * stored state changes nothing, so updated(t2) then created(t1) ends at t2's state. A deleted subscription
 * stays deleted (nothing older or equal about the same subscription revives it), and a deletion of some
 * other, older subscription does not touch the current one.
 *
 * Effects happen only on a change of state (user and subscription rows locked first), so the same news
 * twice, or ten deliveries at once, tell the user once. A tier that shrinks expires the tags beyond the new
 * limit (most recently activated first) and names them in the notification and its e-mail.
 *
 * `event` is read through subscriptionEventSchema (the payment events table does it); a price without a
 * paid tier, when no earlier state names one, is an UnpricedSubscriptionError.
 */
export async function applySubscriptionEvent(ctx: ServiceContext, event: SubscriptionEvent, kind: SubscriptionEventKind): Promise<SubscriptionEventResult> {
  const object = event.data.object;
  const eventTime = new Date((event.created ?? Math.floor(Date.now() / 1000)) * 1000);

  return withTransaction(ctx, async (tx) => {
    const userId = await subscriberOf(tx.db, object);
    // One user's subscription events apply one at a time, whatever order they run in.
    const [user] = await tx.db.select().from(schema.users).where(eq(schema.users.id, userId)).for("update");
    if (!user) throw new Error(`User ${userId} disappeared`);
    const [current] = await tx.db.select().from(schema.subscriptions).where(eq(schema.subscriptions.userId, userId)).for("update");

    const status: SubscriptionStatus = kind === "deleted" ? "CANCELED" : (STATUS_MAP[object.status ?? ""] ?? "INCOMPLETE");
    const tier = tierOf(object) ?? current?.tier;
    if (!tier || tier === "FREE") {
      if (kind !== "deleted") throw new UnpricedSubscriptionError(object.id);
    }
    // "active" only: a trialing period is not paid.
    if (kind !== "deleted" && object.status === "active" && tier && tier !== "FREE") {
      await recordPeriodInvoice(tx.db, userId, object, tier, eventTime);
    }
    const unchanged = { applied: false, userId, tier: user.subscription, status: current?.status ?? status, expiredTagIds: [] };

    if (current) {
      const sameSubscription = current.providerSubscriptionId === object.id;
      if (current.providerUpdatedAt && eventTime < current.providerUpdatedAt) return unchanged;
      if (sameSubscription && current.status === "CANCELED" && kind !== "deleted") return unchanged;
      // Another subscription's end (an older one replaced by this user's current one) is not this one's.
      if (!sameSubscription && kind === "deleted" && current.status !== "CANCELED") return unchanged;
    } else if (kind === "deleted" && user.subscription === "FREE") {
      return unchanged;
    }

    const storedTier: Tier = tier && tier !== "FREE" ? tier : "PRO";
    const values = {
      providerSubscriptionId: object.id,
      tier: storedTier,
      status,
      currentPeriodEnd: periodEndOf(object) ?? current?.currentPeriodEnd ?? null,
      cancelAtPeriodEnd: kind === "deleted" ? false : (object.cancel_at_period_end ?? false),
      providerUpdatedAt: eventTime,
    };
    if (current) await tx.db.update(schema.subscriptions).set(values).where(and(eq(schema.subscriptions.id, current.id)));
    else await tx.db.insert(schema.subscriptions).values({ userId, ...values });

    const entitledTier: Tier = ENTITLED.has(status) ? storedTier : "FREE";
    const tierChanged = entitledTier !== user.subscription;
    if (tierChanged) await tx.db.update(schema.users).set({ subscription: entitledTier }).where(eq(schema.users.id, userId));

    let expired: { id: string; itemName: string | null; code: string }[] = [];
    if (TIER_TAG_LIMITS[entitledTier] < TIER_TAG_LIMITS[user.subscription]) {
      const limit = TIER_TAG_LIMITS[entitledTier];
      expired = await expireTagsBeyondTierLimit(tx.db, userId, entitledTier, `subscription ended: the ${entitledTier} plan allows ${limit} tags`);
    }

    const statusChanged = current?.status !== status || current?.providerSubscriptionId !== object.id;
    const cancelChanged = (current?.cancelAtPeriodEnd ?? false) !== values.cancelAtPeriodEnd;
    if (tierChanged || statusChanged || cancelChanged || expired.length > 0) {
      await notify(tx, subscriptionNotice({ userId, kind, status, paidTier: storedTier, entitledTier, cancelAtPeriodEnd: values.cancelAtPeriodEnd, periodEnd: values.currentPeriodEnd, expired }));
    }
    return { applied: true, userId, tier: entitledTier, status, expiredTagIds: expired.map((tag) => tag.id) };
  });
}

function subscriptionNotice(input: {
  userId: string;
  kind: SubscriptionEventKind;
  status: SubscriptionStatus;
  paidTier: Tier;
  entitledTier: Tier;
  cancelAtPeriodEnd: boolean;
  periodEnd: Date | null;
  expired: { id: string; itemName: string | null; code: string }[];
}) {
  const plan = tierName(input.paidTier);
  const names = input.expired.map((tag) => tag.itemName?.trim() || `tag ${tag.code}`);
  const data = { status: input.status, tier: input.entitledTier, expiredTags: input.expired.map((tag, index) => ({ id: tag.id, name: names[index] })) };
  const base = { userId: input.userId, type: "SUBSCRIPTION_UPDATED" as const, data };
  if (input.entitledTier === "FREE") {
    const limit = TIER_TAG_LIMITS.FREE;
    const expiredText = names.length
      ? ` The Free plan allows ${limit} tags, so these ${names.length === 1 ? "tag is" : `${names.length} tags are`} now expired (the most recently activated ones): ${names.join(", ")}. Upgrade to PRO again to reactivate them.`
      : "";
    const why = input.status === "CANCELED" ? "has ended" : input.status === "UNPAID" ? "is unpaid" : "is not active";
    return { ...base, title: `Your ${plan} plan ${why}`, body: `Your account is on the Free plan now.${expiredText}` };
  }
  if (input.status === "PAST_DUE") {
    return { ...base, title: `Payment for your ${plan} plan failed`, body: `We could not renew your ${plan} plan. Update your payment method to keep it; your tags stay active meanwhile.` };
  }
  if (input.cancelAtPeriodEnd) {
    const until = input.periodEnd ? ` until ${input.periodEnd.toISOString().slice(0, 10)}` : "";
    return { ...base, title: `Your ${plan} plan will end`, body: `Your ${plan} plan stays active${until} and will not renew.` };
  }
  return {
    ...base,
    title: `Your ${plan} plan is active`,
    body: `Thank you for subscribing. Your ${plan} plan is active: you can keep up to ${TIER_TAG_LIMITS[input.entitledTier]} tags, and expired tags can be reactivated.`,
  };
}
