import type { ServiceContext } from "@/lib/services/context";

/** A provider event as the webhook stored it (Stripe's shape: top-level id, type, created, data.object). */
export interface PaymentProviderEvent {
  id: string;
  type: string;
  /** Unix seconds at the provider. */
  created?: number;
  data: { object: Record<string, unknown> };
}

/**
 * Applies one event type. Runs inside the processing transaction (ctx holds it, with the event's inbox row
 * locked): everything it writes commits together with the event's PROCESSED mark, or not at all. It must
 * still be idempotent by state (a different event can carry the same news). Throwing retries the event
 * with backoff; a PermanentEventError marks it FAILED at once.
 */
export type PaymentEventHandler = (ctx: ServiceContext, event: PaymentProviderEvent) => Promise<void>;

/** An event that no retry can fix (a payload missing what the handler needs): FAILED at once, for an admin to look at. */
export class PermanentEventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PermanentEventError";
  }
}
