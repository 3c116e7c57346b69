import { randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { getDatabase, schema, type Executor } from "@/db/client";
import type { TestProviderSession } from "@/db/schema";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { PaymentProviderError } from "@/lib/services/errors";
import { paymentWebhookSecret } from "@/lib/secrets";
import type { ProviderEvent } from "./event";
import { signPaymentPayload } from "./signature";
import type { CheckoutSession, CheckoutSessionInput, PaymentProvider, RefundInput, RefundResult } from "./types";

/**
 * The built-in test payment provider (docs/decisions/0029-test-payment-provider.md: without STRIPE_SECRET_KEY). It plays the provider's
 * side: its sessions, payment intents, subscriptions and refunds live in its own table
 * (test_provider_sessions), which the app never reads, and every outcome reaches the app the way a real
 * provider's does: as Stripe-shaped events, signed with PAYMENT_WEBHOOK_SECRET (`Payment-Signature`),
 * POSTed to the app's own webhook. Its hosted page (`/checkout/test/<sessionId>`) has Pay and Decline.
 */

export const TEST_PERIOD_DAYS = 30;
export const DECLINE_MESSAGE = "Your card was declined.";
const DELIVERY_ATTEMPTS = 3;

/** An event as the test provider sends it: the common envelope, with Stripe's `object` and `livemode` fields. */
export type PaymentEvent = ProviderEvent & { object: "event"; created: number; livemode: false };

/** Sends one signed event body; throws when it was not accepted (a non-2xx answer). */
export type EventDelivery = (body: string, headers: Record<string, string>) => Promise<void>;

/** The app's own webhook, where a real provider would send its events too. */
export function webhookUrl(): string {
  return `${env.APP_URL.replace(/\/+$/, "")}/api/v1/webhooks/payment`;
}

/** Delivery by HTTP POST to `url` (the app's webhook by default). */
export function webhookDelivery(url: string = webhookUrl()): EventDelivery {
  return async (body, headers) => {
    const response = await fetch(url, { method: "POST", headers, body, redirect: "manual", signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`the webhook answered ${response.status} to a test provider event`);
  };
}

export interface TestProviderOptions {
  /** Where events go (default: POST to the app's webhook). Tests point it at their own server. */
  deliver?: EventDelivery;
  /** The signing secret (default: PAYMENT_WEBHOOK_SECRET, or the development secret). */
  secret?: string;
  /** The provider's own storage (default: the app's database handle, outside any app transaction). */
  db?: () => Executor;
}

const newId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString("base64url").replace(/[-_]/g, "x")}`;
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

function periodEnd(session: TestProviderSession): Date {
  return new Date((session.completedAt ?? session.createdAt).getTime() + TEST_PERIOD_DAYS * 24 * 60 * 60 * 1000);
}

function checkoutSessionObject(session: TestProviderSession): Record<string, unknown> {
  return {
    id: session.id,
    object: "checkout.session",
    mode: session.mode,
    status: session.status === "open" ? "open" : "complete",
    payment_status: session.status === "complete" ? "paid" : "unpaid",
    customer: session.customerId,
    payment_intent: session.mode === "payment" ? session.paymentIntentId : null,
    subscription: session.mode === "subscription" ? session.subscriptionId : null,
    amount_total: session.amountMinor,
    currency: session.currency.toLowerCase(),
    metadata: session.metadata,
    success_url: session.successUrl,
    cancel_url: session.cancelUrl,
  };
}

function paymentIntentObject(session: TestProviderSession, status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: session.paymentIntentId,
    object: "payment_intent",
    amount: session.amountMinor,
    amount_received: status === "succeeded" ? session.amountMinor : 0,
    currency: session.currency.toLowerCase(),
    customer: session.customerId,
    status,
    description: session.description,
    metadata: session.metadata,
    ...extra,
  };
}

function subscriptionObject(session: TestProviderSession, cancelAtPeriodEnd: boolean): Record<string, unknown> {
  const tier = session.metadata.tier ?? "PRO";
  return {
    id: session.subscriptionId,
    object: "subscription",
    customer: session.customerId,
    status: "active",
    cancel_at_period_end: cancelAtPeriodEnd,
    current_period_start: seconds(session.completedAt ?? session.createdAt),
    current_period_end: seconds(periodEnd(session)),
    metadata: session.metadata,
    items: {
      object: "list",
      data: [
        {
          id: `si_test_${session.subscriptionId?.slice("sub_test_".length) ?? "x"}`,
          object: "subscription_item",
          price: {
            id: `price_test_${tier.toLowerCase()}`,
            object: "price",
            unit_amount: session.amountMinor,
            currency: session.currency.toLowerCase(),
            recurring: { interval: "month", interval_count: 1 },
            metadata: { tier },
          },
        },
      ],
    },
  };
}

export interface TestProvider extends PaymentProvider {
  readonly name: "test";
  /** The hosted page's view of a session, or undefined for an unknown id. */
  getSession(sessionId: string): Promise<TestProviderSession | undefined>;
  /** Pay: completes an open session and sends its events; false when it was not open (nothing sent). */
  pay(sessionId: string): Promise<boolean>;
  /** Decline: sends payment_intent.payment_failed; the session stays open for another try (as Stripe's does). */
  decline(sessionId: string): Promise<boolean>;
}

export function createTestProvider(options: TestProviderOptions = {}): TestProvider {
  const deliver = options.deliver ?? webhookDelivery();
  const secret = () => options.secret ?? paymentWebhookSecret();
  const db = options.db ?? (() => getDatabase().db);

  async function send(type: string, object: Record<string, unknown>): Promise<PaymentEvent> {
    const event: PaymentEvent = { id: newId("evt"), object: "event", type, created: seconds(new Date()), livemode: false, data: { object } };
    const body = JSON.stringify(event);
    // A real provider retries a refused delivery for days; this one tries three times within a few
    // seconds (the Pay button waits for it), each attempt signed afresh, before giving up.
    for (let attempt = 1; ; attempt++) {
      try {
        await deliver(body, { "content-type": "application/json", "payment-signature": signPaymentPayload(body, secret()), "user-agent": "TagService-TestProvider/1.0" });
        return event;
      } catch (error) {
        if (attempt >= DELIVERY_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
      }
    }
  }

  async function sessionById(sessionId: string) {
    const [session] = await db().select().from(schema.testProviderSessions).where(eq(schema.testProviderSessions.id, sessionId));
    return session;
  }

  return {
    name: "test",

    async createCheckoutSession(input: CheckoutSessionInput): Promise<CheckoutSession> {
      const id = newId("cs");
      const inserted = await db()
        .insert(schema.testProviderSessions)
        .values({
          id,
          mode: input.mode,
          amountMinor: input.amountMinor,
          currency: input.currency.toUpperCase(),
          customerId: input.customerId ?? newId("cus"),
          description: input.description,
          metadata: { ...input.metadata, userId: input.userId },
          successUrl: input.successUrl,
          cancelUrl: input.cancelUrl,
          paymentIntentId: input.mode === "payment" ? newId("pi") : null,
          idempotencyKey: input.idempotencyKey,
        })
        .onConflictDoNothing({ target: schema.testProviderSessions.idempotencyKey })
        .returning();
      // A retried call with the same key answers the session the first one made, as a real provider does.
      const session = inserted[0] ?? (await db().select().from(schema.testProviderSessions).where(eq(schema.testProviderSessions.idempotencyKey, input.idempotencyKey)))[0];
      if (!session) throw new Error("test provider: the session was neither created nor found");
      return { id: session.id, url: `${env.APP_URL.replace(/\/+$/, "")}/checkout/test/${session.id}` };
    },

    async refund(input: RefundInput): Promise<RefundResult> {
      const [session] = await db().select().from(schema.testProviderSessions).where(eq(schema.testProviderSessions.paymentIntentId, input.paymentIntentId));
      if (!session || session.status !== "complete") {
        // As a real provider refuses a refund of a payment it does not know (or that never completed): a 502 for
        // the caller, the provider's own words in the log.
        const providerMessage = session ? `Payment ${input.paymentIntentId} has not completed; there is nothing to refund.` : `No such payment_intent: '${input.paymentIntentId}'`;
        log.warn("payment provider call failed", { provider: "test", operation: "refunds.create", providerMessage, retryable: false });
        throw new PaymentProviderError(undefined, { provider: "test", retryable: false, providerCode: session ? "charge_not_succeeded" : "resource_missing" });
      }
      if (session.refundId) return { id: session.refundId, status: "succeeded" };
      const refundId = newId("re");
      const [updated] = await db()
        .update(schema.testProviderSessions)
        .set({ refundId, refundedMinor: input.amountMinor ?? session.amountMinor, refundedAt: new Date() })
        .where(and(eq(schema.testProviderSessions.id, session.id), isNull(schema.testProviderSessions.refundId)))
        .returning();
      // Two refunds of one payment at once: the first recorded wins and both answer it.
      return { id: updated?.refundId ?? (await sessionById(session.id))!.refundId!, status: "succeeded" };
    },

    async cancelSubscriptionAtPeriodEnd(subscriptionId: string): Promise<{ currentPeriodEnd: Date }> {
      const [session] = await db()
        .select()
        .from(schema.testProviderSessions)
        .where(and(eq(schema.testProviderSessions.subscriptionId, subscriptionId), eq(schema.testProviderSessions.status, "complete")));
      if (!session) throw new Error(`test provider: no subscription ${subscriptionId}`);
      await send("customer.subscription.updated", subscriptionObject(session, true));
      // In whole seconds, as its events (and Stripe's answers) carry it, so the answer and the event agree.
      return { currentPeriodEnd: new Date(seconds(periodEnd(session)) * 1000) };
    },

    getSession: sessionById,

    async pay(sessionId: string): Promise<boolean> {
      const [session] = await db()
        .update(schema.testProviderSessions)
        .set({ status: "complete", completedAt: new Date() })
        .where(and(eq(schema.testProviderSessions.id, sessionId), eq(schema.testProviderSessions.status, "open")))
        .returning();
      if (!session) return false;
      const completed =
        session.mode === "subscription"
          ? ((await db().update(schema.testProviderSessions).set({ subscriptionId: newId("sub") }).where(eq(schema.testProviderSessions.id, session.id)).returning())[0] ?? session)
          : session;
      await send("checkout.session.completed", checkoutSessionObject(completed));
      if (completed.mode === "payment") await send("payment_intent.succeeded", paymentIntentObject(completed, "succeeded"));
      else await send("customer.subscription.created", subscriptionObject(completed, false));
      return true;
    },

    async decline(sessionId: string): Promise<boolean> {
      const session = await sessionById(sessionId);
      if (!session || session.status !== "open") return false;
      if (session.mode === "payment") {
        await send(
          "payment_intent.payment_failed",
          paymentIntentObject(session, "requires_payment_method", {
            last_payment_error: { type: "card_error", code: "card_declined", decline_code: "generic_decline", message: DECLINE_MESSAGE },
          }),
        );
      }
      return true;
    },
  };
}

let defaultProvider: TestProvider | undefined;

/** The test provider the app uses: events to the app's own webhook. */
export function testProvider(): TestProvider {
  defaultProvider ??= createTestProvider();
  return defaultProvider;
}
