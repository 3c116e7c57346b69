/**
 * The telephony provider behind one interface (issue 27, docs/relay.md): the Twilio adapter (`twilio.ts`,
 * the official SDK) when the TWILIO_* variables are set, else the built-in test provider
 * (`test-provider.ts`), which records what it delivers and signs its webhooks in Twilio's own scheme, so
 * one verification (`twilio.validateRequest`) serves both.
 */

/** Webhook parameters as Twilio posts them (form-encoded name → value). */
export type WebhookParams = Record<string, string>;

export interface SmsInput {
  /** E.164. */
  to: string;
  body: string;
}

export interface WebhookToVerify {
  /** The X-Twilio-Signature header (null when absent: never valid). */
  signature: string | null;
  /** The full URL the provider posted to (the public one: APP_URL + path behind a proxy). */
  url: string;
  params: WebhookParams;
}

export interface TelephonyProvider {
  readonly name: "twilio" | "test";
  /** The number finders call and text, and the one every relayed text and call comes from (E.164). */
  readonly relayNumber: string;
  /** Sends a text from the relay number; answers the provider's message id. */
  sendSms(input: SmsInput): Promise<{ sid: string }>;
  /** True when the webhook carries a valid signature for this URL and these parameters. */
  verifyWebhook(request: WebhookToVerify): boolean;
}
