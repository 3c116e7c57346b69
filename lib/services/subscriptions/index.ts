/** Subscriptions: the user's plan as the payment provider's events set it. */
export { applySubscriptionEvent, type SubscriptionEventKind, type SubscriptionEventResult } from "./apply";
