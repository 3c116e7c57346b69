import { describe, expect, it } from "vitest";
import { isPaymentEventType, paymentEvents } from "@/lib/services/payment-events";

/** The provider's events the app acts on; any other type is stored and marked IGNORED. */
const HANDLED = [
  "checkout.session.completed",
  "payment_intent.succeeded",
  "payment_intent.payment_failed",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
];

describe("the payment events table", () => {
  it("gives each event type the app acts on a schema and a handler, and lists no other", () => {
    expect(Object.keys(paymentEvents).sort()).toEqual([...HANDLED].sort());
    for (const [type, entry] of Object.entries(paymentEvents)) {
      expect(typeof entry.schema?.safeParse, `${type}: schema`).toBe("function");
      expect(typeof entry.handle, `${type}: handler`).toBe("function");
    }
  });

  it("knows its own types and nothing inherited", () => {
    for (const type of HANDLED) expect(isPaymentEventType(type), type).toBe(true);
    for (const type of ["test.unhandled", "toString", "__proto__", "constructor", "charge.refunded"]) expect(isPaymentEventType(type), type).toBe(false);
  });

  it("reads every type's event in the provider's envelope: an id is required", () => {
    for (const [type, entry] of Object.entries(paymentEvents)) {
      expect(entry.schema.safeParse({ type, data: { object: { id: "obj_1" } } }).success, type).toBe(false);
    }
  });

  it("reads an order event's fields of the wrong kind as absent", () => {
    const parsed = paymentEvents["checkout.session.completed"].schema.parse({
      id: "evt_1",
      type: "checkout.session.completed",
      data: { object: { id: 5, mode: 7, metadata: "nope", customer: "x".repeat(501), payment_intent: "pi_1" } },
    });
    expect(parsed.data.object).toEqual({
      id: null,
      mode: null,
      payment_status: null,
      customer: null,
      payment_intent: "pi_1",
      metadata: { orderId: null, userId: null },
    });
    const intent = paymentEvents["payment_intent.payment_failed"].schema.parse({
      id: "evt_2",
      type: "payment_intent.payment_failed",
      data: { object: { id: "pi_2", metadata: { orderId: "0F8FAD5B-D9CB-469F-A165-70867728950E" }, last_payment_error: { message: "" } } },
    });
    expect(intent.data.object).toMatchObject({ id: "pi_2", metadata: { orderId: "0f8fad5b-d9cb-469f-a165-70867728950e", userId: null }, last_payment_error: { message: null } });
  });
});
