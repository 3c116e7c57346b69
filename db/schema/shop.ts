import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { tags, tagType } from "./tags";
import { subscriptionTier, users } from "./users";

const ts = () => timestamp({ withTimezone: true, precision: 3 });
const timestamps = {
  createdAt: ts().notNull().defaultNow(),
  updatedAt: ts()
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

/**
 * The catalogue (docs/decisions/0024-orders.md). Money in integer minor units, one
 * currency per product. `stock` is what is on the shelf; `reserved` is held by unpaid orders, so what
 * can still be ordered is `stock - reserved` (checked and taken in one conditional UPDATE). A product
 * with `tagPack` > 0 is tags: each unit bought mints that many tags for the buyer.
 */
export const products = pgTable(
  "products",
  {
    id: uuid().primaryKey().defaultRandom(),
    slug: text().notNull(),
    name: text().notNull(),
    description: text().notNull().default(""),
    priceMinor: integer().notNull(),
    currency: text().notNull().default("USD"),
    images: jsonb().$type<string[]>().notNull().default([]),
    stock: integer().notNull().default(0),
    reserved: integer().notNull().default(0),
    tagPack: integer().notNull().default(0),
    /** The type the minted tags start with (the owner may change it when setting the tag up). */
    tagType: tagType().notNull().default("GENERAL"),
    active: boolean().notNull().default(true),
    sortOrder: integer().notNull().default(0),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("products_slug_key").on(table.slug),
    index("products_active_sort_idx").on(table.active, table.sortOrder),
    check(
      "products_stock_covers_reserved",
      sql`${table.reserved} >= 0 and ${table.reserved} <= ${table.stock}`,
    ),
    check("products_price_positive", sql`${table.priceMinor} > 0`),
  ],
);

/** A variant (a colour, a size) with its own price; stock is the product's. */
export const productVariants = pgTable(
  "product_variants",
  {
    id: uuid().primaryKey().defaultRandom(),
    productId: uuid()
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    name: text().notNull(),
    priceMinor: integer().notNull(),
    /** A picture of this variant, shown first when it is chosen. */
    image: text(),
    sortOrder: integer().notNull().default(0),
    ...timestamps,
  },
  (table) => [
    index("product_variants_product_idx").on(table.productId, table.sortOrder),
    check("product_variants_price_positive", sql`${table.priceMinor} > 0`),
  ],
);

export const orderStatus = pgEnum("order_status", [
  "PENDING",
  "CONFIRMED",
  "PROCESSING",
  "SHIPPED",
  "DELIVERED",
  "CANCELLED",
  "REFUNDED",
]);
export const paymentStatus = pgEnum("payment_status", [
  "PENDING",
  "PROCESSING",
  "COMPLETED",
  "FAILED",
  "REFUNDED",
  "PARTIALLY_REFUNDED",
]);

export interface ShippingAddress {
  /** The recipient; absent on orders placed before it was asked for, and optional through the API. */
  name?: string | null;
  line1: string;
  line2?: string | null;
  city: string;
  state?: string | null;
  postalCode: string;
  country: string;
}

/**
 * An order. Totals are computed by the server (sum of unit price × quantity; no shipping, no tax line).
 * `paymentSessionId` is the provider's checkout session; `paymentIntentId` and `customerId` arrive with
 * its events. Status and payment status move only through the orders service's transition rules.
 */
export const orders = pgTable(
  "orders",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: orderStatus().notNull().default("PENDING"),
    paymentStatus: paymentStatus().notNull().default("PENDING"),
    /** bigint: 20 lines × 100 units × the price cap can pass 2^31 minor units (int4 would overflow). */
    totalMinor: bigint({ mode: "number" }).notNull(),
    currency: text().notNull(),
    shippingAddress: jsonb().$type<ShippingAddress>(),
    paymentSessionId: text(),
    paymentIntentId: text(),
    refundId: text(),
    refundedMinor: bigint({ mode: "number" }).notNull().default(0),
    /** How many of the order's tags a cancellation or refund withdrew (untouched ones); the others stayed with the buyer. */
    tagsWithdrawn: integer().notNull().default(0),
    trackingNumber: text(),
    carrier: text(),
    /** The last payment failure the provider reported, shown to the buyer. */
    paymentError: text(),
    /** Stock reserved for this order until it is paid, cancelled or expires. */
    reservationReleasedAt: ts(),
    paidAt: ts(),
    shippedAt: ts(),
    deliveredAt: ts(),
    cancelledAt: ts(),
    refundedAt: ts(),
    ...timestamps,
  },
  (table) => [
    index("orders_user_created_id_idx").on(table.userId, table.createdAt, table.id),
    index("orders_status_created_id_idx").on(table.status, table.createdAt, table.id),
    // Admin analytics: orders and revenue per day.
    index("orders_created_id_idx").on(table.createdAt, table.id),
    index("orders_paid_idx").on(table.paidAt),
    uniqueIndex("orders_payment_session_key").on(table.paymentSessionId),
    index("orders_payment_intent_idx").on(table.paymentIntentId),
  ],
);

/** A line of an order, with the name and price as they were when it was placed. */
export const orderItems = pgTable(
  "order_items",
  {
    id: uuid().primaryKey().defaultRandom(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    productId: uuid()
      .notNull()
      .references(() => products.id, { onDelete: "restrict" }),
    variantId: uuid().references(() => productVariants.id, {
      onDelete: "set null",
    }),
    name: text().notNull(),
    variantName: text(),
    quantity: integer().notNull(),
    unitPriceMinor: bigint({ mode: "number" }).notNull(),
    tagPack: integer().notNull().default(0),
    /** Set in the transaction that minted this line's tags, so a repeated event mints none. */
    tagsMintedAt: ts(),
  },
  (table) => [
    index("order_items_order_idx").on(table.orderId),
    check(
      "order_items_quantity_range",
      sql`${table.quantity} between 1 and 100`,
    ),
  ],
);

/** The tags an order line minted for its buyer. */
export const orderTags = pgTable(
  "order_tags",
  {
    orderItemId: uuid()
      .notNull()
      .references(() => orderItems.id, { onDelete: "cascade" }),
    tagId: uuid()
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
  },
  (table) => [
    primaryKey({ columns: [table.orderItemId, table.tagId] }),
    index("order_tags_tag_idx").on(table.tagId),
  ],
);

export const subscriptionStatus = pgEnum("subscription_status", [
  "INCOMPLETE",
  "ACTIVE",
  "PAST_DUE",
  "CANCELED",
  "UNPAID",
]);

/**
 * A user's subscription at the payment provider (one per user). `providerUpdatedAt` is the provider's
 * own time of the state stored here, so an older event delivered late never overwrites a newer one.
 */
export const subscriptions = pgTable(
  "subscriptions",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    providerSubscriptionId: text(),
    tier: subscriptionTier().notNull(),
    status: subscriptionStatus().notNull(),
    currentPeriodEnd: ts(),
    cancelAtPeriodEnd: boolean().notNull().default(false),
    providerUpdatedAt: ts(),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("subscriptions_user_key").on(table.userId),
    uniqueIndex("subscriptions_provider_key").on(table.providerSubscriptionId),
  ],
);

/** The provider's customer id for a user (set by the first checkout), by which subscription events find the user. */
export const paymentCustomers = pgTable(
  "payment_customers",
  {
    userId: uuid()
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    providerCustomerId: text().notNull(),
    createdAt: ts().notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("payment_customers_provider_key").on(table.providerCustomerId),
  ],
);

/** Money that changed hands: an order's payment or a subscription period, for the billing page. */
export const invoices = pgTable(
  "invoices",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    orderId: uuid().references(() => orders.id, { onDelete: "set null" }),
    /** The provider's id of what this invoice is for (a payment intent or a subscription invoice): one invoice each. */
    providerRef: text().notNull(),
    amountMinor: bigint({ mode: "number" }).notNull(),
    currency: text().notNull(),
    status: text().notNull(),
    description: text().notNull(),
    issuedAt: ts().notNull().defaultNow(),
  },
  (table) => [
    index("invoices_user_issued_idx").on(table.userId, table.issuedAt),
    uniqueIndex("invoices_provider_ref_key").on(table.providerRef),
  ],
);

export const paymentEventStatus = pgEnum("payment_event_status", [
  "RECEIVED",
  "PROCESSED",
  "FAILED",
  "IGNORED",
]);

/**
 * The webhook inbox: every signed event, stored by the provider's event id in the same transaction that
 * enqueues its processing job, before the 200. A repeat delivery finds the row and changes nothing.
 */
export const paymentEvents = pgTable(
  "payment_events",
  {
    id: text().primaryKey(),
    type: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    status: paymentEventStatus().notNull().default("RECEIVED"),
    attempts: integer().notNull().default(0),
    lastError: text(),
    /** The provider's `created` time of the event (seconds in the payload), for ordering. */
    providerCreatedAt: ts(),
    receivedAt: ts().notNull().defaultNow(),
    processedAt: ts(),
  },
  (table) => [
    index("payment_events_status_received_id_idx").on(table.status, table.receivedAt, table.id),
    index("payment_events_received_id_idx").on(table.receivedAt, table.id),
  ],
);

/**
 * Stored answers for `Idempotency-Key` (Stripe's semantics): per caller and key, the request's hash and,
 * once finished, its answer, kept for 24 hours. A row without `completedAt` is a request still running.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    caller: text().notNull(),
    key: text().notNull(),
    method: text().notNull(),
    path: text().notNull(),
    requestHash: text().notNull(),
    responseStatus: integer(),
    responseHeaders: jsonb().$type<Record<string, string>>(),
    responseBody: text(),
    createdAt: ts().notNull().defaultNow(),
    completedAt: ts(),
    expiresAt: ts().notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.caller, table.key] }),
    index("idempotency_keys_expires_idx").on(table.expiresAt),
  ],
);

/**
 * The built-in test payment provider's own records: what a real provider keeps on its side (sessions,
 * payment intents, subscriptions, refunds). The app reads none of it; only the test provider's hosted
 * page and adapter do, so the app sees this provider exactly as it sees Stripe: through events.
 */
export const testProviderSessions = pgTable(
  "test_provider_sessions",
  {
    id: text().primaryKey(),
    /** payment | subscription */
    mode: text().notNull(),
    status: text().notNull().default("open"),
    amountMinor: bigint({ mode: "number" }).notNull(),
    currency: text().notNull(),
    customerId: text().notNull(),
    description: text().notNull(),
    metadata: jsonb().$type<Record<string, string>>().notNull().default({}),
    successUrl: text().notNull(),
    cancelUrl: text().notNull(),
    paymentIntentId: text(),
    subscriptionId: text(),
    /** The caller's Idempotency-Key for the session: a retried create answers the same session. */
    idempotencyKey: text(),
    /** The refund made of this session's payment (one per payment, as the shop refunds whole orders). */
    refundId: text(),
    refundedMinor: bigint({ mode: "number" }),
    refundedAt: ts(),
    createdAt: ts().notNull().defaultNow(),
    completedAt: ts(),
  },
  (table) => [
    uniqueIndex("test_provider_sessions_idempotency_key").on(
      table.idempotencyKey,
    ),
    index("test_provider_sessions_payment_intent_idx").on(
      table.paymentIntentId,
    ),
    index("test_provider_sessions_subscription_idx").on(table.subscriptionId),
  ],
);

export type Product = typeof products.$inferSelect;
export type ProductVariant = typeof productVariants.$inferSelect;
export type Order = typeof orders.$inferSelect;
export type OrderItem = typeof orderItems.$inferSelect;
export type Subscription = typeof subscriptions.$inferSelect;
export type Invoice = typeof invoices.$inferSelect;
export type PaymentEvent = typeof paymentEvents.$inferSelect;
export type IdempotencyKey = typeof idempotencyKeys.$inferSelect;
export type TestProviderSession = typeof testProviderSessions.$inferSelect;
