"use server";

import { z } from "zod";
import { rowAction, whenNotFound } from "@/lib/forms/action";
import { log, describeError } from "@/lib/log";
import { paymentProvider } from "@/lib/payments/provider";
import { testProvider } from "@/lib/payments/test-provider";
import { NotFoundError } from "@/lib/services/errors";

const params = z.object({ sessionId: z.string().regex(/^cs_test_[A-Za-z0-9]{8,64}$/) });
const pagePath = (formData: FormData) => `/checkout/test/${encodeURIComponent(String(formData.get("sessionId") ?? ""))}`;

/**
 * The test provider's hosted page buttons (a provider's page, so no sign-in: the session id is the key, as
 * a Stripe Checkout URL is). Pay completes the session and sends its signed events to our webhook, then
 * goes to the session's success URL; Decline sends the failure and goes to its cancel URL. A webhook that
 * refuses the events brings the page back with the error.
 */
async function openTestSession(sessionId: string) {
  if (paymentProvider().name !== "test") throw new NotFoundError();
  const session = await testProvider().getSession(sessionId);
  if (!session) throw new NotFoundError();
  return session;
}

// Plain rowActions: the development stand-in for the provider's own hosted page, which no API endpoint of ours serves.
export const payTestCheckoutAction = rowAction({ auth: "system", params, rateLimit: ["general"], onError: whenNotFound(pagePath) }, async ({ params: { sessionId } }) => {
  const session = await openTestSession(sessionId);
  try {
    await testProvider().pay(sessionId);
  } catch (error) {
    log.warn("test provider: the webhook did not accept the payment events", { sessionId, ...describeError(error) });
    return `/checkout/test/${sessionId}?delivery=failed`;
  }
  return session.successUrl;
});

export const declineTestCheckoutAction = rowAction({ auth: "system", params, rateLimit: ["general"], onError: whenNotFound(pagePath) }, async ({ params: { sessionId } }) => {
  const session = await openTestSession(sessionId);
  if (session.status !== "open") return `/checkout/test/${sessionId}`;
  try {
    await testProvider().decline(sessionId);
  } catch (error) {
    log.warn("test provider: the webhook did not accept the decline event", { sessionId, ...describeError(error) });
    return `/checkout/test/${sessionId}?delivery=failed`;
  }
  return session.cancelUrl;
});
