"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { action } from "@/lib/forms/action";
import { orderEndpoints } from "@/lib/http/endpoints/orders";
import { formText, type FormState } from "@/lib/forms/form-state";
import { refundOrder, setOrderStatus } from "@/lib/services/orders";
import { ConflictError } from "@/lib/services/errors";
import { ordersHref, ordersView, ORDERS_PATH } from "./orders-path";

const fields = { id: "orderId" } as const;

/** The list the form was sent from (hidden view-* fields), with a notice about `orderId`. */
function backToOrders(formData: FormData, orderId: string, notice: string, extra: Record<string, string> = {}): string {
  const view = ordersView((name) => formText(formData, `view-${name}`) || undefined);
  return ordersHref(view, { notice, order: orderId, ...extra });
}

/**
 * Runs a change and answers with a redirect to the list and its notice: the order may leave a filtered list,
 * so the outcome is told at the top of the page. A 409 (the order moved meanwhile: another admin, a
 * cancellation, a webhook) goes back the same way, naming the order's status now.
 */
async function changeAndReturn(formData: FormData, orderId: string, notice: string, change: () => Promise<unknown>): Promise<never> {
  let target: string;
  try {
    await change();
    target = backToOrders(formData, orderId, notice);
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    const now = (error.details as { status?: string } | undefined)?.status ?? "";
    target = backToOrders(formData, orderId, "conflict", now ? { now } : {});
  } finally {
    revalidatePath(ORDERS_PATH);
  }
  redirect(target);
}

/** PATCH /admin/orders/:id/status: PROCESSING, SHIPPED (tracking number required) or DELIVERED. */
export const setOrderStatusAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  orderEndpoints.adminStatus,
  { fields, returnTo: ORDERS_PATH, values: ["trackingNumber", "carrier"] },
  async ({ ctx, params, input, formData }) => changeAndReturn(formData, params.id, input.status, () => setOrderStatus(ctx, params.id, input)),
);

/** The form's own input: the endpoint takes no body, the page asks for a tick first. */
const refundConfirmation = z.object({ confirm: z.literal(true, "Tick the box to confirm the refund.") });

/** POST /orders/:id/refund (admin): the whole amount back to the buyer, once ticked to confirm. */
export const refundOrderAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  orderEndpoints.refund,
  { fields, returnTo: ORDERS_PATH, input: refundConfirmation },
  async ({ ctx, params, formData }) => changeAndReturn(formData, params.id, "REFUNDED", () => refundOrder(ctx, params.id)),
);
