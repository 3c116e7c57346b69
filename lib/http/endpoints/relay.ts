import { rateLimitPolicies } from "@/lib/ratelimit/policies";
import { phoneCodeSentSchema, relaySettingsSchema, requestPhoneCodeInput, updateRelayInput, verifiedPhoneSchema, verifyPhoneCodeInput } from "@/lib/services/relay";
import { defineEndpoint } from "../endpoint";
import { idParams } from "../params";

const relay = ["Phone relay"];

/** The anonymous phone and SMS relay (docs/relay.md): the owner's verified number and each tag's setting. */
export const relayEndpoints = {
  requestPhoneCode: defineEndpoint({
    operationId: "requestPhoneCode",
    method: "POST",
    path: "/api/v1/auth/phone",
    summary: "Text a code to prove your phone number",
    description: `Texts a 6-digit code to the number (normalised to E.164), valid 10 minutes for 5 tries; a new request replaces the pending code. The number the relay puts finders through to; it is never shown to anyone (answers show its last 2 digits). An invalid number is 400. At most ${rateLimitPolicies.phoneCodeSends.limit} codes an hour per account and ${rateLimitPolicies.phoneCodeSendsByNumber.limit} a day to one number, whoever asks: 429. 503 when the text could not be sent (try again).`,
    tags: relay,
    auth: "user",
    rateLimit: ["general", "phoneCodeSends"],
    successStatus: 202,
    body: requestPhoneCodeInput,
    response: phoneCodeSentSchema,
  }),
  verifyPhoneCode: defineEndpoint({
    operationId: "verifyPhoneCode",
    method: "POST",
    path: "/api/v1/auth/phone/verify",
    summary: "Confirm your phone number with the texted code",
    description: "The right code makes the number your verified relay number (replacing an earlier one) and is spent. A wrong, expired, used or missing code is 400; after 5 wrong tries the code is spent. A number another account had verified moves to yours, and that account's relays are switched off.",
    tags: relay,
    auth: "user",
    rateLimit: ["general", "phoneCodeChecks"],
    body: verifyPhoneCodeInput,
    response: verifiedPhoneSchema,
  }),
  getTagRelay: defineEndpoint({
    operationId: "getTagRelay",
    method: "GET",
    path: "/api/v1/tags/{id}/relay",
    summary: "Get the tag's phone relay setting",
    description: "Off, with no PIN, until you turn it on. 404 for a tag that is not yours.",
    tags: relay,
    auth: "user",
    params: idParams,
    response: relaySettingsSchema,
  }),
  updateTagRelay: defineEndpoint({
    operationId: "updateTagRelay",
    method: "PATCH",
    path: "/api/v1/tags/{id}/relay",
    summary: "Turn the tag's phone relay on or off",
    description:
      "Finders can then call or text the relay number with the tag's 6-digit PIN and are put through to your verified number without either side seeing the other's. Turning it on without a verified phone is 409 with `details.reason` PHONE_NOT_VERIFIED. Quiet hours are kept in your notification preferences' time zone (UTC until you choose one); absent keeps them, null clears them.",
    tags: relay,
    auth: "user",
    params: idParams,
    body: updateRelayInput,
    response: relaySettingsSchema,
    errors: ["CONFLICT"],
  }),
  regenerateRelayPin: defineEndpoint({
    operationId: "regenerateRelayPin",
    method: "POST",
    path: "/api/v1/tags/{id}/relay/pin",
    summary: "Give the tag a new relay PIN",
    description: "The old PIN stops working at once. 409 with `details.reason` RELAY_OFF while the relay is off.",
    tags: relay,
    auth: "user",
    params: idParams,
    response: relaySettingsSchema,
    errors: ["CONFLICT"],
  }),
};
