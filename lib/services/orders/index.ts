/** The shop: the catalogue, orders with reserved stock, checkout at the payment provider, invoices, cancellations and refunds. */
export { createProduct, getProductBySlug, listAdminProducts, listProducts, slugify, updateProduct } from "./products";
export { cancelAbandonedOrders } from "./abandoned";
export { cancelOrder, checkoutOrder, completeOrderRefund, createOrder, getOrder, lastShippingAddress, listAdminOrders, listOrders, refundOrder, setOrderStatus } from "./orders";
export { INVOICE_CONTENT_SECURITY_POLICY, orderInvoice } from "./invoice";
export { absoluteImageUrl, appBaseUrl, describeTagOutcome, formatMoney, orderReference, toMajor } from "./records";
export {
  applyCheckoutSessionCompleted,
  checkoutSessionCompletedSchema,
  paymentIntentEventSchema,
  recordPaymentFailed,
  recordPaymentSucceeded,
  type CheckoutSessionCompleted,
  type PaymentIntentEvent,
} from "./payment-effects";
export * from "./schemas";
export { seedCatalogue } from "./catalogue";
