import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import type { Order, OrderItem, Product, ProductVariant } from "@/db/schema";
import { toOrderRecord } from "./records";
import type { OrderRecord } from "./schemas";

/**
 * The orders domain's building blocks on a bare handle (or the caller's transaction): stock moves,
 * order locks and the lines' tags. Stock is only ever moved by conditional UPDATEs, so concurrent
 * orders cannot oversell: `stock - reserved` is what can still be ordered.
 */

/** Quantity per product of an order's lines, in product id order (so concurrent writers lock rows in one order). */
export function quantitiesByProduct(items: Pick<OrderItem, "productId" | "quantity">[]): [string, number][] {
  const totals = new Map<string, number>();
  for (const item of items) totals.set(item.productId, (totals.get(item.productId) ?? 0) + item.quantity);
  return [...totals.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Holds `quantity` units for an unpaid order when that many are free; false (nothing changed) otherwise. */
export async function reserveStock(db: Executor, productId: string, quantity: number): Promise<boolean> {
  const rows = await db
    .update(schema.products)
    .set({ reserved: sql`${schema.products.reserved} + ${quantity}` })
    .where(and(eq(schema.products.id, productId), sql`${schema.products.stock} - ${schema.products.reserved} >= ${quantity}`))
    .returning({ id: schema.products.id });
  return rows.length === 1;
}

/** Gives an unpaid order's held units back (cancelled before payment). Once per order: reservationReleasedAt. */
export async function releaseReservation(db: Executor, order: Order, items: OrderItem[], now: Date): Promise<void> {
  if (order.reservationReleasedAt) return;
  for (const [productId, quantity] of quantitiesByProduct(items)) {
    await db
      .update(schema.products)
      .set({ reserved: sql`greatest(${schema.products.reserved} - ${quantity}, 0)` })
      .where(eq(schema.products.id, productId));
  }
  await db.update(schema.orders).set({ reservationReleasedAt: now }).where(eq(schema.orders.id, order.id));
}

/** Payment arrived: the held units leave the shelf (stock and reservation both go down). Once per order. */
export async function consumeReservation(db: Executor, order: Order, items: OrderItem[], now: Date): Promise<void> {
  if (order.reservationReleasedAt) return;
  for (const [productId, quantity] of quantitiesByProduct(items)) {
    await db
      .update(schema.products)
      .set({ stock: sql`greatest(${schema.products.stock} - ${quantity}, 0)`, reserved: sql`greatest(${schema.products.reserved} - ${quantity}, 0)` })
      .where(eq(schema.products.id, productId));
  }
  await db.update(schema.orders).set({ reservationReleasedAt: now }).where(eq(schema.orders.id, order.id));
}

/** A paid order cancelled or refunded before it shipped: its units go back on the shelf. */
export async function restock(db: Executor, items: OrderItem[]): Promise<void> {
  for (const [productId, quantity] of quantitiesByProduct(items)) {
    await db
      .update(schema.products)
      .set({ stock: sql`${schema.products.stock} + ${quantity}` })
      .where(eq(schema.products.id, productId));
  }
}

/**
 * The tags a cancelled or refunded (unshipped) order minted leave the buyer's account while they are still
 * untouched (PENDING_SETUP): they will never be printed. Tags the buyer already set up stay theirs.
 */
export async function withdrawUnusedOrderTags(db: Executor, order: Order): Promise<number> {
  const rows = await db
    .select({ tagId: schema.orderTags.tagId })
    .from(schema.orderTags)
    .innerJoin(schema.orderItems, eq(schema.orderItems.id, schema.orderTags.orderItemId))
    .where(eq(schema.orderItems.orderId, order.id));
  if (!rows.length) return 0;
  const removed = await db
    .delete(schema.tags)
    .where(and(inArray(schema.tags.id, rows.map((row) => row.tagId)), eq(schema.tags.ownerId, order.userId), eq(schema.tags.status, "PENDING_SETUP")))
    .returning({ id: schema.tags.id });
  return removed.length;
}

export async function lockOrder(db: Executor, orderId: string): Promise<Order | undefined> {
  const [order] = await db.select().from(schema.orders).where(eq(schema.orders.id, orderId)).for("update");
  return order;
}

export async function orderItemsOf(db: Executor, orderIds: string[]): Promise<Map<string, OrderItem[]>> {
  const byOrder = new Map<string, OrderItem[]>();
  if (!orderIds.length) return byOrder;
  const rows = await db.select().from(schema.orderItems).where(inArray(schema.orderItems.orderId, orderIds)).orderBy(asc(schema.orderItems.name), asc(schema.orderItems.id));
  for (const row of rows) (byOrder.get(row.orderId) ?? byOrder.set(row.orderId, []).get(row.orderId)!).push(row);
  return byOrder;
}

export async function tagIdsByItem(db: Executor, itemIds: string[]): Promise<Map<string, string[]>> {
  const byItem = new Map<string, string[]>();
  if (!itemIds.length) return byItem;
  const rows = await db.select().from(schema.orderTags).where(inArray(schema.orderTags.orderItemId, itemIds)).orderBy(asc(schema.orderTags.tagId));
  for (const row of rows) (byItem.get(row.orderItemId) ?? byItem.set(row.orderItemId, []).get(row.orderItemId)!).push(row.tagId);
  return byItem;
}

/** The lines of an order whose tags were not minted yet. */
export async function unmintedItems(db: Executor, orderId: string): Promise<OrderItem[]> {
  return db
    .select()
    .from(schema.orderItems)
    .where(and(eq(schema.orderItems.orderId, orderId), isNull(schema.orderItems.tagsMintedAt)));
}

/** How many tags the order's lines still hold (withdrawn ones are gone with their links). */
export async function countOrderTags(db: Executor, orderId: string): Promise<number> {
  const rows = await db
    .select({ tagId: schema.orderTags.tagId })
    .from(schema.orderTags)
    .innerJoin(schema.orderItems, eq(schema.orderItems.id, schema.orderTags.orderItemId))
    .where(eq(schema.orderItems.orderId, orderId));
  return rows.length;
}

/** Each product's variants, in the shop's order (sort order, then age), keyed by product id. */
export async function variantsOf(db: Executor, productIds: string[]): Promise<Map<string, ProductVariant[]>> {
  const byProduct = new Map<string, ProductVariant[]>();
  if (!productIds.length) return byProduct;
  const rows = await db
    .select()
    .from(schema.productVariants)
    .where(inArray(schema.productVariants.productId, productIds))
    .orderBy(asc(schema.productVariants.sortOrder), asc(schema.productVariants.createdAt), asc(schema.productVariants.id));
  for (const row of rows) (byProduct.get(row.productId) ?? byProduct.set(row.productId, []).get(row.productId)!).push(row);
  return byProduct;
}

/** Orders as their API records, with their lines and each line's tags (two queries for any number of orders). */
export async function orderRecords(db: Executor, orders: Order[]): Promise<OrderRecord[]> {
  const items = await orderItemsOf(db, orders.map((order) => order.id));
  const tags = await tagIdsByItem(db, [...items.values()].flat().map((item) => item.id));
  return orders.map((order) => toOrderRecord(order, items.get(order.id) ?? [], tags));
}

export async function orderRecord(db: Executor, order: Order): Promise<OrderRecord> {
  return (await orderRecords(db, [order]))[0]!;
}

/** Links the provider's customer id to our user (first link wins; a customer id is one user's only). */
export async function linkPaymentCustomer(db: Executor, userId: string, customerId: string): Promise<void> {
  const [user] = await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.id, userId));
  if (!user) return;
  await db.insert(schema.paymentCustomers).values({ userId, providerCustomerId: customerId }).onConflictDoNothing();
}

/**
 * A product and its variants, in their order: the admin's new product and the starter catalogue's.
 * `ifSlugFree` adds nothing when the slug is taken (undefined); otherwise the unique index refuses it.
 */
export async function insertProduct(
  db: Executor,
  values: typeof schema.products.$inferInsert,
  variants: { name: string; priceMinor: number; image: string | null }[],
  options: { ifSlugFree?: boolean } = {},
): Promise<{ product: Product; variants: ProductVariant[] } | undefined> {
  const insert = db.insert(schema.products).values(values);
  const [product] = await (options.ifSlugFree ? insert.onConflictDoNothing({ target: schema.products.slug }) : insert).returning();
  if (!product) return undefined;
  const rows = variants.length
    ? await db
        .insert(schema.productVariants)
        .values(variants.map((variant, index) => ({ productId: product.id, ...variant, sortOrder: index })))
        .returning()
    : [];
  return { product, variants: rows };
}
