"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/forms/action";
import { endpointRateLimits } from "@/lib/http/endpoint";
import { orderEndpoints } from "@/lib/http/endpoints/orders";
import { formText } from "@/lib/forms/form-state";
import { log, describeError } from "@/lib/log";
import { checkoutOrder, createOrder, createOrderInput, shippingAddressSchema } from "@/lib/services/orders";
import type { DomainError } from "@/lib/services/errors";
import { ADDRESS_FIELDS, type PlaceOrderState } from "./place-order-state";

/**
 * Every tag is a printed thing we post: an order from the cart needs the address and who it is for (the
 * API's stay optional, so callers written before the recipient's name existed keep working).
 */
const placeOrderInput = createOrderInput.extend({
  shippingAddress: shippingAddressSchema.extend({ name: z.string().trim().min(1, "Enter the recipient's name.").max(200) }),
});

type Item = { productId?: unknown; variantId?: unknown };

function submittedItems(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

const keyOf = (item: Item | undefined) => (item && typeof item.productId === "string" ? `${item.productId}:${typeof item.variantId === "string" ? item.variantId : ""}` : null);

/** Per-line messages from field paths such as `items.2.productId`, keyed as the cart keys its lines. */
function lineErrorsFrom(fields: Record<string, string[] | undefined>, itemsJson: string | undefined): Record<string, string> {
  const items = submittedItems(itemsJson ?? "");
  const list = Array.isArray(items) ? (items as Item[]) : [];
  const errors: Record<string, string> = {};
  for (const [field, messages] of Object.entries(fields)) {
    const match = /^items\.(\d+)\.(\w+)/.exec(field);
    const key = match ? keyOf(list[Number(match[1])]) : null;
    if (!key || !messages?.length) continue;
    errors[key] = match![2] === "productId" ? "This product is no longer sold. Remove it to check out." : match![2] === "variantId" ? "This choice is no longer sold. Remove it and choose again." : messages[0]!;
  }
  return errors;
}

function cartProblem(error: DomainError, values: Record<string, string> | undefined): PlaceOrderState | undefined {
  const items = submittedItems(values?.items ?? "");
  const list = Array.isArray(items) ? (items as Item[]) : [];
  if (error.code === "UNPROCESSABLE_ENTITY") {
    // Not enough free stock of one product: the message names it and what is left, beside each of its lines.
    const productId = (error.details as { productId?: string } | undefined)?.productId;
    const lineErrors: Record<string, string> = {};
    for (const item of list) if (item.productId === productId) lineErrors[keyOf(item)!] = error.message;
    return { status: "error", message: "Some items are not available in the quantity you chose.", lineErrors, values };
  }
  if (error.code === "VALIDATION_ERROR") {
    const fieldErrors = (error.details as { fieldErrors?: Record<string, string[]> } | undefined)?.fieldErrors ?? {};
    const lineErrors = lineErrorsFrom(fieldErrors, values?.items);
    if (Object.keys(lineErrors).length) return { status: "error", message: "Some items in your cart can no longer be ordered.", lineErrors, values };
    if (fieldErrors.items) return { status: "error", message: fieldErrors.items[0] ?? error.message, values };
  }
  return undefined;
}

/**
 * Places the cart's order (the same createOrder service as POST /orders: prices and total from the
 * catalogue, stock reserved) and starts its checkout (the same service as POST /orders/{id}/checkout).
 * The answer carries the provider's page; the cart empties and the browser goes there. When the provider
 * cannot be reached the order still stands: the browser goes to the order, which has "Pay now".
 */
export const placeOrderAction = action<PlaceOrderState, undefined, typeof placeOrderInput>(
  {
    auth: "user",
    returnTo: "/shop/cart",
    input: placeOrderInput,
    rateLimit: endpointRateLimits(orderEndpoints.create),
    read: (formData) => ({
      items: submittedItems(formText(formData, "items")),
      shippingAddress: Object.fromEntries(ADDRESS_FIELDS.map((name) => [name, formText(formData, name).trim() || undefined])),
    }),
    values: (formData) => ({ ...Object.fromEntries(ADDRESS_FIELDS.map((name) => [name, formText(formData, name)])), items: formText(formData, "items") }),
    fieldMap: Object.fromEntries(ADDRESS_FIELDS.map((name) => [`shippingAddress.${name}`, name])),
    onInvalid: (error: z.ZodError, values) => {
      const fields: Record<string, string[]> = {};
      for (const issue of error.issues) (fields[issue.path.join(".")] ??= []).push(issue.message);
      const lineErrors = lineErrorsFrom(fields, values?.items);
      if (Object.keys(lineErrors).length) return { status: "error", message: "Check the items marked in your cart.", lineErrors, values };
      if (error.issues.some((issue) => issue.path[0] === "items")) return { status: "error", message: "Your cart is empty or could not be read. Add the products again.", values };
      return undefined;
    },
    onError: cartProblem,
  },
  async ({ ctx, input }) => {
    const order = await createOrder(ctx, input);
    revalidatePath("/dashboard/orders");
    try {
      const { checkoutUrl } = await checkoutOrder(ctx, order.id);
      return { status: "success", message: "Order placed. Taking you to payment…", orderId: order.id, checkoutUrl };
    } catch (error) {
      log.warn("shop: the order was placed but its checkout did not start", { orderId: order.id, ...describeError(error) });
      return { status: "success", message: "Order placed. The payment page could not be opened: pay from your order.", orderId: order.id, checkoutUrl: null };
    }
  },
);
