import { z } from "zod";
import { defineEndpoint } from "../endpoint";

/** Twilio's form parameters the relay reads (others are accepted and signed over, unread). */
const voiceForm = z.object({
  CallSid: z.string().meta({ description: "The call's sid (CA + 32 hex digits)", example: "CA0123456789abcdef0123456789abcdef" }),
  AccountSid: z.string().optional(),
  From: z.string().optional().meta({ description: "The caller (E.164)" }),
  To: z.string().optional(),
  FromCountry: z.string().optional().meta({ description: "ISO country of the caller's number: the prompts' language (en, de, fr, es; else English)" }),
  Digits: z.string().optional().meta({ description: "What the caller typed at the Gather (the PIN; the owner's 1 at the whisper)" }),
  ParentCallSid: z.string().optional(),
  DialCallStatus: z.string().optional().meta({ description: "On /voice/status: completed | no-answer | busy | failed | canceled" }),
  DialCallDuration: z.string().optional().meta({ description: "On /voice/status: seconds of the bridged call, when completed" }),
});

const smsForm = z.object({
  MessageSid: z.string().meta({ description: "The text's sid (SM + 32 hex digits)", example: "SM0123456789abcdef0123456789abcdef" }),
  AccountSid: z.string().optional(),
  From: z.string().meta({ description: "The sender (E.164)" }),
  To: z.string().optional(),
  Body: z.string().meta({ description: "`<PIN> <text>` from a finder; from the owner's verified number, an answer (`<code> <text>` to pick a conversation); STOP, START, HELP and carriers' synonyms" }),
  NumMedia: z.string().optional(),
});

const signatureHeaders = z.object({
  "x-twilio-signature": z.string().meta({
    description: "Twilio's signature: base64 HMAC-SHA1, keyed by the auth token (the test provider: TELEPHONY_WEBHOOK_SECRET), of the full URL followed by every POST parameter sorted by name, each name then value (docs/relay.md)",
    example: "0/KCTR6DLpKmkAf8muzZqo1nDgQ=",
  }),
});

const common =
  " Auth is the `X-Twilio-Signature` header alone, over the public URL (`APP_URL` + path behind `TRUST_PROXY`): missing or wrong is 403. A body without the sid parameter is 400; over 64 KB is 413. Each sid and step is answered once: a replay gets the same TwiML and has no second effect. Counted per IP by the `telephonyWebhook` limit.";

function telephonyWebhook<const Path extends string>(operationId: string, path: Path, summary: string, description: string, form: z.ZodType) {
  return defineEndpoint({
    operationId,
    method: "POST",
    path,
    summary,
    description: description + common,
    tags: ["Phone relay"],
    auth: "public",
    credentials: false,
    rateLimit: ["telephonyWebhook"],
    headers: signatureHeaders,
    rawBody: { mediaType: "application/x-www-form-urlencoded", schema: form },
    bodyLimitBytes: 64 * 1024,
    responseKind: "xml",
    errors: ["FORBIDDEN", "VALIDATION_ERROR", "PAYLOAD_TOO_LARGE"],
  });
}

/** The phone relay's webhooks (docs/relay.md): Twilio's form-encoded posts, answered with TwiML. */
export const telephonyEndpoints = {
  voice: telephonyWebhook(
    "receiveRelayCall",
    "/api/v1/webhooks/telephony/voice",
    "A call to the relay number (Twilio voice webhook)",
    "Without `Digits`: a Gather for the tag's 6-digit PIN, spoken in the caller's language. With a valid PIN of a relay that is on, inside the owner's hours and not blocked: Dial the owner from the relay number, with a whisper first. A wrong PIN gathers again; the third wrong PIN from a number within an hour hangs up, and the number waits. Relay off, quiet hours or a blocked number: the owner cannot take calls now, Hangup.",
    voiceForm,
  ),
  whisper: telephonyWebhook(
    "receiveRelayWhisper",
    "/api/v1/webhooks/telephony/voice/whisper",
    "The owner answered a relayed call (the Dial's Number url)",
    "`?leg=<id>`: says which item's finder is calling and gathers 1 to accept; `&step=accept` with `Digits=1` answers an empty Response (the legs are bridged), anything else Hangup.",
    voiceForm,
  ),
  status: telephonyWebhook(
    "receiveRelayCallStatus",
    "/api/v1/webhooks/telephony/voice/status",
    "A relayed call ended (the Dial's action)",
    "Records the call in the conversation (answered with its length, or missed) and notifies the owner (CALL_RECEIVED or CALL_MISSED); answers Hangup.",
    voiceForm,
  ),
  sms: telephonyWebhook(
    "receiveRelayText",
    "/api/v1/webhooks/telephony/sms",
    "A text to the relay number (Twilio messaging webhook)",
    "A finder's `<PIN> <text>` reaches the owner's phone from the relay number, prefixed with the item's name and the conversation's code, and lands in the conversation (MESSAGE_RECEIVED); the finder gets a confirmation. The owner's text goes to the finder who texted last within 7 days (with several, `<code> <text>` picks one). STOP/START/HELP answered as carriers require.",
    smsForm,
  ),
};
