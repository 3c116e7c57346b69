import twilio from "twilio";
import { createTestNetwork, type WebhookRequest, type WebhookTransport } from "@/lib/telephony/test-network";
import { createTestTelephonyProvider } from "@/lib/telephony/test-provider";
import type { WebhookParams } from "@/lib/telephony/types";

/**
 * A small stand-in for the app's relay webhooks that answers the TwiML contract (docs/relay.md) for one
 * tag (PIN 123456, item "Rex") and one owner: it checks each request's signature with the test provider's
 * own verifyWebhook, records what it received and answers TwiML built with the twilio SDK. Tests of the
 * test telephony network use it to check the network's side alone.
 */

export const FIXTURE_APP_URL = "http://app.test";
export const FIXTURE_RELAY = "+15005550006";
export const FIXTURE_PIN = "123456";
const HOOKS_PATH = "/api/v1/webhooks/telephony";

export interface Received {
  path: string;
  params: WebhookParams;
}

export function fixtureApp(owner: string, options: { whisper?: boolean; appUrl?: string } = {}) {
  const appUrl = options.appUrl ?? FIXTURE_APP_URL;
  const HOOKS = `${appUrl}${HOOKS_PATH}`;
  const RELAY = FIXTURE_RELAY;
  const PIN = FIXTURE_PIN;
  const provider = createTestTelephonyProvider({ relayNumber: RELAY });
  const received: Received[] = [];
  const transport: WebhookTransport = async ({ url, method, params, signature }: WebhookRequest) => {
    if (method !== "POST" || !provider.verifyWebhook({ signature, url, params })) return { status: 403, body: "forbidden" };
    const path = new URL(url).pathname + new URL(url).search;
    received.push({ path, params });
    const voice = new twilio.twiml.VoiceResponse();
    if (path === "/api/v1/webhooks/telephony/voice") {
      if (params.Digits === PIN) {
        voice.say("Connecting you.");
        const dial = voice.dial({ callerId: RELAY, action: `${HOOKS}/voice/status`, method: "POST", timeout: 25 });
        if (options.whisper === false) dial.number(owner);
        else dial.number({ url: `${HOOKS}/voice/whisper?leg=L1`, method: "POST" }, owner);
      } else {
        if (params.Digits) voice.say("That PIN is wrong.");
        const gather = voice.gather({ input: ["dtmf"], numDigits: 6, action: `${HOOKS}/voice`, method: "POST", timeout: 10 });
        gather.say({ language: params.FromCountry === "DE" ? "de-DE" : "en-US" }, "Enter the PIN.");
        voice.say("Goodbye.");
        voice.hangup();
      }
    } else if (path === "/api/v1/webhooks/telephony/voice/whisper?leg=L1") {
      const gather = voice.gather({ input: ["dtmf"], numDigits: 1, action: `${HOOKS}/voice/whisper?leg=L1&step=accept`, method: "POST", timeout: 8 });
      gather.say("A finder of Rex is calling through Tag Service; press 1 to accept.");
      voice.hangup();
    } else if (path === "/api/v1/webhooks/telephony/voice/whisper?leg=L1&step=accept") {
      if (params.Digits !== "1") voice.hangup();
    } else if (path === "/api/v1/webhooks/telephony/voice/status") {
      voice.hangup();
    } else if (path === "/api/v1/webhooks/telephony/sms") {
      const messaging = new twilio.twiml.MessagingResponse();
      if (params.Body?.startsWith(PIN)) messaging.message("Sent to the owner of Rex.");
      return { status: 200, body: messaging.toString() };
    } else {
      return { status: 404, body: "not found" };
    }
    return { status: 200, body: voice.toString() };
  };
  const network = createTestNetwork({ provider, transport, appUrl });
  return { network, received, transport };
}

