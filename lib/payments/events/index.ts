import * as checkoutSessionCompleted from "./checkout-session-completed";
import * as paymentIntentFailed from "./payment-intent-payment-failed";
import * as paymentIntentSucceeded from "./payment-intent-succeeded";
import * as subscriptionCreated from "./customer-subscription-created";
import * as subscriptionDeleted from "./customer-subscription-deleted";
import * as subscriptionUpdated from "./customer-subscription-updated";
import type { PaymentEventHandler } from "./types";

export { PermanentEventError, type PaymentEventHandler, type PaymentProviderEvent } from "./types";

/**
 * Event type → handler, one file per type (design.md, Webhook). A type not listed is stored and marked
 * IGNORED. These are the specification's six events.
 */
export const paymentEventHandlers: Readonly<Record<string, PaymentEventHandler>> = {
  "checkout.session.completed": checkoutSessionCompleted.handle,
  "payment_intent.succeeded": paymentIntentSucceeded.handle,
  "payment_intent.payment_failed": paymentIntentFailed.handle,
  "customer.subscription.created": subscriptionCreated.handle,
  "customer.subscription.updated": subscriptionUpdated.handle,
  "customer.subscription.deleted": subscriptionDeleted.handle,
};

export function paymentEventHandler(type: string): PaymentEventHandler | undefined {
  return Object.hasOwn(paymentEventHandlers, type) ? paymentEventHandlers[type] : undefined;
}
