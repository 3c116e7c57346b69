import { describe, expect, it } from "vitest";
import { buildEnv } from "@/lib/env";
import { signTwilioRequest } from "@/lib/telephony/signature";
import { configuredTwilioProvider, createTwilioProvider } from "@/lib/telephony/twilio";

const twilioEnv = { TWILIO_ACCOUNT_SID: "AC00000000000000000000000000000000", TWILIO_AUTH_TOKEN: "auth-token-0123456789", TWILIO_RELAY_NUMBER: "+14155550100" };

describe("the Twilio adapter", () => {
  it("is configured by the three TWILIO_* variables only", () => {
    expect(configuredTwilioProvider(buildEnv({ NODE_ENV: "development" }))).toBeNull();
    const provider = configuredTwilioProvider(buildEnv({ NODE_ENV: "development", ...twilioEnv }));
    expect(provider?.name).toBe("twilio");
    expect(provider?.relayNumber).toBe("+14155550100");
  });

  it("texts through the SDK client's messages.create from the relay number", async () => {
    const sent: unknown[] = [];
    // The SDK's REST client is the outside system here: a stand-in records what the adapter asks of it.
    const client = { messages: { create: async (options: unknown) => (sent.push(options), { sid: "SM0123456789abcdef0123456789abcdef" }) } };
    const provider = createTwilioProvider({ accountSid: twilioEnv.TWILIO_ACCOUNT_SID, authToken: twilioEnv.TWILIO_AUTH_TOKEN, relayNumber: twilioEnv.TWILIO_RELAY_NUMBER, client: client as never });
    expect(await provider.sendSms({ to: "+4915123456789", body: "Your code is 123456." })).toEqual({ sid: "SM0123456789abcdef0123456789abcdef" });
    expect(sent).toEqual([{ from: "+14155550100", to: "+4915123456789", body: "Your code is 123456." }]);
  });

  it("verifies webhooks with the auth token, not another key", () => {
    const provider = configuredTwilioProvider(buildEnv({ NODE_ENV: "development", ...twilioEnv }))!;
    const url = "https://tags.example.com/api/v1/webhooks/telephony/sms";
    const params = { MessageSid: "SM1", From: "+4915123456789", To: "+14155550100", Body: "482913 found your dog" };
    expect(provider.verifyWebhook({ signature: signTwilioRequest(twilioEnv.TWILIO_AUTH_TOKEN, url, params), url, params })).toBe(true);
    expect(provider.verifyWebhook({ signature: signTwilioRequest("another-secret-0123456789", url, params), url, params })).toBe(false);
  });
});
