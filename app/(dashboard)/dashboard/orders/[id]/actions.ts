"use server";

import { revalidatePath } from "next/cache";
import { rowAction } from "@/lib/forms/action";
import { orderEndpoints } from "@/lib/http/endpoints/orders";
import { cancelOrder, checkoutOrder } from "@/lib/services/orders";

const fields = { id: "orderId" } as const;
const orderPath = (formData: FormData) => `/dashboard/orders/${encodeURIComponent(String(formData.get("orderId") ?? ""))}`;

/** A failure comes back to the order as a code the page words itself, so a crafted link cannot make it say anything. */
const failed = (error: { code: string }, formData: FormData) => (error.code === "INTERNAL_ERROR" ? undefined : `${orderPath(formData)}?notice=failed&reason=${encodeURIComponent(error.code)}`);

/** "Pay now" / "Pay again": the same checkout service as POST /orders/{id}/checkout, then off to the provider's page. */
export const payOrderAction = rowAction.for(orderEndpoints.checkout, { fields, returnTo: orderPath, onError: failed }, async ({ ctx, params: { id } }) => {
  const { checkoutUrl } = await checkoutOrder(ctx, id);
  return checkoutUrl;
});

/** "Cancel order": the same service as POST /orders/{id}/cancel (its rules say when); back to the order with the outcome. */
export const cancelOrderAction = rowAction.for(
  orderEndpoints.cancel,
  { fields, returnTo: orderPath, onError: failed, revalidate: () => revalidatePath("/dashboard/orders", "layout") },
  async ({ ctx, params: { id } }) => {
    const result = await cancelOrder(ctx, id);
    const notice = { NONE: "cancelled", STARTED: "cancelled-refund", IF_PAYMENT_COMPLETES: "cancelled-in-flight" }[result.refund];
    return `/dashboard/orders/${id}?notice=${notice}`;
  },
);
