import {
  adminOrderFilters,
  adminOrderSchema,
  adminOrderStatusInput,
  adminProductSchema,
  cancelOrderResultSchema,
  checkoutResultSchema,
  createOrderInput,
  createProductInput,
  orderSchema,
  productSchema,
  productSlugParams,
  refundOrderResultSchema,
  updateProductInput,
} from "@/lib/services/orders/schemas";
import { defineEndpoint } from "../endpoint";
import { paginationQuery } from "../pagination";
import { idParams } from "../params";

const shop = ["Shop"];
const admin = ["Admin"];

/** The shop's catalogue (public) and its admin. */
export const productEndpoints = {
  list: defineEndpoint({
    method: "GET",
    path: "/api/v1/orders/products",
    summary: "List products",
    description:
      "Public. The active catalogue, in the shop's order, paginated. Prices are numbers in major units; `images` are absolute URLs; `inStock` is whether at least one unit is free (stock not held by unpaid orders); `tagPack` is how many tags each unit adds to the buyer's account once paid. 30 requests per minute per IP.",
    tags: shop,
    auth: "none",
    rateLimit: ["productsListing"],
    query: paginationQuery,
    response: productSchema,
    responseKind: "paginated",
  }),
  get: defineEndpoint({
    method: "GET",
    path: "/api/v1/orders/products/{slug}",
    summary: "A product",
    description: "Public. An active product by its slug; an unknown or inactive one is 404.",
    tags: shop,
    auth: "none",
    params: productSlugParams,
    response: productSchema,
  }),
  adminList: defineEndpoint({
    method: "GET",
    path: "/api/v1/admin/products",
    summary: "Every product (admin)",
    description: "Active and inactive products with their stock and the units unpaid orders hold, paginated.",
    tags: admin,
    auth: "admin",
    query: paginationQuery,
    response: adminProductSchema,
    responseKind: "paginated",
  }),
  adminCreate: defineEndpoint({
    method: "POST",
    path: "/api/v1/admin/products",
    summary: "Create a product (admin)",
    description:
      "name and price are required; slug is derived from the name when absent (a taken slug is 409). Prices in major units (≤ 100 000, two decimals), currency ISO 4217 (default USD). images: app paths (`/products/…`) or https URLs. variants: [{ name, price, image? }]. stock: units on the shelf. tagPack: tags minted for the buyer per unit bought (0: not a tag product), of type tagType. Inactive products are hidden from the public catalogue.",
    tags: admin,
    auth: "admin",
    body: createProductInput,
    response: adminProductSchema,
    successStatus: 201,
    errors: ["CONFLICT"],
  }),
  adminUpdate: defineEndpoint({
    method: "PATCH",
    path: "/api/v1/admin/products/{id}",
    summary: "Update a product (admin)",
    description:
      "Any of the create fields. `variants` is the whole new list: an entry with an `id` keeps that variant (updated), one without is added, variants left out are removed (orders keep the name they were bought under; an unknown id is 400). A taken slug is 409; stock below the units unpaid orders hold is 409.",
    tags: admin,
    auth: "admin",
    params: idParams,
    body: updateProductInput,
    response: adminProductSchema,
    errors: ["CONFLICT"],
  }),
};

/** Orders: placing, paying (hosted checkout), invoices, cancelling; and the admin's fulfilment and refunds. */
export const orderEndpoints = {
  list: defineEndpoint({
    method: "GET",
    path: "/api/v1/orders",
    summary: "List my orders",
    description: "The caller's orders, newest first, paginated.",
    tags: shop,
    auth: "required",
    query: paginationQuery,
    response: orderSchema,
    responseKind: "paginated",
  }),
  create: defineEndpoint({
    method: "POST",
    path: "/api/v1/orders",
    summary: "Place an order",
    description:
      "items: 1–20 lines of { productId, quantity (1–100), variantId? }; shippingAddress optional, and within it the recipient's `name` (the site's checkout asks for it). Prices and the total come from the catalogue (shipping free, no tax line). An unknown or inactive product, or a variant not of that product, is 400 naming the line; items in different currencies are 400. The units are reserved at once (other buyers cannot take them) until the order is paid or cancelled; not enough free stock is 422 with `{ productId, available, requested }`. The order starts PENDING: pay it with POST /orders/{id}/checkout.",
    tags: shop,
    auth: "required",
    body: createOrderInput,
    response: orderSchema,
    successStatus: 201,
    errors: ["UNPROCESSABLE_ENTITY"],
  }),
  get: defineEndpoint({
    method: "GET",
    path: "/api/v1/orders/{id}",
    summary: "An order",
    description: "One of the caller's orders; anyone else's is 404.",
    tags: shop,
    auth: "required",
    params: idParams,
    response: orderSchema,
  }),
  checkout: defineEndpoint({
    method: "POST",
    path: "/api/v1/orders/{id}/checkout",
    summary: "Pay an order (hosted checkout)",
    description:
      "A PENDING order only (409 otherwise). Answers the provider's hosted checkout page to send the buyer to; calling it again (or concurrently) answers the same session. The order becomes CONFIRMED (paymentStatus COMPLETED) when the provider's checkout.session.completed event is processed, not before; a declined payment leaves it PENDING with paymentStatus FAILED and `paymentError`, and checkout can be tried again. Without STRIPE_SECRET_KEY the built-in test provider's page (`/checkout/test/{sessionId}`) has Pay and Decline buttons. 502 PAYMENT_PROVIDER_ERROR when the provider fails or refuses to open the session (nothing is charged; retry).",
    tags: shop,
    auth: "required",
    params: idParams,
    response: checkoutResultSchema,
    errors: ["CONFLICT", "PAYMENT_PROVIDER_ERROR"],
  }),
  invoice: defineEndpoint({
    method: "GET",
    path: "/api/v1/orders/{id}/invoice",
    summary: "An order's invoice (HTML)",
    description: "A printable HTML invoice (text/html) of a paid order: seller, buyer, lines, total, payment date, and any refund. Before payment 409.",
    tags: shop,
    auth: "required",
    params: idParams,
    responseKind: "html",
    errors: ["CONFLICT"],
  }),
  cancel: defineEndpoint({
    method: "POST",
    path: "/api/v1/orders/{id}/cancel",
    summary: "Cancel an order",
    description:
      "PENDING → CANCELLED, the reserved units released (`refund` NONE). CONFIRMED or PROCESSING (paid, not shipped) → CANCELLED with a full refund started at the provider (`refund` STARTED): paymentStatus is PROCESSING until the provider's refund is recorded (a background job, usually within seconds), then REFUNDED with `refundId`; tags the order added that are still untouched (PENDING_SETUP) leave your account (counted in the order's `tagsWithdrawn`), tags you already set up stay yours, and `message` says which. A PENDING order whose payment is still in flight at the provider (paymentStatus PROCESSING, e.g. a bank debit) is cancelled at once (`refund` IF_PAYMENT_COMPLETES, paymentStatus stays PROCESSING with `paidAt` null): if that payment completes later it is refunded in full automatically and you are told by e-mail; if it fails, paymentStatus becomes FAILED. Any payment that completes for an order already cancelled is refunded the same way. SHIPPED or DELIVERED is 409 (returns go through support), as is an order already CANCELLED or REFUNDED.",
    tags: shop,
    auth: "required",
    params: idParams,
    response: cancelOrderResultSchema,
    errors: ["CONFLICT"],
  }),
  refund: defineEndpoint({
    method: "POST",
    path: "/api/v1/orders/{id}/refund",
    summary: "Refund an order (admin)",
    description:
      "A paid order not yet refunded (CONFIRMED, PROCESSING, SHIPPED or DELIVERED with paymentStatus COMPLETED) is refunded in full at the provider → status REFUNDED, paymentStatus REFUNDED, `refundId`. Refunded before shipping, its units go back on the shelf and its untouched tags leave the buyer's account (tags already set up stay); refunded after shipping, every tag stays (the buyer holds them). The buyer's refund e-mail says which tags were withdrawn and which stay. Anything else is 409. 502 PAYMENT_PROVIDER_ERROR when the provider refuses or fails the refund (for example a payment it does not know): nothing is recorded, the order stays as it was, and the provider's message is logged.",
    tags: admin,
    auth: "admin",
    params: idParams,
    response: refundOrderResultSchema,
    errors: ["CONFLICT", "PAYMENT_PROVIDER_ERROR"],
  }),
  adminList: defineEndpoint({
    method: "GET",
    path: "/api/v1/admin/orders",
    summary: "Every order (admin)",
    description: "All orders, newest first, with the buyer's id and e-mail; `status` narrows the list (an unknown value is 400).",
    tags: admin,
    auth: "admin",
    query: paginationQuery.extend(adminOrderFilters.shape),
    response: adminOrderSchema,
    responseKind: "paginated",
  }),
  adminStatus: defineEndpoint({
    method: "PATCH",
    path: "/api/v1/admin/orders/{id}/status",
    summary: "Move an order along fulfilment (admin)",
    description:
      "CONFIRMED → PROCESSING; CONFIRMED or PROCESSING → SHIPPED (trackingNumber required, 400 without; carrier optional; the buyer gets the shipping e-mail with the tracking number); SHIPPED → DELIVERED. Any other move is 409 CONFLICT with `{ status, allowedFrom }`. The buyer is notified (ORDER_UPDATED) of every move.",
    tags: admin,
    auth: "admin",
    params: idParams,
    body: adminOrderStatusInput,
    response: adminOrderSchema,
    errors: ["CONFLICT"],
  }),
};
