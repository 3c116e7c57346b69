import type { Order, OrderItem, Product, ProductVariant } from "@/db/schema";
import { env } from "@/lib/env";
import type { AdminProductRecord, OrderRecord, ProductRecord } from "./schemas";

/** Money: integer minor units in the database, a number in major units in the API (docs/decisions/0007-money.md). */
export const toMinor = (amount: number) => Math.round(amount * 100);
export const toMajor = (minor: number) => minor / 100;
const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function appBaseUrl(): string {
  return env.APP_URL.replace(/\/+$/, "");
}

/** An image as stored (an app path or an https URL) as the API answers it: absolute, on APP_URL for app paths. */
export function absoluteImageUrl(ref: string): string {
  return ref.startsWith("/") ? `${appBaseUrl()}${ref}` : ref;
}

/** "12.50 USD" style, for e-mails, notifications and the invoice. */
export function formatMoney(minor: number, currency: string): string {
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(minor / 100);
  } catch {
    return `${(minor / 100).toFixed(2)} ${currency}`;
  }
}

export function toProductRecord(product: Product, variants: ProductVariant[]): ProductRecord {
  return {
    id: product.id,
    name: product.name,
    slug: product.slug,
    description: product.description,
    price: toMajor(product.priceMinor),
    currency: product.currency,
    images: product.images.map(absoluteImageUrl),
    variants: variants.map((variant) => ({ id: variant.id, name: variant.name, price: toMajor(variant.priceMinor), image: variant.image ? absoluteImageUrl(variant.image) : null })),
    inStock: product.stock - product.reserved > 0,
    tagPack: product.tagPack,
    tagType: product.tagType,
  };
}

export function toAdminProductRecord(product: Product, variants: ProductVariant[]): AdminProductRecord {
  return {
    ...toProductRecord(product, variants),
    stock: product.stock,
    reserved: product.reserved,
    active: product.active,
    sortOrder: product.sortOrder,
    createdAt: product.createdAt.toISOString(),
    updatedAt: product.updatedAt.toISOString(),
  };
}

export function toOrderRecord(order: Order, items: OrderItem[], tagIdsByItem: Map<string, string[]> = new Map()): OrderRecord {
  return {
    id: order.id,
    status: order.status,
    paymentStatus: order.paymentStatus,
    total: toMajor(order.totalMinor),
    currency: order.currency,
    items: items.map((item) => ({
      id: item.id,
      productId: item.productId,
      name: item.name,
      quantity: item.quantity,
      price: toMajor(item.unitPriceMinor),
      variant: item.variantName,
      variantId: item.variantId,
      tagPack: item.tagPack,
      tagIds: tagIdsByItem.get(item.id) ?? [],
    })),
    shippingAddress: order.shippingAddress ?? null,
    paymentSessionId: order.paymentSessionId,
    paymentError: order.paymentError,
    trackingNumber: order.trackingNumber,
    carrier: order.carrier,
    refundId: order.refundId,
    tagsWithdrawn: order.tagsWithdrawn,
    paidAt: iso(order.paidAt),
    shippedAt: iso(order.shippedAt),
    deliveredAt: iso(order.deliveredAt),
    cancelledAt: iso(order.cancelledAt),
    refundedAt: iso(order.refundedAt),
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
  };
}

/** "Order 5B8C8F0E": the short reference people read in e-mails and on the invoice. */
export function orderReference(orderId: string): string {
  return orderId.slice(0, 8).toUpperCase();
}

const tagsWord = (n: number) => (n === 1 ? "1 tag" : `${n} tags`);

/**
 * What a cancellation or full refund did to the tags the order added, in the words of the refund e-mail and
 * the order page: untouched tags are withdrawn; tags already set up stay with the buyer and keep working
 * (someone's keys or pet may depend on them), and so does every tag of an order that had already shipped
 * (the buyer holds the printed tags; nothing is withdrawn then). Empty when the order added no tags.
 */
export function describeTagOutcome(outcome: { withdrawn: number; kept: number; shipped: boolean }): string {
  const parts: string[] = [];
  if (outcome.withdrawn > 0) parts.push(`${tagsWord(outcome.withdrawn)} from this order that ${outcome.withdrawn === 1 ? "was" : "were"} not set up yet ${outcome.withdrawn === 1 ? "was" : "were"} withdrawn from your account.`);
  if (outcome.kept > 0) {
    const stay = outcome.kept === 1 ? "stays in your account and keeps" : "stay in your account and keep";
    parts.push(
      outcome.shipped
        ? `The ${tagsWord(outcome.kept)} from this order ${stay} working: the order had already shipped.`
        : `${tagsWord(outcome.kept)} you had already set up ${stay} working.`,
    );
  }
  return parts.join(" ");
}
