/** The payment provider's webhook inbox: receiving, processing and the admins' view of events. */
export { listPaymentEvents, replayPaymentEvent, type PaymentEventQuery } from "./admin";
export {
  applyPaymentEvent,
  isPaymentEventType,
  paymentEventHandler,
  paymentEvents,
  PermanentEventError,
  type PaymentEventEntry,
  type PaymentEventType,
} from "./events";
export { processPaymentEvent, type ProcessOutcome, type ProcessPaymentEventInput } from "./process";
export { receivePaymentEvent, type IncomingPaymentEvent } from "./receive";
export * from "./schemas";
