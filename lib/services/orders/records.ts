import type { Order, OrderItem, Product, ProductVariant } from "@/db/schema";
import { env } from "@/lib/env";
import type { AdminProductRecord, OrderRecord, ProductRecord } from "./schemas";

/** Money: integer minor units in the database, a number in major units in the API (decisions.md). */
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
