import { billingSchema, cancelSubscriptionResultSchema, subscribeInput, subscribeResultSchema } from "@/lib/services/subscriptions";
import { defineEndpoint } from "../endpoint";

const billing = ["Billing"];

/** The PRO subscription (hosted checkout, cancel at period end) and the caller's billing overview. */
export const subscriptionEndpoints = {
  subscribe: defineEndpoint({
    operationId: "createSubscription",
    method: "POST",
    path: "/api/v1/orders/subscribe",
    summary: "Subscribe to PRO (hosted checkout)",
    description:
      "`tier` must be PRO (anything else is 400). A caller whose PRO or PREMIUM plan is in force is 409, also while a cancelled plan runs to the end of its period. Answers 200 with the provider's hosted checkout page (`checkoutUrl`) for the PRO plan, billed monthly; calling it again, or concurrently, the same day answers the same session. The plan changes only when the provider's events reach the payment webhook (checkout.session.completed, customer.subscription.created): then GET /orders/billing shows PRO and its 50-tag limit. Without STRIPE_SECRET_KEY the built-in test provider's page (`/checkout/test/{sessionId}`) has a Pay button; with Stripe, STRIPE_PRO_PRICE_ID must be set (else 502).",
    tags: billing,
    auth: "user",
    body: subscribeInput,
    response: subscribeResultSchema,
    errors: ["CONFLICT", "PAYMENT_PROVIDER_ERROR"],
  }),
  cancel: defineEndpoint({
    operationId: "cancelSubscription",
    method: "DELETE",
    path: "/api/v1/orders/subscribe",
    summary: "Cancel the subscription at period end",
    description:
      "The subscription in force is cancelled at the end of its paid period: the plan and its tag limit stay until `endsAt`, then the account returns to FREE (tags beyond the FREE limit expire, the most recently activated first). Calling it again answers the same `endsAt`. No subscription in force is 404.",
    tags: billing,
    auth: "user",
    response: cancelSubscriptionResultSchema,
    errors: ["NOT_FOUND", "PAYMENT_PROVIDER_ERROR"],
  }),
  billing: defineEndpoint({
    operationId: "getBilling",
    method: "GET",
    path: "/api/v1/orders/billing",
    summary: "My billing",
    description:
      "The plan in force (`subscription.tier`: FREE without a paid subscription, `status` null when there never was one), the period end and whether it renews, the tag limit and how many tags count towards it, the card (`paymentMethod`: null, as card details stay on the provider's hosted page), and the invoices newest first (at most 50): shop orders (with `orderId` and the printable `invoiceUrl`) and subscription periods.",
    tags: billing,
    auth: "user",
    response: billingSchema,
  }),
};
