import { describe, expect, it } from "vitest";
import {
  DAY_MS,
  HOUR_MS,
  MINUTE_MS,
  SECOND_MS,
  ipRateLimitKey,
  isRateLimitPolicyName,
  rateLimitPolicies,
  rateLimitPolicyNames,
  resolveRateLimitPolicies,
  scaleLimit,
  subjectIdentifier,
} from "@/lib/ratelimit/policies";
import { exactPolicies } from "@/lib/ratelimit";
import { finderThreadEndpoints } from "@/lib/http/endpoints/finder-threads";

describe("rate limit policy table", () => {
  it("holds the specification's limits, windows and keys", () => {
    const table = Object.fromEntries(rateLimitPolicyNames.map((name) => [name, { limit: rateLimitPolicies[name].limit, windowMs: rateLimitPolicies[name].windowMs, keyBy: rateLimitPolicies[name].keyBy }]));
    expect(table).toEqual({
      general: { limit: 100, windowMs: MINUTE_MS, keyBy: "caller" },
      auth: { limit: 10, windowMs: MINUTE_MS, keyBy: "ip" },
      publicScan: { limit: 30, windowMs: MINUTE_MS, keyBy: "ip" },
      emergencyScan: { limit: 5, windowMs: MINUTE_MS, keyBy: "ip" },
      productsListing: { limit: 30, windowMs: MINUTE_MS, keyBy: "ip" },
      vinVerify: { limit: 10, windowMs: MINUTE_MS, keyBy: "ip" },
      registration: { limit: 5, windowMs: HOUR_MS, keyBy: "ip" },
      passwordReset: { limit: 3, windowMs: HOUR_MS, keyBy: "ip" },
      contactForm: { limit: 3, windowMs: HOUR_MS, keyBy: "ip" },
      newsletterSignup: { limit: 10, windowMs: HOUR_MS, keyBy: "ip" },
      newsletterUnsubscribe: { limit: 600, windowMs: MINUTE_MS, keyBy: "ip" },
      finderContact: { limit: 10, windowMs: HOUR_MS, keyBy: "ip" },
      finderReplies: { limit: 30, windowMs: 10 * MINUTE_MS, keyBy: "ip" },
      finderLinkEmailsByAddress: { limit: 3, windowMs: DAY_MS, keyBy: "key" },
      finderEmailOptIns: { limit: 10, windowMs: HOUR_MS, keyBy: "ip" },
      finderThreadStreams: { limit: 60, windowMs: 10 * MINUTE_MS, keyBy: "ip" },
      paymentWebhook: { limit: 6000, windowMs: MINUTE_MS, keyBy: "ip" },
      emailProviderSends: { limit: 2, windowMs: SECOND_MS, keyBy: "key" },
      accountLoginFailures: { limit: 10, windowMs: 15 * MINUTE_MS, keyBy: "key" },
      transferOffersBySender: { limit: 20, windowMs: DAY_MS, keyBy: "key" },
      transferOffersByRecipient: { limit: 3, windowMs: DAY_MS, keyBy: "key" },
      phoneCodeSends: { limit: 5, windowMs: HOUR_MS, keyBy: "caller" },
      phoneCodeSendsByNumber: { limit: 5, windowMs: DAY_MS, keyBy: "key" },
      phoneCodeChecks: { limit: 20, windowMs: HOUR_MS, keyBy: "caller" },
      telephonyWebhook: { limit: 6000, windowMs: MINUTE_MS, keyBy: "ip" },
      relayPinGuesses: { limit: 3, windowMs: HOUR_MS, keyBy: "key" },
      relayFinderContacts: { limit: 10, windowMs: HOUR_MS, keyBy: "key" },
      relayOwnerCalls: { limit: 20, windowMs: DAY_MS, keyBy: "key" },
    });
  });

  it("keeps the provider's send rate as EMAIL_SEND_RATE says, whatever RATE_LIMIT_MULTIPLIER scales", () => {
    const resolved = resolveRateLimitPolicies(1000, exactPolicies({ EMAIL_SEND_RATE: 3 }));
    expect(resolved.emailProviderSends).toMatchObject({ limit: 3, windowMs: SECOND_MS, keyBy: "key" });
    expect(resolved.general.limit).toBe(100_000);
    expect(resolveRateLimitPolicies(1, exactPolicies({ EMAIL_SEND_RATE: 3 }, { emailProviderSends: { limit: 7 } })).emailProviderSends.limit).toBe(7);
  });

  it("gives the finder API's contact and reply endpoints the finder pages' limits (the page actions take them from there)", () => {
    expect(finderThreadEndpoints.contact.rateLimit).toEqual(["general", "finderContact"]);
    expect(finderThreadEndpoints.reply.rateLimit).toEqual(["general", "finderReplies"]);
    expect(rateLimitPolicies.finderContact.appliesTo).toContain("POST /scan/:encryptedId/contact");
    expect(rateLimitPolicies.finderReplies.appliesTo).toContain("POST /scan/thread/:token/reply");
  });

  it("recognises policy names", () => {
    expect(isRateLimitPolicyName("general")).toBe(true);
    expect(isRateLimitPolicyName("accountLoginFailures")).toBe(true);
    expect(isRateLimitPolicyName("toString")).toBe(false);
    expect(isRateLimitPolicyName("nope")).toBe(false);
  });
});

describe("scaling by RATE_LIMIT_MULTIPLIER", () => {
  it("rounds the scaled limit and keeps it at least 1", () => {
    expect(scaleLimit(100, 1)).toBe(100);
    expect(scaleLimit(100, 10)).toBe(1000);
    expect(scaleLimit(3, 1.5)).toBe(5); // 4.5 rounds up
    expect(scaleLimit(5, 0.5)).toBe(3); // 2.5 rounds up
    expect(scaleLimit(10, 0.33)).toBe(3);
    expect(scaleLimit(3, 0.1)).toBe(1); // 0.3 would round to 0
    expect(scaleLimit(3, 0.0001)).toBe(1);
  });

  it("refuses a multiplier that is not a positive number", () => {
    expect(() => scaleLimit(10, 0)).toThrow(RangeError);
    expect(() => scaleLimit(10, -1)).toThrow(RangeError);
    expect(() => scaleLimit(10, Number.NaN)).toThrow(RangeError);
    expect(() => resolveRateLimitPolicies(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it("scales every policy of the table and keeps windows and keys", () => {
    const scaled = resolveRateLimitPolicies(2);
    for (const name of rateLimitPolicyNames) {
      expect(scaled[name]).toEqual({
        name,
        limit: rateLimitPolicies[name].limit * 2,
        windowMs: rateLimitPolicies[name].windowMs,
        keyBy: rateLimitPolicies[name].keyBy,
      });
    }
    const tiny = resolveRateLimitPolicies(0.01);
    expect(tiny.general.limit).toBe(1);
    expect(tiny.passwordReset.limit).toBe(1);
  });

  it("applies overrides exactly, without scaling", () => {
    const policies = resolveRateLimitPolicies(10, { auth: { limit: 2 }, general: { windowMs: 250 } });
    expect(policies.auth).toEqual({ name: "auth", limit: 2, windowMs: MINUTE_MS, keyBy: "ip" });
    expect(policies.general).toEqual({ name: "general", limit: 1000, windowMs: 250, keyBy: "caller" });
    expect(() => resolveRateLimitPolicies(1, { auth: { limit: 0 } })).toThrow(RangeError);
    expect(() => resolveRateLimitPolicies(1, { auth: { windowMs: 0.5 } })).toThrow(RangeError);
  });
});

describe("subject identifiers", () => {
  const policies = resolveRateLimitPolicies(1);

  it("counts caller policies per user when signed in, else per IP", () => {
    expect(subjectIdentifier(policies.general, { ip: "203.0.113.7", userId: "u-1" })).toBe("user:u-1");
    expect(subjectIdentifier(policies.general, { ip: "203.0.113.7", userId: null })).toBe("ip:203.0.113.7");
    expect(subjectIdentifier(policies.general, { ip: "203.0.113.7" })).toBe("ip:203.0.113.7");
  });

  it("counts IP policies per IP whoever is signed in", () => {
    expect(subjectIdentifier(policies.auth, { ip: "198.51.100.4", userId: "u-1" })).toBe("ip:198.51.100.4");
    expect(subjectIdentifier(policies.publicScan, { ip: "203.0.113.7", key: "ignored" })).toBe("ip:203.0.113.7");
  });

  it("counts an IPv6 client by its /64, so rotating addresses inside one subscriber's prefix gains nothing", () => {
    const key = (ip: string) => subjectIdentifier(policies.auth, { ip });
    expect(key("2001:db8:aa:bb::1")).toBe("ip:2001:db8:aa:bb::/64");
    expect(key("2001:0db8:00aa:00bb:ffff:1:2:3")).toBe(key("2001:db8:aa:bb::1"));
    expect(key("2001:db8:aa:bc::1")).not.toBe(key("2001:db8:aa:bb::1"));
    expect(key("::ffff:203.0.113.7")).toBe("ip:203.0.113.7");
    expect(key("::ffff:203.0.113.8")).not.toBe(key("::ffff:203.0.113.7"));
    expect(subjectIdentifier(policies.general, { ip: "2001:db8::7" })).toBe("ip:2001:db8:0:0::/64");
    expect(ipRateLimitKey("unknown")).toBe("unknown");
  });

  it("counts key policies per key and requires one", () => {
    expect(subjectIdentifier(policies.accountLoginFailures, { ip: "203.0.113.7", key: "account-42" })).toBe("key:account-42");
    expect(() => subjectIdentifier(policies.accountLoginFailures, { ip: "203.0.113.7" })).toThrow(/keyed by an explicit key/);
    expect(subjectIdentifier(policies.transferOffersByRecipient, { ip: "203.0.113.7", userId: "u-1", key: "someone@example.com" })).toBe("key:someone@example.com");
    expect(() => subjectIdentifier(policies.transferOffersBySender, { ip: "203.0.113.7", userId: "u-1" })).toThrow(/keyed by an explicit key/);
  });
});
