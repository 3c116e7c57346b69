import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signPaymentPayload, verifyPaymentSignature } from "@/lib/payments/signature";

const secret = "whsec_current_0123456789abcdef";
const previous = "whsec_previous_fedcba9876543210";
const body = JSON.stringify({ id: "evt_1", type: "checkout.session.completed", data: { object: { id: "cs_1" } } });
const now = 1_790_000_000;

/** The v1 value computed independently of the module: HMAC-SHA256(secret, "<t>.<body>") in hex. */
const v1 = (key: string, t: number, payload = body) => createHmac("sha256", key).update(`${t}.${payload}`).digest("hex");

describe("verifyPaymentSignature", () => {
  it("accepts what signPaymentPayload makes, which is t=<seconds>,v1=<hex HMAC of '<t>.<body>'>", () => {
    const header = signPaymentPayload(body, secret, now);
    expect(header).toBe(`t=${now},v1=${v1(secret, now)}`);
    expect(verifyPaymentSignature(body, header, [secret], { now })).toEqual({ ok: true, timestamp: now });
  });

  it("refuses a missing or empty header", () => {
    expect(verifyPaymentSignature(body, null, [secret], { now })).toEqual({ ok: false, reason: "missing" });
    expect(verifyPaymentSignature(body, "  ", [secret], { now })).toEqual({ ok: false, reason: "missing" });
  });

  it.each([
    ["no timestamp", `v1=${v1(secret, now)}`],
    ["no v1", `t=${now}`],
    ["a timestamp that is not a number", `t=soon,v1=${v1(secret, now)}`],
    ["two timestamps", `t=${now},t=${now},v1=${v1(secret, now)}`],
    ["a v1 that is not 64 hex digits", `t=${now},v1=abc`],
    ["a part without =", `t=${now},v1`],
    ["garbage", "Bearer abc"],
  ])("refuses a malformed header: %s", (_, header) => {
    expect(verifyPaymentSignature(body, header, [secret], { now })).toEqual({ ok: false, reason: "malformed" });
  });

  it("refuses a signature made with another secret", () => {
    expect(verifyPaymentSignature(body, signPaymentPayload(body, "whsec_someone_else_000000", now), [secret], { now })).toEqual({ ok: false, reason: "mismatch" });
  });

  it("refuses a tampered body, or the same signature under another timestamp", () => {
    const header = signPaymentPayload(body, secret, now);
    expect(verifyPaymentSignature(body.replace("cs_1", "cs_2"), header, [secret], { now })).toEqual({ ok: false, reason: "mismatch" });
    expect(verifyPaymentSignature(body, `t=${now - 1},v1=${v1(secret, now)}`, [secret], { now })).toEqual({ ok: false, reason: "mismatch" });
  });

  it("accepts within 300 s either side and refuses beyond", () => {
    for (const t of [now - 300, now + 300]) expect(verifyPaymentSignature(body, signPaymentPayload(body, secret, t), [secret], { now }).ok).toBe(true);
    for (const t of [now - 301, now + 301]) expect(verifyPaymentSignature(body, signPaymentPayload(body, secret, t), [secret], { now })).toEqual({ ok: false, reason: "stale" });
  });

  it("accepts a header with several v1 values when any one matches, and ignores other schemes", () => {
    const header = `t=${now},v1=${v1("whsec_old_one_00000000", now)},v0=${"0".repeat(64)},v1=${v1(secret, now)}`;
    expect(verifyPaymentSignature(body, header, [secret], { now }).ok).toBe(true);
    expect(verifyPaymentSignature(body, `t=${now},v1=${v1(secret, now).toUpperCase()}`, [secret], { now }).ok).toBe(true);
  });

  it("accepts the previous secret during a rotation, and not once it is dropped", () => {
    const header = signPaymentPayload(body, previous, now);
    expect(verifyPaymentSignature(body, header, [secret, previous], { now }).ok).toBe(true);
    expect(verifyPaymentSignature(body, header, [secret], { now })).toEqual({ ok: false, reason: "mismatch" });
  });

  it("signs the raw bytes: re-serialised JSON with other spacing does not verify", () => {
    const header = signPaymentPayload(body, secret, now);
    expect(verifyPaymentSignature(JSON.stringify(JSON.parse(body), null, 2), header, [secret], { now }).ok).toBe(false);
  });
});
