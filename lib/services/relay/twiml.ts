import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import twilio from "twilio";
import type { FinderLocale } from "@/lib/i18n/locales";

/**
 * The relay's TwiML answers (docs/relay.md, the call flow), built with the SDK's VoiceResponse and
 * MessagingResponse, and the spoken prompts in the finder pages' four languages.
 */

type SayLanguage = "en-US" | "de-DE" | "fr-FR" | "es-ES";
const SAY_LANGUAGE: Record<FinderLocale, SayLanguage> = { en: "en-US", de: "de-DE", fr: "fr-FR", es: "es-ES" };

const COUNTRY_LOCALE: Record<string, FinderLocale> = {
  DE: "de",
  AT: "de",
  LI: "de",
  FR: "fr",
  MC: "fr",
  ES: "es",
  MX: "es",
  AR: "es",
  CO: "es",
  CL: "es",
  PE: "es",
  VE: "es",
  EC: "es",
  GT: "es",
  CU: "es",
  BO: "es",
  DO: "es",
  HN: "es",
  PY: "es",
  SV: "es",
  NI: "es",
  CR: "es",
  PA: "es",
  UY: "es",
};

/** The caller's language: from Twilio's FromCountry, else the number's country, where one of ours is spoken; else English. */
export function callerLocale(params: { FromCountry?: string; From?: string }): FinderLocale {
  const country = params.FromCountry?.toUpperCase() || (params.From ? parsePhoneNumberFromString(params.From)?.country : undefined);
  return (country && COUNTRY_LOCALE[country]) || "en";
}

type Prompt = "enterPin" | "noPin" | "wrongPin" | "tooManyWrong" | "unavailable" | "connecting" | "busy";

const PROMPTS: Record<FinderLocale, Record<Prompt, string>> = {
  en: {
    enterPin: "Hello. You are calling the owner of a found item through Tag Service. Please enter the 6-digit PIN shown on the tag's page.",
    noPin: "We did not receive a PIN. Goodbye.",
    wrongPin: "That PIN is not right.",
    tooManyWrong: "That PIN is not right either. Please try again later, or use the tag's web page. Goodbye.",
    unavailable: "The owner cannot take calls now. Please send a text to this number with the PIN, or use the tag's web page. Goodbye.",
    connecting: "Connecting you to the owner. Please hold.",
    busy: "Too many calls from this number just now. Please try again later, or use the tag's web page. Goodbye.",
  },
  de: {
    enterPin: "Hallo. Sie rufen über Tag Service den Besitzer eines gefundenen Gegenstands an. Bitte geben Sie die sechsstellige PIN von der Seite des Anhängers ein.",
    noPin: "Wir haben keine PIN erhalten. Auf Wiederhören.",
    wrongPin: "Diese PIN stimmt nicht.",
    tooManyWrong: "Auch diese PIN stimmt nicht. Bitte versuchen Sie es später noch einmal oder nutzen Sie die Webseite des Anhängers. Auf Wiederhören.",
    unavailable: "Der Besitzer kann gerade keine Anrufe annehmen. Bitte schicken Sie eine SMS mit der PIN an diese Nummer oder nutzen Sie die Webseite des Anhängers. Auf Wiederhören.",
    connecting: "Sie werden mit dem Besitzer verbunden. Bitte bleiben Sie dran.",
    busy: "Zu viele Anrufe von dieser Nummer. Bitte versuchen Sie es später noch einmal oder nutzen Sie die Webseite des Anhängers. Auf Wiederhören.",
  },
  fr: {
    enterPin: "Bonjour. Vous appelez le propriétaire d'un objet trouvé via Tag Service. Veuillez saisir le code PIN à 6 chiffres affiché sur la page de l'étiquette.",
    noPin: "Nous n'avons pas reçu de code PIN. Au revoir.",
    wrongPin: "Ce code PIN n'est pas correct.",
    tooManyWrong: "Ce code PIN n'est pas correct non plus. Veuillez réessayer plus tard, ou utiliser la page web de l'étiquette. Au revoir.",
    unavailable: "Le propriétaire ne peut pas prendre d'appel maintenant. Envoyez un SMS à ce numéro avec le code PIN, ou utilisez la page web de l'étiquette. Au revoir.",
    connecting: "Nous vous mettons en relation avec le propriétaire. Veuillez patienter.",
    busy: "Trop d'appels depuis ce numéro. Veuillez réessayer plus tard, ou utiliser la page web de l'étiquette. Au revoir.",
  },
  es: {
    enterPin: "Hola. Está llamando al dueño de un objeto encontrado a través de Tag Service. Introduzca el PIN de 6 dígitos que aparece en la página de la etiqueta.",
    noPin: "No hemos recibido ningún PIN. Adiós.",
    wrongPin: "Ese PIN no es correcto.",
    tooManyWrong: "Ese PIN tampoco es correcto. Inténtelo más tarde o use la página web de la etiqueta. Adiós.",
    unavailable: "El dueño no puede atender llamadas ahora. Envíe un SMS a este número con el PIN o use la página web de la etiqueta. Adiós.",
    connecting: "Le estamos conectando con el dueño. Espere, por favor.",
    busy: "Demasiadas llamadas desde este número. Inténtelo más tarde o use la página web de la etiqueta. Adiós.",
  },
};

export function prompt(locale: FinderLocale, key: Prompt): string {
  return PROMPTS[locale][key];
}

/** The webhook URLs the answers point at (absolute, as Twilio needs). */
export interface RelayUrls {
  voice: string;
  status: string;
  whisper: (leg: string, step?: "accept") => string;
}

export function relayUrls(appUrl: string): RelayUrls {
  const base = `${appUrl.replace(/\/+$/, "")}/api/v1/webhooks/telephony`;
  return {
    voice: `${base}/voice`,
    status: `${base}/voice/status`,
    whisper: (leg, step) => `${base}/voice/whisper?leg=${encodeURIComponent(leg)}${step ? `&step=${step}` : ""}`,
  };
}

/** The PIN prompt, after an optional line (a wrong PIN): Gather, then a goodbye and Hangup when nothing is typed. */
export function gatherPin(urls: RelayUrls, locale: FinderLocale, before?: string): string {
  const response = new twilio.twiml.VoiceResponse();
  const language = SAY_LANGUAGE[locale];
  if (before) response.say({ language }, before);
  const gather = response.gather({ input: ["dtmf"], numDigits: 6, action: urls.voice, method: "POST", timeout: 10 });
  gather.say({ language }, prompt(locale, "enterPin"));
  response.say({ language }, prompt(locale, "noPin"));
  response.hangup();
  return response.toString();
}

/** A spoken line and Hangup. */
export function sayAndHangUp(locale: FinderLocale, line: string): string {
  const response = new twilio.twiml.VoiceResponse();
  response.say({ language: SAY_LANGUAGE[locale] }, line);
  response.hangup();
  return response.toString();
}

/** The valid PIN: Dial the owner from the relay number, with the whisper before the legs are bridged. */
export function dialOwner(urls: RelayUrls, locale: FinderLocale, input: { relayNumber: string; ownerPhone: string; leg: string }): string {
  const response = new twilio.twiml.VoiceResponse();
  response.say({ language: SAY_LANGUAGE[locale] }, prompt(locale, "connecting"));
  const dial = response.dial({ callerId: input.relayNumber, action: urls.status, method: "POST", timeout: 25 });
  dial.number({ url: urls.whisper(input.leg), method: "POST" }, input.ownerPhone);
  return response.toString();
}

/** What the owner hears on answering: why an unknown call comes, and press 1 to take it. */
export function whisper(urls: RelayUrls, leg: string, itemName: string | null): string {
  const response = new twilio.twiml.VoiceResponse();
  const gather = response.gather({ input: ["dtmf"], numDigits: 1, action: urls.whisper(leg, "accept"), method: "POST", timeout: 8 });
  gather.say(`A finder of ${itemName?.trim() || "your tagged item"} is calling through Tag Service; press 1 to accept.`);
  response.hangup();
  return response.toString();
}

/** An empty answer: on the whisper's "1", the legs are bridged. */
export function emptyVoice(): string {
  return new twilio.twiml.VoiceResponse().toString();
}

export function hangUp(): string {
  const response = new twilio.twiml.VoiceResponse();
  response.hangup();
  return response.toString();
}

/** A text answer: a <Message> back to the sender, or nothing. */
export function messaging(reply?: string): string {
  const response = new twilio.twiml.MessagingResponse();
  if (reply) response.message(reply);
  return response.toString();
}
