import twilio from "twilio";
import { env, twilioConfigured, type Env } from "@/lib/env";
import { traceOutgoing } from "@/lib/telemetry/tracing";
import { verifyTwilioRequest } from "./signature";
import type { SmsInput, TelephonyProvider, WebhookToVerify } from "./types";

export interface TwilioOptions {
  accountSid: string;
  authToken: string;
  relayNumber: string;
  /** The SDK's REST client; tests pass one pointed at their own server. */
  client?: Pick<twilio.Twilio, "messages">;
}

/** The Twilio adapter: texts through the SDK's `messages.create` from the relay number; webhooks checked with `twilio.validateRequest`. */
export function createTwilioProvider(options: TwilioOptions): TelephonyProvider {
  let client = options.client;
  const rest = () => (client ??= twilio(options.accountSid, options.authToken));
  return {
    name: "twilio",
    relayNumber: options.relayNumber,
    async sendSms(input: SmsInput) {
      const message = await traceOutgoing("twilio", "messages.create", () => rest().messages.create({ from: options.relayNumber, to: input.to, body: input.body }));
      return { sid: message.sid };
    },
    verifyWebhook(request: WebhookToVerify) {
      return verifyTwilioRequest(options.authToken, request.signature, request.url, request.params);
    },
  };
}

/** The adapter for the configured TWILIO_* variables, or null when they are not set. */
export function configuredTwilioProvider(e: Env = env): TelephonyProvider | null {
  if (!twilioConfigured(e)) return null;
  return createTwilioProvider({ accountSid: e.TWILIO_ACCOUNT_SID!, authToken: e.TWILIO_AUTH_TOKEN!, relayNumber: e.TWILIO_RELAY_NUMBER! });
}
