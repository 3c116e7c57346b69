import { createTestTelephonyProvider } from "./test-provider";
import { configuredTwilioProvider } from "./twilio";
import type { TelephonyProvider } from "./types";

export type { SmsInput, TelephonyProvider, WebhookParams, WebhookToVerify } from "./types";

let override: TelephonyProvider | undefined;

/**
 * The telephony provider the app talks to, chosen here alone: the Twilio adapter when the TWILIO_*
 * variables are set, else the built-in test provider (docs/relay.md).
 */
export function telephonyProvider(): TelephonyProvider {
  return override ?? configuredTwilioProvider() ?? createTestTelephonyProvider();
}

/** Tests: answers `provider` until called again without one (a failing provider, say). */
export function setTelephonyProviderForTests(provider?: TelephonyProvider): void {
  override = provider;
}
