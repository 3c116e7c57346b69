import { createElement } from "react";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { schema, type Executor } from "@/db/client";
import type { Order } from "@/db/schema";
import { OrderConfirmationEmail } from "@/emails/order-confirmation";
import { queueEmail } from "@/lib/email/queue";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { log } from "@/lib/log";
import { providerEventOf } from "@/lib/payments/event";
import { getUserById } from "@/lib/services/auth";
import { type ServiceContext, withTransaction } from "@/lib/services/context";
import { notify } from "@/lib/services/notifications";
import { insertNewTags } from "@/lib/services/tags";
import { recordSystemAudit } from "@/lib/services/audit";
import { LATE_PAYMENT_ACTION, orderAuditFields, tellBuyer } from "./orders";
import { consumeReservation, linkPaymentCustomer, lockOrder, orderItemsOf } from "./queries";
import { formatMoney, orderReference } from "./records";

/**
 * What the payment provider's events do to orders (lib/services/payment-events/events.ts pairs each event
 * type with its schema below and its function here). Each is idempotent by the order's state read under its
 * row lock, so a repeated, concurrent or out-of-order delivery changes nothing twice: one set of tags, one
 * e-mail, stock moved once.
 *
 * The schemas read a field the way the shop always has: a value of the wrong kind (a number for an id, an
 * id longer than 500 characters, a metadata that is no object) counts as absent, so such an event finds no
 * order and changes nothing, rather than failing.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A non-empty string of at most 500 characters, else null. */
const text = z.string().min(1).max(500).nullable().catch(null);
/** A UUID (lower-cased), else null. */
const uuid = z
  .string()
  .max(500)
  .regex(UUID)
  .transform((value) => value.toLowerCase())
  .nullable()
  .catch(null);
/** Our checkout's metadata: the order and the buyer. */
const metadata = z.object({ orderId: uuid, userId: uuid }).catch({ orderId: null, userId: null });

/** checkout.session.completed: the session's mode, payment state, customer and payment intent, and our metadata. */
export const checkoutSessionCompletedSchema = providerEventOf(
  z.object({
    id: text,
    mode: text,
    payment_status: text,
    customer: text,
    payment_intent: text,
    metadata,
  }),
);
export type CheckoutSessionCompleted = z.output<typeof checkoutSessionCompletedSchema>;

/** payment_intent.succeeded and payment_intent.payment_failed: the intent, its customer, our metadata and the failure's message. */
export const paymentIntentEventSchema = providerEventOf(
  z.object({
    id: text,
    customer: text,
    metadata,
    last_payment_error: z.object({ message: text }).catch({ message: null }),
  }),
);
export type PaymentIntentEvent = z.output<typeof paymentIntentEventSchema>;

/** When the provider says the event happened; now when it does not say. */
const eventTime = (event: { created?: number }) => (event.created === undefined ? new Date() : new Date(event.created * 1000));

/** The order an event names: by its payment intent, else by metadata.orderId, else by its checkout session; locked. */
async function lockEventOrder(db: Executor, refs: { paymentIntentId?: string | null; orderId?: string | null; sessionId?: string | null }): Promise<Order | undefined> {
  if (refs.paymentIntentId) {
    const [byIntent] = await db.select().from(schema.orders).where(eq(schema.orders.paymentIntentId, refs.paymentIntentId)).for("update");
    if (byIntent) return byIntent;
  }
  if (refs.orderId) {
    const byId = await lockOrder(db, refs.orderId);
    if (byId) return byId;
  }
  if (refs.sessionId) {
    const [bySession] = await db.select().from(schema.orders).where(eq(schema.orders.paymentSessionId, refs.sessionId)).for("update");
    return bySession;
  }
  return undefined;
}

/**
 * Money came in for an order that was already cancelled (before payment, after a failed attempt, or while a
 * delayed payment was still in flight): it is refunded through the `orders.refund` job (paymentStatus
 * PROCESSING, paidAt set, until the provider's refund is recorded), the order's history records it and the
 * buyer is told. The order stays CANCELLED: no tags are minted and no stock moves (its reservation was
 * released by the cancellation).
 */
async function refundLatePayment(ctx: ServiceContext, order: Order, paymentIntentId: string | null, paidAt: Date, eventId: string): Promise<void> {
  const [updated] = await ctx.db
    .update(schema.orders)
    .set({ paymentStatus: "PROCESSING", paymentIntentId: paymentIntentId ?? order.paymentIntentId, paidAt, paymentError: null })
    .where(eq(schema.orders.id, order.id))
    .returning();
  await enqueueJob(ctx, "orders.refund", { orderId: order.id });
  await recordSystemAudit(ctx, {
    actor: "system: payment provider event",
    action: LATE_PAYMENT_ACTION,
    entityType: "order",
    entityId: order.id,
    before: orderAuditFields(order),
    after: { ...orderAuditFields(updated!), eventId, note: "A payment completed after the order was cancelled; a full refund was started." },
  });
  await tellBuyer(
    ctx,
    order,
    "CANCELLED",
    `Payment for cancelled order ${orderReference(order.id)} is being refunded`,
    `A payment of ${formatMoney(order.totalMinor, order.currency)} arrived after this order was cancelled. We are refunding it in full; the order stays cancelled and nothing will be shipped.`,
  );
}

/** A payment completed for this order after it was cancelled, and it was not taken into account yet (paidAt unset). */
const isLatePayment = (order: Order) => order.status === "CANCELLED" && order.paidAt === null && order.paymentStatus !== "REFUNDED";

/**
 * PENDING → CONFIRMED with paymentStatus COMPLETED: the reserved units leave the shelf, each tag line mints
 * its tags for the buyer (PENDING_SETUP, recorded in order_tags; a line is minted once, by tagsMintedAt), an
 * invoice row, the confirmation e-mail and an ORDER_UPDATED notification.
 */
async function confirmPaidOrder(ctx: ServiceContext, order: Order, payment: { paymentIntentId: string | null; sessionId: string | null; paidAt: Date }): Promise<void> {
  const now = new Date();
  const items = (await orderItemsOf(ctx.db, [order.id])).get(order.id) ?? [];
  await consumeReservation(ctx.db, order, items, now);
  const [confirmed] = await ctx.db
    .update(schema.orders)
    .set({
      status: "CONFIRMED",
      paymentStatus: "COMPLETED",
      paidAt: payment.paidAt,
      paymentIntentId: payment.paymentIntentId ?? order.paymentIntentId,
      paymentSessionId: order.paymentSessionId ?? payment.sessionId,
      paymentError: null,
    })
    .where(eq(schema.orders.id, order.id))
    .returning();

  const tagLines = items.filter((item) => item.tagPack > 0);
  const products = tagLines.length
    ? await ctx.db
        .select({ id: schema.products.id, tagType: schema.products.tagType })
        .from(schema.products)
        .where(inArray(schema.products.id, tagLines.map((item) => item.productId)))
    : [];
  const tagTypeOf = new Map(products.map((product) => [product.id, product.tagType]));
  let tagCount = 0;
  for (const item of tagLines) {
    const [claimed] = await ctx.db
      .update(schema.orderItems)
      .set({ tagsMintedAt: now })
      .where(and(eq(schema.orderItems.id, item.id), isNull(schema.orderItems.tagsMintedAt)))
      .returning({ id: schema.orderItems.id });
    if (!claimed) continue;
    const tags = await insertNewTags(ctx.db, {
      count: item.tagPack * item.quantity,
      tagType: tagTypeOf.get(item.productId) ?? "GENERAL",
      ownerId: order.userId,
      reason: `bought: order ${orderReference(order.id)}`,
    });
    await ctx.db.insert(schema.orderTags).values(tags.map((tag) => ({ orderItemId: item.id, tagId: tag.id })));
    tagCount += tags.length;
  }

  const reference = orderReference(order.id);
  await ctx.db
    .insert(schema.invoices)
    .values({
      userId: order.userId,
      orderId: order.id,
      providerRef: confirmed!.paymentIntentId ?? confirmed!.paymentSessionId ?? order.id,
      amountMinor: order.totalMinor,
      currency: order.currency,
      status: "paid",
      description: `Order ${reference}`,
      issuedAt: payment.paidAt,
    })
    .onConflictDoNothing();

  const buyer = await getUserById(ctx.db, order.userId);
  await queueEmail(ctx, {
    to: buyer.email,
    subject: `Order ${reference} confirmed`,
    templateName: "orders.confirmation",
    template: createElement(OrderConfirmationEmail, {
      firstName: buyer.firstName,
      reference,
      orderId: order.id,
      lines: items.map((item) => ({
        name: `${item.name}${item.variantName ? ` (${item.variantName})` : ""}`,
        quantity: item.quantity,
        amount: formatMoney(item.unitPriceMinor * item.quantity, order.currency),
      })),
      total: formatMoney(order.totalMinor, order.currency),
      tagCount,
    }),
  });
  await tellBuyer(
    ctx,
    order,
    "CONFIRMED",
    `Order ${reference} confirmed`,
    tagCount > 0 ? `Payment received. ${tagCount === 1 ? "1 tag was" : `${tagCount} tags were`} added to your account, ready to set up.` : "Payment received. We will let you know when it ships.",
    false,
  );
}

/**
 * checkout.session.completed. Mode subscription: links `customer` to metadata.userId (the subscription
 * itself arrives as customer.subscription.created). Mode payment: links the customer, then by the order's
 * state: PENDING → confirmed (confirmPaidOrder); CANCELLED with no payment recorded yet (before payment, after
 * a failure, or while a delayed payment was in flight) → refunded (refundLatePayment);
 * otherwise already done. A session not yet paid (`payment_status` unpaid: a delayed method) only marks
 * the payment PROCESSING.
 */
export async function applyCheckoutSessionCompleted(ctx: ServiceContext, event: CheckoutSessionCompleted): Promise<void> {
  const session = event.data.object;
  const { customer, metadata } = session;
  const userId = metadata.userId;
  if (session.mode === "subscription") {
    if (userId && customer) await withTransaction(ctx, (tx) => linkPaymentCustomer(tx.db, userId, customer));
    return;
  }
  await withTransaction(ctx, async (tx) => {
    const order = await lockEventOrder(tx.db, { orderId: metadata.orderId, sessionId: session.id });
    if (!order) {
      log.warn("checkout.session.completed for no known order", { eventId: event.id, sessionId: session.id });
      return;
    }
    if (userId && userId !== order.userId) log.warn("checkout session metadata names another user than the order's", { eventId: event.id, orderId: order.id });
    if (customer) await linkPaymentCustomer(tx.db, order.userId, customer);
    const paymentIntentId = session.payment_intent;
    const paid = session.payment_status === "paid" || session.payment_status === "no_payment_required";
    if (!paid) {
      if (order.status === "PENDING" && order.paymentStatus === "PENDING") {
        await tx.db.update(schema.orders).set({ paymentStatus: "PROCESSING", paymentIntentId: paymentIntentId ?? order.paymentIntentId }).where(eq(schema.orders.id, order.id));
      }
      return;
    }
    if (order.status === "PENDING") {
      await confirmPaidOrder(tx, order, { paymentIntentId, sessionId: session.id, paidAt: eventTime(event) });
    } else if (isLatePayment(order)) {
      await refundLatePayment(tx, order, paymentIntentId, eventTime(event), event.id);
    } else if (!order.paymentIntentId && paymentIntentId) {
      await tx.db.update(schema.orders).set({ paymentIntentId }).where(eq(schema.orders.id, order.id));
    }
  });
}

/**
 * payment_intent.succeeded: the payment is recorded on the order it belongs to (paymentStatus COMPLETED);
 * the order's confirmation stays with checkout.session.completed, whichever arrives first. A payment for an
 * order already cancelled is refunded. An unknown payment intent is nothing to do.
 */
export async function recordPaymentSucceeded(ctx: ServiceContext, event: PaymentIntentEvent): Promise<void> {
  const intent = event.data.object;
  const paymentIntentId = intent.id;
  await withTransaction(ctx, async (tx) => {
    const order = await lockEventOrder(tx.db, { paymentIntentId, orderId: intent.metadata.orderId });
    if (!order) return;
    const customer = intent.customer;
    if (customer) await linkPaymentCustomer(tx.db, order.userId, customer);
    if (order.status === "PENDING" && order.paymentStatus !== "COMPLETED") {
      await tx.db
        .update(schema.orders)
        .set({ paymentStatus: "COMPLETED", paymentIntentId: paymentIntentId ?? order.paymentIntentId, paymentError: null })
        .where(eq(schema.orders.id, order.id));
    } else if (isLatePayment(order)) {
      await refundLatePayment(tx, order, paymentIntentId, eventTime(event), event.id);
    } else if (!order.paymentIntentId && paymentIntentId) {
      await tx.db.update(schema.orders).set({ paymentIntentId }).where(eq(schema.orders.id, order.id));
    }
  });
}

/**
 * payment_intent.payment_failed: a PENDING order's payment is FAILED with the provider's message and the
 * buyer gets a PAYMENT_FAILED notification (once per event); the order stays PENDING so checkout can be
 * tried again. A failure after a success (or for an order no longer PENDING) changes nothing, except for an
 * order cancelled while its payment was in flight: that payment is then FAILED (nothing will be refunded).
 */
export async function recordPaymentFailed(ctx: ServiceContext, event: PaymentIntentEvent): Promise<void> {
  const intent = event.data.object;
  const paymentIntentId = intent.id;
  const message = intent.last_payment_error.message ?? "The payment failed.";
  await withTransaction(ctx, async (tx) => {
    const order = await lockEventOrder(tx.db, { paymentIntentId, orderId: intent.metadata.orderId });
    if (!order) return;
    if (order.status === "CANCELLED" && order.paymentStatus === "PROCESSING" && order.paidAt === null) {
      // The payment that was in flight when the order was cancelled failed after all: nothing to refund.
      await tx.db.update(schema.orders).set({ paymentStatus: "FAILED", paymentError: message }).where(eq(schema.orders.id, order.id));
      return;
    }
    if (order.status !== "PENDING" || order.paymentStatus === "COMPLETED") return;
    const [told] = await tx.db
      .select({ id: schema.notifications.id })
      .from(schema.notifications)
      .where(and(eq(schema.notifications.userId, order.userId), eq(schema.notifications.type, "PAYMENT_FAILED"), sql`${schema.notifications.data}->>'eventId' = ${event.id}`));
    if (told) return;
    await tx.db
      .update(schema.orders)
      .set({ paymentStatus: "FAILED", paymentError: message, paymentIntentId: paymentIntentId ?? order.paymentIntentId })
      .where(eq(schema.orders.id, order.id));
    await notify(tx, {
      userId: order.userId,
      type: "PAYMENT_FAILED",
      title: `Payment for order ${orderReference(order.id)} failed`,
      body: `${message} Your order is kept: you can try paying again.`,
      data: { orderId: order.id, eventId: event.id, status: order.status },
    });
  });
}
