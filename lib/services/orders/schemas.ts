import { z } from "zod";
import { orderStatus, paymentStatus, tagType } from "@/db/schema";

export const ORDER_STATUSES = orderStatus.enumValues;
export const PAYMENT_STATUSES = paymentStatus.enumValues;
export const MAX_PRICE = 100_000;
export const MAX_QUANTITY = 100;
export const MAX_ORDER_LINES = 20;
export const MAX_PRODUCT_IMAGES = 10;
export const MAX_VARIANTS = 20;
export const MAX_TAG_PACK = 100;
export const MAX_STOCK = 1_000_000;
/** An order still unpaid this long after it was placed is cancelled and its reserved units released (orders.expire-abandoned). */
export const ABANDONED_ORDER_HOURS = 24;

const isCents = (value: number) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6;

/** A price in major units: > 0, ≤ 100 000, at most two decimals (stored as integer minor units). */
const price = () =>
  z
    .number()
    .positive()
    .max(MAX_PRICE)
    .refine(isCents, "At most two decimal places.")
    .meta({ description: "Price in major units (at most two decimals)", example: 14.99 });

const currency = () =>
  z
    .string()
    .regex(/^[A-Za-z]{3}$/, "An ISO 4217 code of three letters.")
    .transform((code) => code.toUpperCase())
    .meta({ description: "ISO 4217 currency code (answered upper case)", example: "USD" });

const slug = () =>
  z
    .string()
    .min(1)
    .max(100)
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Lower-case letters, digits and single hyphens.")
    .meta({ description: "URL name of the product, unique", example: "pet-collar-tag" });

/** An image: a path served by the app (`/products/…`) or an https URL. */
const imageRef = () =>
  z
    .string()
    .max(500)
    .refine((value) => (value.startsWith("/") && !value.startsWith("//") && !value.includes("\\")) || /^https:\/\/[^\s]+$/.test(value), "An app path starting with / or an https URL.")
    .meta({ description: "An app path (`/products/qr-tag.svg`, answered as an absolute URL on APP_URL) or an https URL", example: "/products/qr-tag.svg" });

export const productSlugParams = z.object({ slug: z.string().min(1).max(100).regex(/^[a-z0-9-]+$/).meta({ description: "The product's slug", example: "pet-collar-tag" }) });

export const productVariantSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  price: z.number(),
  image: z.url().nullable().meta({ description: "A picture of this variant (absolute URL), when it has its own" }),
});

export const productSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    slug: z.string(),
    description: z.string(),
    price: z.number().meta({ description: "Price in major units (variants carry their own)" }),
    currency: z.string(),
    images: z.array(z.url()).meta({ description: "Absolute URLs of the product's pictures" }),
    variants: z.array(productVariantSchema),
    inStock: z.boolean().meta({ description: "Whether at least one unit can be ordered now (stock not held by unpaid orders)" }),
    tagPack: z.number().int().meta({ description: "Tags each unit adds to the buyer's account once paid (0: not a tag product)" }),
    tagType: z.enum(tagType.enumValues).meta({ description: "The type the bought tags start with" }),
  })
  .meta({
    id: "Product",
    example: {
      id: "5b8c8f0e-2f55-4a0d-9d3b-2f4f9a3e6c11",
      name: "Pet collar tag",
      slug: "pet-collar-tag",
      description: "A tough QR tag for a collar.",
      price: 14.99,
      currency: "USD",
      images: ["http://localhost:3000/products/pet-collar-tag.svg"],
      variants: [{ id: "0b5c3a52-9a7e-4a8e-8d0f-4d7f3e2a1b90", name: "Blue", price: 14.99, image: "http://localhost:3000/products/pet-collar-tag-blue.svg" }],
      inStock: true,
      tagPack: 1,
      tagType: "PET",
    },
  });
export type ProductRecord = z.infer<typeof productSchema>;

export const adminProductSchema = productSchema.extend({
  stock: z.number().int().meta({ description: "Units on the shelf" }),
  reserved: z.number().int().meta({ description: "Units held by unpaid orders" }),
  active: z.boolean(),
  sortOrder: z.number().int(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
}).meta({ id: "AdminProduct" });
export type AdminProductRecord = z.infer<typeof adminProductSchema>;

const variantInput = z.object({
  id: z.uuid().optional().meta({ description: "An existing variant to keep (PATCH); absent: a new variant" }),
  name: z.string().trim().min(1).max(100),
  price: price(),
  image: imageRef().nullish(),
});

export const createProductInput = z.object({
  name: z.string().trim().min(1).max(100).meta({ example: "Pet collar tag" }),
  slug: slug().optional().meta({ description: "Derived from the name when absent; unique (409)" }),
  description: z.string().trim().max(2000).default(""),
  price: price(),
  currency: currency().default("USD"),
  images: z.array(imageRef()).max(MAX_PRODUCT_IMAGES).default([]),
  variants: z.array(variantInput.omit({ id: true })).max(MAX_VARIANTS).default([]),
  stock: z.number().int().min(0).max(MAX_STOCK).default(0),
  tagPack: z.number().int().min(0).max(MAX_TAG_PACK).default(0).meta({ description: "Tags minted per unit bought (0: not a tag product)" }),
  tagType: z.enum(tagType.enumValues).default("GENERAL"),
  active: z.boolean().default(true),
  sortOrder: z.number().int().min(0).max(10_000).default(0),
});
export type CreateProductInput = z.infer<typeof createProductInput>;

export const updateProductInput = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  slug: slug().optional(),
  description: z.string().trim().max(2000).optional(),
  price: price().optional(),
  currency: currency().optional(),
  images: z.array(imageRef()).max(MAX_PRODUCT_IMAGES).optional(),
  variants: z
    .array(variantInput)
    .max(MAX_VARIANTS)
    .optional()
    .meta({ description: "The whole new list: entries with an `id` keep (and update) that variant, entries without one are added, variants left out are removed" }),
  stock: z.number().int().min(0).max(MAX_STOCK).optional().meta({ description: "Units on the shelf; below what unpaid orders hold is 409" }),
  tagPack: z.number().int().min(0).max(MAX_TAG_PACK).optional(),
  tagType: z.enum(tagType.enumValues).optional(),
  active: z.boolean().optional(),
  sortOrder: z.number().int().min(0).max(10_000).optional(),
});
export type UpdateProductInput = z.infer<typeof updateProductInput>;

export const shippingAddressSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .nullish()
    .meta({ description: "Who the parcel is for. Optional here (older callers send none); the site's checkout asks for it", example: "Maria Garcia" }),
  line1: z.string().trim().min(1).max(200),
  line2: z.string().trim().max(200).nullish(),
  city: z.string().trim().min(1).max(100),
  state: z.string().trim().max(100).nullish(),
  postalCode: z.string().trim().min(1).max(20),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, "An ISO 3166-1 alpha-2 country code.")
    .transform((code) => code.toUpperCase())
    .meta({ description: "ISO 3166-1 alpha-2 code (answered upper case)", example: "US" }),
});

export const createOrderInput = z.object({
  items: z
    .array(
      z.object({
        productId: z.uuid(),
        quantity: z.number().int().min(1).max(MAX_QUANTITY),
        variantId: z.uuid().optional(),
      }),
    )
    .min(1)
    .max(MAX_ORDER_LINES),
  shippingAddress: shippingAddressSchema.optional(),
});
export type CreateOrderInput = z.infer<typeof createOrderInput>;

export const orderItemSchema = z.object({
  id: z.uuid(),
  productId: z.uuid(),
  name: z.string(),
  quantity: z.number().int(),
  price: z.number().meta({ description: "Unit price in major units, as when ordered" }),
  variant: z.string().nullable().meta({ description: "The variant's name, as when ordered" }),
  variantId: z.uuid().nullable(),
  tagPack: z.number().int(),
  tagIds: z.array(z.uuid()).meta({ description: "The tags this line added to your account once paid (PENDING_SETUP, ready to set up)" }),
});

export const orderSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(ORDER_STATUSES),
    paymentStatus: z.enum(PAYMENT_STATUSES),
    total: z.number(),
    currency: z.string(),
    items: z.array(orderItemSchema),
    shippingAddress: shippingAddressSchema.extend({ name: z.string().nullable().optional(), line2: z.string().nullable().optional(), state: z.string().nullable().optional() }).nullable(),
    paymentSessionId: z.string().nullable(),
    paymentError: z.string().nullable().meta({ description: "The provider's message for the last failed payment" }),
    trackingNumber: z.string().nullable(),
    carrier: z.string().nullable(),
    refundId: z.string().nullable(),
    tagsWithdrawn: z
      .number()
      .int()
      .meta({ description: "Tags of this order that its cancellation or refund withdrew from your account (they were not set up yet); the order's remaining tagIds stayed yours" }),
    paidAt: z.iso.datetime().nullable(),
    shippedAt: z.iso.datetime().nullable(),
    deliveredAt: z.iso.datetime().nullable(),
    cancelledAt: z.iso.datetime().nullable(),
    refundedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({
    id: "Order",
    example: {
      id: "5b8c8f0e-2f55-4a0d-9d3b-2f4f9a3e6c11",
      status: "PENDING",
      paymentStatus: "PENDING",
      total: 29.98,
      currency: "USD",
      items: [
        {
          id: "7f1c2e9a-3b4d-4c5e-8f6a-1b2c3d4e5f60",
          productId: "0b5c3a52-9a7e-4a8e-8d0f-4d7f3e2a1b90",
          name: "Pet collar tag",
          quantity: 2,
          price: 14.99,
          variant: "Blue",
          variantId: "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
          tagPack: 1,
          tagIds: [],
        },
      ],
      shippingAddress: { name: "Maria Garcia", line1: "1 Main St", city: "Springfield", state: "IL", postalCode: "62701", country: "US" },
      paymentSessionId: null,
      paymentError: null,
      trackingNumber: null,
      carrier: null,
      refundId: null,
      tagsWithdrawn: 0,
      paidAt: null,
      shippedAt: null,
      deliveredAt: null,
      cancelledAt: null,
      refundedAt: null,
      createdAt: "2026-01-01T12:00:00.000Z",
      updatedAt: "2026-01-01T12:00:00.000Z",
    },
  });
export type OrderRecord = z.infer<typeof orderSchema>;

export const adminOrderSchema = orderSchema.extend({ userId: z.uuid(), userEmail: z.string() }).meta({ id: "AdminOrder" });
export type AdminOrderRecord = z.infer<typeof adminOrderSchema>;

export const checkoutResultSchema = z.object({
  checkoutUrl: z.url().meta({ description: "Send the buyer here to pay" }),
  sessionId: z.string().meta({ description: "The provider's checkout session id" }),
});
export type CheckoutResult = z.infer<typeof checkoutResultSchema>;

export const cancelOrderResultSchema = z.object({
  id: z.uuid(),
  status: z.literal("CANCELLED"),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  refund: z.enum(["NONE", "STARTED", "IF_PAYMENT_COMPLETES"]).meta({
    description:
      "NONE: nothing was paid. STARTED: the payment is being refunded in full. IF_PAYMENT_COMPLETES: a payment was still in flight at the provider; if it completes it is refunded in full automatically",
  }),
  message: z.string(),
});
export type CancelOrderResult = z.infer<typeof cancelOrderResultSchema>;

export const refundOrderResultSchema = z.object({ id: z.uuid(), status: z.literal("REFUNDED"), paymentStatus: z.literal("REFUNDED"), refundId: z.string() });
export type RefundOrderResult = z.infer<typeof refundOrderResultSchema>;

export const ADMIN_ORDER_MOVES = ["PROCESSING", "SHIPPED", "DELIVERED"] as const;

export const adminOrderStatusInput = z.object({
  status: z.enum(ADMIN_ORDER_MOVES),
  trackingNumber: z.string().trim().min(1).max(100).optional().meta({ description: "Required for SHIPPED", example: "1Z999AA10123456784" }),
  carrier: z.string().trim().min(1).max(100).optional().meta({ example: "UPS" }),
});
export type AdminOrderStatusInput = z.infer<typeof adminOrderStatusInput>;

export const adminOrderFilters = z.object({ status: z.enum(ORDER_STATUSES).optional().meta({ description: "Only orders in this status" }) });
