import * as subscriptionCreated from "./customer-subscription-created";
import * as subscriptionDeleted from "./customer-subscription-deleted";
import * as subscriptionUpdated from "./customer-subscription-updated";
import type { PaymentEventHandler } from "./types";

export { PermanentEventError, type PaymentEventHandler, type PaymentProviderEvent } from "./types";

/**
 * Event type → handler, one file per type (design.md, Webhook). A type not listed is stored and marked
 * IGNORED. The order events (checkout.session.completed, payment_intent.succeeded,
 * payment_intent.payment_failed) join this table from the shop's handlers.
 */
export const paymentEventHandlers: Readonly<Record<string, PaymentEventHandler>> = {
  "customer.subscription.created": subscriptionCreated.handle,
  "customer.subscription.updated": subscriptionUpdated.handle,
  "customer.subscription.deleted": subscriptionDeleted.handle,
};

export function paymentEventHandler(type: string): PaymentEventHandler | undefined {
  return Object.hasOwn(paymentEventHandlers, type) ? paymentEventHandlers[type] : undefined;
}
