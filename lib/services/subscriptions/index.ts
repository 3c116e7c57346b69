/** Subscriptions: the user's plan as the payment provider's events set it, subscribing, cancelling and billing. */
export {
  applySubscriptionEvent,
  subscriptionEventSchema,
  UnpricedSubscriptionError,
  type SubscriptionEvent,
  type SubscriptionEventKind,
  type SubscriptionEventResult,
} from "./apply";
export { cancelSubscription, getBilling, subscribeToPro } from "./billing";
export { PRO_PLAN } from "./plans";
export * from "./schemas";
