/**
 * The anonymous phone and SMS relay (issue 27, docs/relay.md): the owner's verified number, each tag's
 * relay setting and PIN, and the lookups the relay's webhooks use.
 */
export { readDevPhone } from "./dev-phone";
export { exportRelayPhone, exportTagRelays } from "./export";
export { getVerifiedPhone, PHONE_CODE_TRIES, PHONE_CODE_TTL_MS, type PhoneCodeSent, requestPhoneCode, type VerifiedPhone, verifyPhoneCode } from "./phone";
export { hashPhoneNumber, lastDigitsOf, normalizePhoneNumber } from "./phone-number";
export { assignRelayPin, randomPin } from "./pin";
export { pendingPhoneCode, publicRelayFrom, publicRelayOf, relayPinOf, type PublicRelay } from "./public";
export { isInsideQuietHours, type RelayQuietHours } from "./quiet-hours";
export { findOwnerByPhone, resolveRelayPin, type ResolvedRelayPin, switchOffTagRelay } from "./resolve";
export {
  devPhoneDelivery,
  devPhoneQuery,
  phoneCodeSentSchema,
  type RelaySettings,
  relaySettingsSchema,
  requestPhoneCodeInput,
  updateRelayInput,
  verifiedPhoneSchema,
  verifyPhoneCodeInput,
} from "./schemas";
export { getRelaySettings, ownerTimeZone, PHONE_NOT_VERIFIED, regenerateRelayPin, RELAY_OFF, updateRelaySettings } from "./settings";
export { FINDER_PHONE_SEAL, REPLY_WINDOW_MS, eraseExpiredFinderNumbers } from "./conversation";
export { finderText, ownerCodedText, routeOwnerReply, smsKeyword } from "./sms-words";
export { RELAY_DAILY_CAP } from "./spend";
export { textWebReplyToFinder } from "./web-reply";
export { formParams, HELP_TEXT, receiveTelephonyWebhook, sendSealedRelayText, type TelephonyWebhook } from "./webhooks";
