import type { ServiceContext } from "@/lib/services/context";
import { applyCheckoutSessionCompleted, type ProviderEvent } from "@/lib/services/orders/payment-effects";

/** `checkout.session.completed`: see applyCheckoutSessionCompleted in lib/services/orders/payment-effects.ts (idempotent; safe to run twice or concurrently). */
export async function handle(ctx: ServiceContext, event: ProviderEvent): Promise<void> {
  await applyCheckoutSessionCompleted(ctx, event);
}
