import type { z } from "zod";
import type { ServiceContext } from "@/lib/services/context";
import { applyCheckoutSessionCompleted, checkoutSessionCompletedSchema, paymentIntentEventSchema, recordPaymentFailed, recordPaymentSucceeded } from "@/lib/services/orders";
import { applySubscriptionEvent, subscriptionEventSchema, UnpricedSubscriptionError, type SubscriptionEvent, type SubscriptionEventKind } from "@/lib/services/subscriptions";

/**
 * An event that no retry can fix (a payload that fails its type's schema, a subscription without a paid
 * tier): processing marks it FAILED at once, for an admin to look at, instead of retrying it for hours.
 */
export class PermanentEventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PermanentEventError";
  }
}

/**
 * One event type: the schema its stored payload is read through, and what applying it does. The handler
 * runs inside the processing transaction (ctx holds it, with the event's inbox row locked): everything it
 * writes commits together with the event's PROCESSED mark, or not at all. It must still be idempotent by
 * state (a different event can carry the same news). Throwing retries the event with backoff; a
 * PermanentEventError marks it FAILED at once.
 */
export interface PaymentEventEntry<Schema extends z.ZodType = z.ZodType> {
  schema: Schema;
  handle(ctx: ServiceContext, event: z.output<Schema>): Promise<unknown>;
}

const entry = <Schema extends z.ZodType>(schema: Schema, handle: PaymentEventEntry<Schema>["handle"]): PaymentEventEntry<Schema> => ({ schema, handle });

const subscription = (kind: SubscriptionEventKind) =>
  entry(subscriptionEventSchema, async (ctx, event: SubscriptionEvent) => {
    try {
      return await applySubscriptionEvent(ctx, event, kind);
    } catch (error) {
      if (error instanceof UnpricedSubscriptionError) throw new PermanentEventError(error.message);
      throw error;
    }
  });

/**
 * Every event type the app acts on, with its payload's schema and its handler: the provider's six events.
 * A type not listed is stored and marked IGNORED.
 */
export const paymentEvents = {
  "checkout.session.completed": entry(checkoutSessionCompletedSchema, applyCheckoutSessionCompleted),
  "payment_intent.succeeded": entry(paymentIntentEventSchema, recordPaymentSucceeded),
  "payment_intent.payment_failed": entry(paymentIntentEventSchema, recordPaymentFailed),
  "customer.subscription.created": subscription("created"),
  "customer.subscription.updated": subscription("updated"),
  "customer.subscription.deleted": subscription("deleted"),
} satisfies Record<string, PaymentEventEntry>;

/** The event types the app acts on. */
export type PaymentEventType = keyof typeof paymentEvents;

export function isPaymentEventType(type: string): type is PaymentEventType {
  return Object.hasOwn(paymentEvents, type);
}

/**
 * Reads a stored event through its type's schema and applies it. A payload that fails the schema is a
 * PermanentEventError naming the type and the first problem: the provider will not send it differently.
 */
export async function applyPaymentEvent(ctx: ServiceContext, type: PaymentEventType, payload: unknown): Promise<void> {
  const { schema, handle } = paymentEvents[type] as PaymentEventEntry;
  const parsed = schema.safeParse(payload);
  if (!parsed.success) throw new PermanentEventError(`${type}: ${parsed.error.issues[0]?.message ?? "malformed event"}`);
  await handle(ctx, parsed.data);
}

/** The handler of one event type, taking the event as stored (tests run one event without the inbox). */
export function paymentEventHandler(type: PaymentEventType): (ctx: ServiceContext, event: unknown) => Promise<void> {
  return (ctx, event) => applyPaymentEvent(ctx, type, event);
}
