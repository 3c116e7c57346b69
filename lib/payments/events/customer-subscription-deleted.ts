import type { ServiceContext } from "@/lib/services/context";
import { applySubscriptionEvent } from "@/lib/services/subscriptions";
import type { PaymentProviderEvent } from "./types";

/** customer.subscription.deleted: the subscriptions service applies it (out-of-order and repeat safe). */
export async function handle(ctx: ServiceContext, event: PaymentProviderEvent): Promise<void> {
  await applySubscriptionEvent(ctx, event, "deleted");
}
