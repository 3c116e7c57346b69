import { configuredStripeProvider } from "./stripe";
import { testProvider } from "./test-provider";
import type { PaymentProvider } from "./types";

/**
 * The payment provider the app talks to: the Stripe adapter when STRIPE_SECRET_KEY is set, else the
 * built-in test provider (docs/decisions/0029-test-payment-provider.md). Both report outcomes only through signed webhook events.
 */
export function paymentProvider(): PaymentProvider {
  return configuredStripeProvider() ?? testProvider();
}
