import { describe, expect, it } from "vitest";
import { buildEnv, devMailboxEnabled, devPhoneEnabled, EnvironmentError, twilioConfigured } from "@/lib/env";
import { DEVELOPMENT_TELEPHONY_SECRET, telephonyWebhookSecret } from "@/lib/secrets";

const productionSecrets = {
  AUTH_SECRET: "a".repeat(32),
  PAYMENT_WEBHOOK_SECRET: "whsec_0123456789abcdef",
  VAPID_PUBLIC_KEY: "B".repeat(87),
  VAPID_PRIVATE_KEY: "c".repeat(43),
  VAPID_SUBJECT: "mailto:ops@example.com",
};

describe("configuration", () => {
  it("applies the documented defaults", () => {
    const env = buildEnv({ NODE_ENV: "development" });
    expect(env.APP_URL).toBe("http://localhost:3000");
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.TRUST_PROXY).toBe(0);
    expect(env.API_KEY_ENV).toBe("development");
    expect(env.RATE_LIMIT_MULTIPLIER).toBe(1);
    expect(env.PUSH_ALLOW_PRIVATE_ENDPOINTS).toBe(false);
    expect(env.DATA_DIR).toBe("./.data");
    expect(env.DATABASE_POOL_SIZE).toBe(10);
    expect(env.EMAIL_SEND_RATE).toBe(2);
  });

  it("refuses a production start without a required secret, naming it", () => {
    const { AUTH_SECRET: _omitted, ...withoutAuth } = productionSecrets;
    void _omitted;
    let thrown: unknown;
    try {
      buildEnv({ NODE_ENV: "production", ...withoutAuth });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(EnvironmentError);
    expect((thrown as EnvironmentError).variables).toEqual(["AUTH_SECRET"]);
    expect((thrown as Error).message).toContain("AUTH_SECRET is required in production");
  });

  it("accepts production with every secret, and `next build` without them", () => {
    expect(buildEnv({ NODE_ENV: "production", ...productionSecrets }).AUTH_SECRET).toBe(productionSecrets.AUTH_SECRET);
    expect(() => buildEnv({ NODE_ENV: "production", NEXT_PHASE: "phase-production-build" })).not.toThrow();
  });

  it("rejects malformed values with the variable's name", () => {
    expect(() => buildEnv({ NODE_ENV: "development", RATE_LIMIT_MULTIPLIER: "-2" })).toThrow(/RATE_LIMIT_MULTIPLIER/);
    expect(() => buildEnv({ NODE_ENV: "development", TRUST_PROXY: "maybe" })).toThrow(/TRUST_PROXY/);
    expect(() => buildEnv({ NODE_ENV: "development", TRUST_PROXY: "-1" })).toThrow(/TRUST_PROXY/);
    expect(() => buildEnv({ NODE_ENV: "development", TRUST_PROXY: "1.5" })).toThrow(/TRUST_PROXY/);
    for (const size of ["0", "1", "2.5", "many", "501"]) expect(() => buildEnv({ NODE_ENV: "development", DATABASE_POOL_SIZE: size })).toThrow(/DATABASE_POOL_SIZE/);
    expect(buildEnv({ NODE_ENV: "development", DATABASE_POOL_SIZE: "25" }).DATABASE_POOL_SIZE).toBe(25);
    for (const rate of ["0", "-1", "1.5", "fast", "1001"]) expect(() => buildEnv({ NODE_ENV: "development", EMAIL_SEND_RATE: rate })).toThrow(/EMAIL_SEND_RATE/);
    expect(buildEnv({ NODE_ENV: "development", EMAIL_SEND_RATE: "10" }).EMAIL_SEND_RATE).toBe(10);
  });

  it("reads TRUST_PROXY as the number of proxies in front: false 0, true 1, or N", () => {
    const trusted = (value?: string) => buildEnv({ NODE_ENV: "development", TRUST_PROXY: value }).TRUST_PROXY;
    expect(trusted(undefined)).toBe(0);
    expect(trusted("false")).toBe(0);
    expect(trusted("true")).toBe(1);
    expect(trusted("1")).toBe(1);
    expect(trusted("2")).toBe(2);
    expect(trusted("0")).toBe(0);
  });

  it("serves the development mailbox only with the outbox and outside production unless enabled", () => {
    expect(devMailboxEnabled(buildEnv({ NODE_ENV: "development" }))).toBe(true);
    expect(devMailboxEnabled(buildEnv({ NODE_ENV: "development", RESEND_API_KEY: "re_123" }))).toBe(false);
    expect(devMailboxEnabled(buildEnv({ NODE_ENV: "production", ...productionSecrets }))).toBe(false);
    expect(devMailboxEnabled(buildEnv({ NODE_ENV: "production", ...productionSecrets, ENABLE_DEV_MAILBOX: "true" }))).toBe(true);
  });

  it("takes the three Twilio variables together or not at all, and the test provider's relay number in E.164", () => {
    const twilio = { TWILIO_ACCOUNT_SID: "AC0123", TWILIO_AUTH_TOKEN: "token-0123", TWILIO_RELAY_NUMBER: "+14155552671" };
    expect(twilioConfigured(buildEnv({ NODE_ENV: "development", ...twilio }))).toBe(true);
    expect(twilioConfigured(buildEnv({ NODE_ENV: "development" }))).toBe(false);
    let thrown: unknown;
    try {
      buildEnv({ NODE_ENV: "development", TWILIO_ACCOUNT_SID: "AC0123" });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(EnvironmentError);
    expect((thrown as EnvironmentError).variables).toEqual(["TWILIO_AUTH_TOKEN", "TWILIO_RELAY_NUMBER"]);
    expect(() => buildEnv({ NODE_ENV: "development", ...twilio, TWILIO_RELAY_NUMBER: "415 555 2671" })).toThrow(/TWILIO_RELAY_NUMBER/);
    expect(buildEnv({ NODE_ENV: "development" }).TELEPHONY_RELAY_NUMBER).toBe("+15005550006");
    expect(() => buildEnv({ NODE_ENV: "development", TELEPHONY_RELAY_NUMBER: "0049" })).toThrow(/TELEPHONY_RELAY_NUMBER/);
  });

  it("signs test telephony webhooks with the development secret only outside production", () => {
    expect(telephonyWebhookSecret(buildEnv({ NODE_ENV: "development" }))).toBe(DEVELOPMENT_TELEPHONY_SECRET);
    expect(telephonyWebhookSecret(buildEnv({ NODE_ENV: "development", TELEPHONY_WEBHOOK_SECRET: "s".repeat(20) }))).toBe("s".repeat(20));
    expect(() => telephonyWebhookSecret(buildEnv({ NODE_ENV: "production", ...productionSecrets }))).toThrow(/TELEPHONY_WEBHOOK_SECRET/);
    expect(telephonyWebhookSecret(buildEnv({ NODE_ENV: "production", ...productionSecrets, TELEPHONY_WEBHOOK_SECRET: "p".repeat(24) }))).toBe("p".repeat(24));
    expect(() => buildEnv({ NODE_ENV: "development", TELEPHONY_WEBHOOK_SECRET: "short" })).toThrow(/TELEPHONY_WEBHOOK_SECRET/);
  });

  it("serves the development phone with the mailbox's switch, and only with the test telephony provider", () => {
    expect(devPhoneEnabled(buildEnv({ NODE_ENV: "development" }))).toBe(true);
    expect(devPhoneEnabled(buildEnv({ NODE_ENV: "development", TWILIO_ACCOUNT_SID: "AC0123", TWILIO_AUTH_TOKEN: "t", TWILIO_RELAY_NUMBER: "+14155552671" }))).toBe(false);
    expect(devPhoneEnabled(buildEnv({ NODE_ENV: "production", ...productionSecrets }))).toBe(false);
    expect(devPhoneEnabled(buildEnv({ NODE_ENV: "production", ...productionSecrets, ENABLE_DEV_MAILBOX: "true" }))).toBe(true);
    expect(devPhoneEnabled(buildEnv({ NODE_ENV: "development", ENABLE_DEV_MAILBOX: "false" }))).toBe(false);
  });
});
