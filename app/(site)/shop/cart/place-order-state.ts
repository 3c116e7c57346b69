import type { FormState } from "@/lib/forms/form-state";

/**
 * What placing an order answers the cart: the usual form state, messages for cart lines (keyed by
 * lineKey: out of stock, no longer sold) and, once placed, the order and where to pay it.
 */
export interface PlaceOrderState extends FormState {
  lineErrors?: Record<string, string>;
  orderId?: string;
  checkoutUrl?: string | null;
}

export const ADDRESS_FIELDS = ["name", "line1", "line2", "city", "state", "postalCode", "country"] as const;
