import { createElement } from "react";
import { and, desc, eq, inArray, isNotNull, sql, type SQL } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import type { Order, OrderItem, ShippingAddress } from "@/db/schema";
import { OrderShippedEmail } from "@/emails/order-shipped";
import { queueEmail } from "@/lib/email/queue";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { paymentProvider } from "@/lib/payments/provider";
import { getUserById } from "@/lib/services/auth";
import { requireAdmin, requireUser, type ServiceContext, withTransaction } from "@/lib/services/context";
import { ConflictError, type FieldIssue, NotFoundError, UnprocessableError, ValidationError } from "@/lib/services/errors";
import { boundedTotal, keysetPage, type ListOrder, type OrderKey, type Page, type PageRequest } from "@/lib/services/paging";
import { notify } from "@/lib/services/notifications";
import { recordAudit, recordSystemAudit } from "@/lib/services/audit";
import { countOrderTags, lockOrder, orderItemsOf, orderRecord, orderRecords, releaseReservation, reserveStock, restock, withdrawUnusedOrderTags } from "./queries";
import { appBaseUrl, describeTagOutcome, formatMoney, orderReference, toOrderRecord } from "./records";
import {
  ABANDONED_ORDER_HOURS,
  type AdminOrderRecord,
  AdminOrderStatusInput,
  type CancelOrderResult,
  type CheckoutResult,
  type CreateOrderInput,
  type OrderRecord,
  type RefundOrderResult,
} from "./schemas";

export const ORDER_NOT_FOUND = "Order not found.";

/** The order history entry of a payment that completed after its order was cancelled (and is being refunded). */
export const LATE_PAYMENT_ACTION = "order.late_payment_refund";

/** What an audit entry of an admin order change keeps (not the address or items). */
export function orderAuditFields(order: Order) {
  return { status: order.status, paymentStatus: order.paymentStatus, trackingNumber: order.trackingNumber, carrier: order.carrier, refundId: order.refundId, refundedMinor: order.refundedMinor };
}
type OrderStatus = Order["status"];

/** The admin moves of the order table (the API specification's order table, docs/decisions/0024-orders.md): anything else is 409. */
export const adminOrderMoves: Readonly<Record<"PROCESSING" | "SHIPPED" | "DELIVERED", readonly OrderStatus[]>> = {
  PROCESSING: ["CONFIRMED"],
  SHIPPED: ["CONFIRMED", "PROCESSING"],
  DELIVERED: ["SHIPPED"],
};

/** Paid and neither refunded nor cancelled: what the admin refund accepts. */
const REFUNDABLE: readonly OrderStatus[] = ["CONFIRMED", "PROCESSING", "SHIPPED", "DELIVERED"];

/** The idempotency key of an order's one refund: the cancel job and the admin refund share it, so the provider refunds once. */
export const refundKey = (orderId: string) => `order-refund-${orderId}`;

/** The caller's order; someone else's (or an unknown id) is 404, indistinguishable. */
async function ownOrder(db: Executor, userId: string, orderId: string, lock = false): Promise<Order> {
  const query = db
    .select()
    .from(schema.orders)
    .where(and(eq(schema.orders.id, orderId), eq(schema.orders.userId, userId)));
  const [order] = lock ? await query.for("update") : await query;
  if (!order) throw new NotFoundError(ORDER_NOT_FOUND);
  return order;
}

/** Tells the buyer of a change of their order (ORDER_UPDATED); `email: false` when a dedicated e-mail goes out. */
export async function tellBuyer(ctx: ServiceContext, order: Pick<Order, "id" | "userId">, status: string, title: string, body: string, email = true) {
  await notify(ctx, { userId: order.userId, type: "ORDER_UPDATED", title, body, data: { orderId: order.id, status }, email });
}

/**
 * POST /orders: prices from the catalogue (never from the body), one currency, stock checked and reserved
 * in the same transaction with a conditional UPDATE per product (422 when not enough is free; nothing is
 * kept). Unknown or inactive products and variants are 400 naming the line.
 */
export async function createOrder(ctx: ServiceContext, input: CreateOrderInput): Promise<OrderRecord> {
  const { userId } = requireUser(ctx);
  return withTransaction(ctx, async (tx) => {
    const productIds = [...new Set(input.items.map((item) => item.productId))];
    const products = await tx.db
      .select()
      .from(schema.products)
      .where(and(inArray(schema.products.id, productIds), eq(schema.products.active, true)));
    const variantIds = input.items.flatMap((item) => (item.variantId ? [item.variantId] : []));
    const variants = variantIds.length ? await tx.db.select().from(schema.productVariants).where(inArray(schema.productVariants.id, variantIds)) : [];
    const productById = new Map(products.map((product) => [product.id, product]));
    const variantById = new Map(variants.map((variant) => [variant.id, variant]));

    const issues: FieldIssue[] = [];
    const lines = input.items.flatMap((item, index) => {
      const product = productById.get(item.productId);
      if (!product) {
        issues.push({ field: `items.${index}.productId`, message: "No product in the shop has this id." });
        return [];
      }
      const variant = item.variantId ? variantById.get(item.variantId) : undefined;
      if (item.variantId && (!variant || variant.productId !== product.id)) {
        issues.push({ field: `items.${index}.variantId`, message: "This product has no variant with this id." });
        return [];
      }
      return [{ product, variant, quantity: item.quantity }];
    });
    if (issues.length) throw new ValidationError(issues);
    const currencies = new Set(lines.map((line) => line.product.currency));
    if (currencies.size > 1) throw ValidationError.field("items", `All items of an order must share one currency (got ${[...currencies].sort().join(", ")}).`);

    // Stock is taken in product-id order so two orders for the same products never wait on each other crosswise.
    const wanted = new Map<string, number>();
    for (const line of lines) wanted.set(line.product.id, (wanted.get(line.product.id) ?? 0) + line.quantity);
    for (const productId of [...wanted.keys()].sort()) {
      const quantity = wanted.get(productId)!;
      if (!(await reserveStock(tx.db, productId, quantity))) {
        const [now] = await tx.db.select({ stock: schema.products.stock, reserved: schema.products.reserved, name: schema.products.name }).from(schema.products).where(eq(schema.products.id, productId));
        const available = Math.max(0, (now?.stock ?? 0) - (now?.reserved ?? 0));
        throw new UnprocessableError(`Not enough stock of ${now?.name ?? "a product"}: ${available} available, ${quantity} ordered.`, { productId, available, requested: quantity });
      }
    }

    const totalMinor = lines.reduce((sum, line) => sum + (line.variant?.priceMinor ?? line.product.priceMinor) * line.quantity, 0);
    const [order] = await tx.db
      .insert(schema.orders)
      .values({ userId, totalMinor, currency: lines[0]!.product.currency, shippingAddress: input.shippingAddress ?? null })
      .returning();
    const items = await tx.db
      .insert(schema.orderItems)
      .values(
        lines.map((line) => ({
          orderId: order!.id,
          productId: line.product.id,
          variantId: line.variant?.id ?? null,
          name: line.product.name,
          variantName: line.variant?.name ?? null,
          quantity: line.quantity,
          unitPriceMinor: line.variant?.priceMinor ?? line.product.priceMinor,
          tagPack: line.product.tagPack,
        })),
      )
      .returning();
    // Unpaid by then, it is cancelled and its units go back on sale (a delayed job; it sweeps every overdue order).
    const abandonAfter = new Date(order!.createdAt.getTime() + ABANDONED_ORDER_HOURS * 60 * 60 * 1000);
    await enqueueJob(tx, "orders.expire-abandoned", { orderId: order!.id }, { startAfter: abandonAfter });
    await tellBuyer(tx, order!, "PENDING", `Order ${orderReference(order!.id)} placed`, `Your order of ${formatMoney(totalMinor, order!.currency)} is waiting for payment.`, false);
    return toOrderRecord(order!, items);
  });
}

/** GET /orders: the caller's orders, newest first. */
const orderKeys: OrderKey[] = [
  { column: schema.orders.createdAt, direction: "desc", type: "timestamp" },
  { column: schema.orders.id, direction: "desc", type: "uuid" },
];
const ownOrderList: ListOrder<Order> = { name: "orders", keys: orderKeys, valuesOf: (row) => [row.createdAt, row.id] };
const adminOrderList: ListOrder<{ order: Order; email: string }> = { name: "admin-orders", keys: orderKeys, valuesOf: (row) => [row.order.createdAt, row.order.id] };

/** GET /orders: the caller's orders, newest first, by page or by cursor (index orders_user_created_id_idx). */
export async function listOrders(ctx: ServiceContext, page: PageRequest): Promise<Page<OrderRecord>> {
  const { userId } = requireUser(ctx);
  const mine = eq(schema.orders.userId, userId);
  const plan = keysetPage(ownOrderList, [userId], page);
  const [rows, total] = await Promise.all([
    ctx.db
      .select()
      .from(schema.orders)
      .where(and(mine, plan.where))
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    boundedTotal(ctx.db, ctx.db.select({ one: sql`1` }).from(schema.orders).where(mine)),
  ]);
  const records = await orderRecords(ctx.db, rows.slice(0, page.limit));
  return plan.finish(rows, (_, index) => records[index]!, total);
}

/** The address of the caller's latest order that had one: the cart's checkout starts from it. */
export async function lastShippingAddress(ctx: ServiceContext): Promise<ShippingAddress | null> {
  const { userId } = requireUser(ctx);
  const [last] = await ctx.db
    .select({ address: schema.orders.shippingAddress })
    .from(schema.orders)
    .where(and(eq(schema.orders.userId, userId), isNotNull(schema.orders.shippingAddress)))
    .orderBy(desc(schema.orders.createdAt), desc(schema.orders.id))
    .limit(1);
  return last?.address ?? null;
}

/** GET /orders/:id: the caller's order; anyone else's is 404. */
export async function getOrder(ctx: ServiceContext, orderId: string): Promise<OrderRecord> {
  const { userId } = requireUser(ctx);
  return orderRecord(ctx.db, await ownOrder(ctx.db, userId, orderId));
}

function describeLines(items: OrderItem[]): string {
  return items.map((item) => `${item.quantity} × ${item.name}${item.variantName ? ` (${item.variantName})` : ""}`).join(", ");
}

/**
 * POST /orders/:id/checkout: a PENDING order only (409 otherwise). The provider is called outside any
 * transaction (it is another system, and the test provider keeps its own records) with the order's id as
 * the idempotency key, so concurrent or repeated calls get the one session; the order then records it,
 * if it is still PENDING.
 */
export async function checkoutOrder(ctx: ServiceContext, orderId: string): Promise<CheckoutResult> {
  const { userId } = requireUser(ctx);
  const order = await ownOrder(ctx.db, userId, orderId);
  if (order.status !== "PENDING") throw new ConflictError(`A ${order.status} order cannot be paid.`, { status: order.status, allowedFrom: ["PENDING"] });
  const user = await getUserById(ctx.db, userId);
  const [customer] = await ctx.db.select().from(schema.paymentCustomers).where(eq(schema.paymentCustomers.userId, userId));
  const items = (await orderItemsOf(ctx.db, [order.id])).get(order.id) ?? [];
  const base = appBaseUrl();
  const session = await paymentProvider().createCheckoutSession({
    mode: "payment",
    userId,
    email: user.email,
    customerId: customer?.providerCustomerId ?? null,
    amountMinor: order.totalMinor,
    currency: order.currency,
    description: `Order ${orderReference(order.id)}: ${describeLines(items)}`.slice(0, 500),
    metadata: { orderId: order.id, userId },
    successUrl: `${base}/dashboard/orders/${order.id}?checkout=success`,
    cancelUrl: `${base}/dashboard/orders/${order.id}?checkout=cancelled`,
    idempotencyKey: `order-checkout-${order.id}`,
  });
  await withTransaction(ctx, async (tx) => {
    const current = await ownOrder(tx.db, userId, orderId, true);
    if (current.status !== "PENDING") throw new ConflictError(`A ${current.status} order cannot be paid.`, { status: current.status, allowedFrom: ["PENDING"] });
    if (current.paymentSessionId !== session.id) await tx.db.update(schema.orders).set({ paymentSessionId: session.id }).where(eq(schema.orders.id, current.id));
  });
  return { checkoutUrl: session.url, sessionId: session.id };
}

/**
 * POST /orders/:id/cancel. PENDING → CANCELLED, its reserved stock released. CONFIRMED or PROCESSING →
 * CANCELLED with the units back on the shelf, the order's still-untouched tags withdrawn, and a refund
 * started: paymentStatus PROCESSING until the provider's refund is recorded (the `orders.refund` job),
 * then REFUNDED. SHIPPED, DELIVERED, CANCELLED and REFUNDED are 409 (returns go through support).
 *
 * A PENDING order whose payment is still in flight at the provider (a delayed method: the checkout
 * completed unpaid, paymentStatus PROCESSING) is cancelled at once rather than refused: the buyer need not
 * wait days for a bank transfer to settle. Its paymentStatus stays PROCESSING with no paidAt, and if that
 * payment completes later the payment effects refund it in full automatically (and if it fails, it is FAILED).
 */
export async function cancelOrder(ctx: ServiceContext, orderId: string, now = new Date()): Promise<CancelOrderResult> {
  const { userId } = requireUser(ctx);
  return withTransaction(ctx, async (tx) => {
    const order = await ownOrder(tx.db, userId, orderId, true);
    const items = (await orderItemsOf(tx.db, [order.id])).get(order.id) ?? [];
    const reference = orderReference(order.id);
    const refundStarted = "The order was cancelled and a refund was started. It may take a few days to reach your account.";
    if (order.status === "PENDING" && order.paymentStatus === "COMPLETED" && order.paymentIntentId) {
      // The payment was recorded but its confirmation has not arrived yet: cancelled like a paid order
      // (paidAt set, so a late confirmation is recognised as already taken into account).
      await releaseReservation(tx.db, order, items, now);
      await tx.db.update(schema.orders).set({ status: "CANCELLED", cancelledAt: now, paymentStatus: "PROCESSING", paidAt: order.paidAt ?? now }).where(eq(schema.orders.id, order.id));
      await enqueueJob(tx, "orders.refund", { orderId: order.id });
      await tellBuyer(tx, order, "CANCELLED", `Order ${reference} cancelled`, `Your order was cancelled and a refund of ${formatMoney(order.totalMinor, order.currency)} was started.`);
      return { id: order.id, status: "CANCELLED", paymentStatus: "PROCESSING", refund: "STARTED", message: refundStarted };
    }
    if (order.status === "PENDING" && order.paymentStatus === "PROCESSING") {
      await releaseReservation(tx.db, order, items, now);
      await tx.db.update(schema.orders).set({ status: "CANCELLED", cancelledAt: now }).where(eq(schema.orders.id, order.id));
      const message = `The order was cancelled. A payment you started is still being processed by the payment provider: if it completes, the ${formatMoney(order.totalMinor, order.currency)} will be refunded in full automatically.`;
      await tellBuyer(tx, order, "CANCELLED", `Order ${reference} cancelled`, message);
      return { id: order.id, status: "CANCELLED", paymentStatus: "PROCESSING", refund: "IF_PAYMENT_COMPLETES", message };
    }
    if (order.status === "PENDING") {
      await releaseReservation(tx.db, order, items, now);
      await tx.db.update(schema.orders).set({ status: "CANCELLED", cancelledAt: now }).where(eq(schema.orders.id, order.id));
      await tellBuyer(tx, order, "CANCELLED", `Order ${reference} cancelled`, "Your order was cancelled before payment. Nothing was charged.");
      return { id: order.id, status: "CANCELLED", paymentStatus: order.paymentStatus, refund: "NONE", message: "The order was cancelled. Nothing was charged." };
    }
    if (order.status === "CONFIRMED" || order.status === "PROCESSING") {
      await restock(tx.db, items);
      const withdrawn = await withdrawUnusedOrderTags(tx.db, order);
      const kept = await countOrderTags(tx.db, order.id);
      await tx.db.update(schema.orders).set({ status: "CANCELLED", cancelledAt: now, paymentStatus: "PROCESSING", tagsWithdrawn: withdrawn }).where(eq(schema.orders.id, order.id));
      await enqueueJob(tx, "orders.refund", { orderId: order.id });
      const tagText = describeTagOutcome({ withdrawn, kept, shipped: false });
      await tellBuyer(tx, order, "CANCELLED", `Order ${reference} cancelled`, `Your order was cancelled and a refund of ${formatMoney(order.totalMinor, order.currency)} was started.${tagText ? ` ${tagText}` : ""}`);
      return { id: order.id, status: "CANCELLED", paymentStatus: "PROCESSING", refund: "STARTED", message: tagText ? `${refundStarted} ${tagText}` : refundStarted };
    }
    const why = order.status === "SHIPPED" || order.status === "DELIVERED" ? "it has already shipped; returns go through support" : `it is already ${order.status}`;
    throw new ConflictError(`This order cannot be cancelled: ${why}.`, { status: order.status, allowedFrom: ["PENDING", "CONFIRMED", "PROCESSING"] });
  });
}

/**
 * Records a refund the provider made: REFUNDED payment with its id; for an order refunded before it shipped
 * (not cancelled) also the units back and the untouched tags withdrawn. The invoice is marked refunded.
 */
async function recordRefund(ctx: ServiceContext, order: Order, refundId: string, now: Date, toStatus: "REFUNDED" | "CANCELLED"): Promise<{ order: Order; tagText: string }> {
  let withdrawn = order.tagsWithdrawn;
  if (toStatus === "REFUNDED" && (order.status === "CONFIRMED" || order.status === "PROCESSING")) {
    const items = (await orderItemsOf(ctx.db, [order.id])).get(order.id) ?? [];
    await restock(ctx.db, items);
    withdrawn += await withdrawUnusedOrderTags(ctx.db, order);
  }
  const [updated] = await ctx.db
    .update(schema.orders)
    .set({ status: toStatus, paymentStatus: "REFUNDED", refundId, refundedMinor: order.totalMinor, refundedAt: now, tagsWithdrawn: withdrawn })
    .where(eq(schema.orders.id, order.id))
    .returning();
  await ctx.db.update(schema.invoices).set({ status: "refunded" }).where(eq(schema.invoices.orderId, order.id));
  const tagText = describeTagOutcome({ withdrawn, kept: await countOrderTags(ctx.db, order.id), shipped: order.shippedAt !== null });
  return { order: updated!, tagText };
}

/**
 * POST /orders/:id/refund (admin): a paid order not yet refunded (CONFIRMED, PROCESSING, SHIPPED or
 * DELIVERED) → REFUNDED, paymentStatus REFUNDED, refundId. Anything else is 409. The provider is called
 * between two transactions with the order's one refund key, so a retry never refunds twice.
 */
export async function refundOrder(ctx: ServiceContext, orderId: string, now = new Date()): Promise<RefundOrderResult> {
  requireAdmin(ctx);
  const refusal = (order: Order) =>
    new ConflictError(
      order.paymentStatus === "REFUNDED" || order.status === "REFUNDED" ? "This order was already refunded." : `A ${order.status} order with payment ${order.paymentStatus} cannot be refunded.`,
      { status: order.status, paymentStatus: order.paymentStatus, allowedFrom: REFUNDABLE },
    );
  const [order] = await ctx.db.select().from(schema.orders).where(eq(schema.orders.id, orderId));
  if (!order) throw new NotFoundError(ORDER_NOT_FOUND);
  if (!REFUNDABLE.includes(order.status) || order.paymentStatus !== "COMPLETED" || !order.paymentIntentId) throw refusal(order);
  const refund = await paymentProvider().refund({ paymentIntentId: order.paymentIntentId, idempotencyKey: refundKey(order.id) });
  return withTransaction(ctx, async (tx) => {
    const current = (await lockOrder(tx.db, order.id))!;
    if (current.status === "REFUNDED" && current.refundId === refund.id) return { id: current.id, status: "REFUNDED", paymentStatus: "REFUNDED", refundId: refund.id };
    if (!REFUNDABLE.includes(current.status) || current.paymentStatus !== "COMPLETED") throw refusal(current);
    const { order: refunded, tagText } = await recordRefund(tx, current, refund.id, now, "REFUNDED");
    await recordAudit(tx, { action: "order.refund", entityType: "order", entityId: current.id, before: orderAuditFields(current), after: orderAuditFields(refunded) });
    await tellBuyer(tx, current, "REFUNDED", `Order ${orderReference(current.id)} refunded`, `We refunded ${formatMoney(current.totalMinor, current.currency)} to your payment method.${tagText ? ` ${tagText}` : ""}`);
    return { id: current.id, status: "REFUNDED", paymentStatus: "REFUNDED", refundId: refund.id };
  });
}

/**
 * The `orders.refund` job: the refund a cancellation (or a payment that came in for an order already
 * cancelled) started. Idempotent: only an order whose payment is PROCESSING is refunded, with the
 * order's one refund key.
 */
export async function completeOrderRefund(ctx: ServiceContext, orderId: string, now = new Date()): Promise<"refunded" | "nothing-to-do"> {
  const [order] = await ctx.db.select().from(schema.orders).where(eq(schema.orders.id, orderId));
  // paidAt unset: a payment still in flight when the order was cancelled; nothing to refund unless it completes.
  if (!order || order.paymentStatus !== "PROCESSING" || order.status !== "CANCELLED" || !order.paymentIntentId || !order.paidAt) return "nothing-to-do";
  const refund = await paymentProvider().refund({ paymentIntentId: order.paymentIntentId, idempotencyKey: refundKey(order.id) });
  return withTransaction(ctx, async (tx) => {
    const current = (await lockOrder(tx.db, order.id))!;
    if (current.paymentStatus !== "PROCESSING" || current.status !== "CANCELLED" || !current.paidAt) return "nothing-to-do";
    const { order: refunded, tagText } = await recordRefund(tx, current, refund.id, now, "CANCELLED");
    // A payment that completed after the cancellation was recorded in the order's history when it arrived.
    const [lateEntry] = await tx.db
      .select({ id: schema.auditLog.id })
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.entityType, "order"), eq(schema.auditLog.entityId, current.id), eq(schema.auditLog.action, LATE_PAYMENT_ACTION)))
      .limit(1);
    const late = lateEntry !== undefined;
    await recordSystemAudit(tx, {
      actor: "system: refund job",
      action: "order.refund",
      entityType: "order",
      entityId: current.id,
      before: orderAuditFields(current),
      after: { ...orderAuditFields(refunded), note: late ? "The payment that completed after the cancellation was refunded." : "The cancelled order's payment was refunded." },
    });
    const amount = formatMoney(current.totalMinor, current.currency);
    const body = late
      ? `The payment of ${amount} that arrived after this order was cancelled was refunded to your payment method. The order stays cancelled.`
      : `We refunded ${amount} to your payment method.${tagText ? ` ${tagText}` : ""}`;
    await tellBuyer(tx, current, "CANCELLED", `Refund for order ${orderReference(current.id)} completed`, body);
    return "refunded";
  });
}

/** GET /admin/orders: every order, newest first; `status` narrows it. */
/** GET /admin/orders: every order, newest first, by page or by cursor (index orders_created_id_idx, or orders_status_created_id_idx filtered). */
export async function listAdminOrders(ctx: ServiceContext, input: PageRequest & { status?: OrderStatus }): Promise<Page<AdminOrderRecord>> {
  requireAdmin(ctx);
  const where: SQL | undefined = input.status ? eq(schema.orders.status, input.status) : undefined;
  const plan = keysetPage(adminOrderList, [input.status ?? null], input);
  const [rows, total] = await Promise.all([
    ctx.db
      .select({ order: schema.orders, email: schema.users.email })
      .from(schema.orders)
      .innerJoin(schema.users, eq(schema.users.id, schema.orders.userId))
      .where(and(where, plan.where))
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    boundedTotal(ctx.db, ctx.db.select({ one: sql`1` }).from(schema.orders).where(where)),
  ]);
  const shown = rows.slice(0, input.limit);
  const records = await orderRecords(
    ctx.db,
    shown.map((row) => row.order),
  );
  return plan.finish(rows, (row, index) => ({ ...records[index]!, userId: row.order.userId, userEmail: row.email }), total);
}

/**
 * PATCH /admin/orders/:id/status: CONFIRMED → PROCESSING, CONFIRMED or PROCESSING → SHIPPED (with a tracking
 * number, 400 without; the shipping e-mail goes out), SHIPPED → DELIVERED. Any other move is 409.
 */
export async function setOrderStatus(ctx: ServiceContext, orderId: string, input: AdminOrderStatusInput, now = new Date()): Promise<AdminOrderRecord> {
  requireAdmin(ctx);
  if (input.status === "SHIPPED" && !input.trackingNumber) throw ValidationError.field("trackingNumber", "A tracking number is required to mark an order SHIPPED.");
  return withTransaction(ctx, async (tx) => {
    const order = await lockOrder(tx.db, orderId);
    if (!order) throw new NotFoundError(ORDER_NOT_FOUND);
    const allowedFrom = adminOrderMoves[input.status];
    if (!allowedFrom.includes(order.status)) {
      throw new ConflictError(`A ${order.status} order cannot be moved to ${input.status}.`, { status: order.status, allowedFrom });
    }
    const changes: Partial<Order> = { status: input.status };
    if (input.status === "SHIPPED") Object.assign(changes, { shippedAt: now, trackingNumber: input.trackingNumber, carrier: input.carrier ?? null });
    if (input.status === "DELIVERED") changes.deliveredAt = now;
    const [updated] = await tx.db.update(schema.orders).set(changes).where(eq(schema.orders.id, order.id)).returning();
    await recordAudit(tx, { action: "order.status", entityType: "order", entityId: order.id, before: orderAuditFields(order), after: orderAuditFields(updated!) });
    const reference = orderReference(order.id);
    const buyer = await getUserById(tx.db, order.userId);
    if (input.status === "SHIPPED") {
      await queueEmail(tx, {
        to: buyer.email,
        subject: `Order ${reference} has shipped`,
        templateName: "orders.shipped",
        template: createElement(OrderShippedEmail, { firstName: buyer.firstName, reference, orderId: order.id, trackingNumber: input.trackingNumber!, carrier: input.carrier ?? null }),
      });
      await tellBuyer(tx, order, "SHIPPED", `Order ${reference} shipped`, `Tracking number ${input.trackingNumber}${input.carrier ? ` (${input.carrier})` : ""}.`, false);
    } else if (input.status === "PROCESSING") {
      await tellBuyer(tx, order, "PROCESSING", `Order ${reference} is being prepared`, "We are printing and packing your order.");
    } else {
      await tellBuyer(tx, order, "DELIVERED", `Order ${reference} delivered`, "Your order was delivered. Set up your new tags from your dashboard.");
    }
    const record = await orderRecord(tx.db, updated!);
    return { ...record, userId: order.userId, userEmail: buyer.email };
  });
}
