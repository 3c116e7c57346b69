"use server";

import { revalidatePath } from "next/cache";
import { rowAction } from "@/lib/forms/action";
import { subscriptionEndpoints } from "@/lib/http/endpoints/subscriptions";
import { cancelSubscription, subscribeToPro } from "@/lib/services/subscriptions";

const PATH = "/dashboard/billing";

// A code, never the message, goes back in the address: the page maps it to its own text.
const failed = (error: { code: string }) => (error.code === "INTERNAL_ERROR" ? undefined : `${PATH}?notice=failed&reason=${encodeURIComponent(error.code)}`);

/** Upgrade: the same verb as POST /orders/subscribe, then off to the provider's hosted checkout. */
export const upgradeToProAction: (formData: FormData) => Promise<void> = rowAction.for(subscriptionEndpoints.subscribe, { returnTo: PATH, read: () => ({ tier: "PRO" }), onError: failed }, async ({ ctx, input }) => {
  const { checkoutUrl } = await subscribeToPro(ctx, input);
  return checkoutUrl;
});

/** Cancel at period end: the same verb as DELETE /orders/subscribe. */
export const cancelSubscriptionAction: (formData: FormData) => Promise<void> = rowAction.for(
  subscriptionEndpoints.cancel,
  { returnTo: PATH, onError: failed, revalidate: () => revalidatePath("/dashboard", "layout") },
  async ({ ctx }) => {
    await cancelSubscription(ctx);
    return `${PATH}?notice=cancelled`;
  },
);
