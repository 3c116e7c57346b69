import type { ServiceContext } from "@/lib/services/context";
import { recordPaymentFailed, type ProviderEvent } from "@/lib/services/orders/payment-effects";

/** `payment_intent.payment_failed`: see recordPaymentFailed in lib/services/orders/payment-effects.ts (idempotent; safe to run twice or concurrently). */
export async function handle(ctx: ServiceContext, event: ProviderEvent): Promise<void> {
  await recordPaymentFailed(ctx, event);
}
