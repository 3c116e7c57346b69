import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { signTwilioRequest, verifyTwilioRequest } from "@/lib/telephony/signature";
import { createTestTelephonyProvider } from "@/lib/telephony/test-provider";

const secret = "telephony_test_secret_0123456789";
const url = "https://tags.example.com/api/v1/webhooks/telephony/voice";
const params = { CallSid: "CA0123456789abcdef0123456789abcdef", From: "+14155552671", To: "+15005550006", Digits: "482913", AccountSid: "AC_test" };

describe("Twilio's webhook signature, as the test telephony provider signs", () => {
  it("is what the SDK computes: base64 HMAC-SHA1 of the URL and the parameters sorted by name", () => {
    expect(signTwilioRequest(secret, url, params)).toBe(twilio.getExpectedTwilioSignature(secret, url, params));
    // Parameter order does not matter: they are sorted by name.
    const reversed = Object.fromEntries(Object.entries(params).reverse());
    expect(signTwilioRequest(secret, url, reversed)).toBe(signTwilioRequest(secret, url, params));
  });

  it("is accepted by twilio.validateRequest, and refused for a changed parameter, URL or secret", () => {
    const signature = signTwilioRequest(secret, url, params);
    expect(twilio.validateRequest(secret, signature, url, params)).toBe(true);
    expect(twilio.validateRequest(secret, signature, url, { ...params, Digits: "482914" })).toBe(false);
    expect(twilio.validateRequest(secret, signature, url, { ...params, Extra: "1" })).toBe(false);
    expect(twilio.validateRequest(secret, signature, `${url}/status`, params)).toBe(false);
    expect(twilio.validateRequest(secret, signature, "https://evil.example.com/api/v1/webhooks/telephony/voice", params)).toBe(false);
    expect(twilio.validateRequest(`${secret}x`, signature, url, params)).toBe(false);
  });

  it("verifies through the provider interface; a missing signature is never valid", () => {
    const provider = createTestTelephonyProvider({ secret, relayNumber: "+15005550006" });
    const signature = provider.signWebhook(url, params);
    expect(provider.verifyWebhook({ signature, url, params })).toBe(true);
    expect(provider.verifyWebhook({ signature, url, params: { ...params, From: "+14155552672" } })).toBe(false);
    expect(provider.verifyWebhook({ signature: null, url, params })).toBe(false);
    expect(verifyTwilioRequest(secret, "", url, params)).toBe(false);
    expect(provider.relayNumber).toBe("+15005550006");
    expect(provider.name).toBe("test");
  });
});
