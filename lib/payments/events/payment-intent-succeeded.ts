import type { ServiceContext } from "@/lib/services/context";
import { recordPaymentSucceeded, type ProviderEvent } from "@/lib/services/orders/payment-effects";

/** `payment_intent.succeeded`: see recordPaymentSucceeded in lib/services/orders/payment-effects.ts (idempotent; safe to run twice or concurrently). */
export async function handle(ctx: ServiceContext, event: ProviderEvent): Promise<void> {
  await recordPaymentSucceeded(ctx, event);
}
