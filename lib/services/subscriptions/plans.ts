/**
 * The PRO plan as we sell it: the test provider charges this amount per period, and the billing page shows
 * it. With Stripe the charge is the recurring price STRIPE_PRO_PRICE_ID, which must carry the same amount
 * (and the metadata tier=PRO) for the page to tell the truth.
 */
export const PRO_PLAN = {
  tier: "PRO",
  name: "Pro",
  /** Minor units per period. */
  amountMinor: 499,
  currency: "USD",
  interval: "month",
} as const;

/** Only this tier can be bought (docs/decisions/0027-subscriptions.md): PREMIUM is granted by an admin, never sold here. */
export const SUBSCRIBABLE_TIER = PRO_PLAN.tier;
