import { z } from "zod";

/**
 * The envelope every payment provider event arrives in (Stripe's, which the test provider copies): a
 * top-level id, type and `created` (Unix seconds at the provider), and the object it is about in
 * `data.object`. The webhook stores nothing that does not fit it; what each event type reads inside
 * `data.object` is that type's own schema (`providerEventOf`), listed in lib/services/payment-events/events.ts.
 */
export const providerEventSchema = z.looseObject({
  id: z.string().min(1).max(255).regex(/^[A-Za-z0-9_.:-]+$/, "An event id is letters, digits and _ . : -"),
  type: z.string().min(1).max(255),
  created: z.int().min(0).max(1e11).optional(),
  data: z.looseObject({ object: z.record(z.string(), z.unknown()) }),
});

/** A provider event as the webhook stored it. */
export type ProviderEvent = z.output<typeof providerEventSchema>;

/** The envelope with `data.object` read by one event type's schema. */
export function providerEventOf<Payload extends z.ZodType>(object: Payload) {
  return providerEventSchema.extend({ data: z.looseObject({ object }) });
}
