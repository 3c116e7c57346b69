/**
 * Scam signals in thread messages: a small table of patterns, in English, Spanish, French and German, for
 * the five tricks that surround lost-and-found conversations (money up front, gift cards, crypto, a
 * "delivery fee", and moving the talk elsewhere). A message that matches is shown to both sides with a
 * warning beside it; nothing is blocked, so a false positive costs a sentence of caution, not a message.
 *
 * The patterns run on a normalised copy of the text (lower case, accents and other marks removed, ß as
 * ss, typographic apostrophes as '), so "Überweisung", "uberweisung" and "ÜBERWEISUNG" read the same.
 * They are deliberately narrow where a word is common in honest talk about a found item: "wallet" alone
 * (a found wallet), "card" alone, a bare phone number or e-mail address ("call me at 5 pm", "here is my
 * number" are how most returns are arranged), "shipping cost(s)" / "gastos de envío" / "frais de port" /
 * "Versandkosten" (an owner offering to pay the postage) and a bare "pay" or "reward" are not signals.
 */

import { finderLocales, isFinderLocale, type FinderLocale } from "@/lib/i18n/locales";

export const SCAM_SIGNALS = ["UPFRONT_PAYMENT", "GIFT_CARD", "CRYPTO", "DELIVERY_FEE", "OFF_PLATFORM"] as const;
export type ScamSignal = (typeof SCAM_SIGNALS)[number];

/** The finder's languages (lib/i18n): the warnings are written in each. */
export const MESSAGE_LOCALES = finderLocales;
export type MessageLocale = FinderLocale;

/** Lower case, without accents or other combining marks, ß as ss, one kind of apostrophe, single spaces. */
export function normalizeForScamRules(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/ß/g, "ss")
    .replace(/[\u2018\u2019\u02bc`´]/g, "'")
    .replace(/\s+/g, " ");
}

/**
 * A word that may be written with one separator between any two letters ("gift-card", "g i f t c a r d",
 * "whats app", "bit.coin"), never two ("a gift. Card …" is not a gift card).
 */
function loose(word: string): RegExp {
  return new RegExp(`(?<![a-z0-9])${word.split("").join("[^a-z0-9]?")}`);
}

/** Something that names another channel right after "at / on / au / al / unter …": a phone number, an address, an app. */
const CONTACT =
  "(?:\\+?\\d[\\d\\s().\\/-]{6,}\\d|[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+|e-?mail\\b|mail\\b|sms\\b|texto\\b|whats|telegram|signal\\b|viber|wechat|snap|insta|facebook|messenger)";

/** Up to `n` characters in the same sentence. */
const gap = (n: number) => `[^.!?\\n]{0,${n}}?`;

const rx = (source: string) => new RegExp(source);

interface Rule {
  code: ScamSignal;
  /** On the normalised text. */
  patterns: RegExp[];
  /** Distinctive words someone may have spaced or hyphenated to slip past a filter (see loose()). */
  loose?: RegExp[];
}

const rules: Rule[] = [
  {
    code: "UPFRONT_PAYMENT",
    patterns: [
      // English
      rx(`\\bpay(?:ment|ing|s)?\\b${gap(40)}\\b(?:first(?! thing)|up ?front|up-front|(?<!thanks |thank you )in advance|beforehand|ahead of time)\\b`),
      rx(`\\b(?:up ?front|up-front|advance) (?:payment|fee|deposit)s?\\b`),
      rx(`\\b(?:money|cash|payment|deposit|reward) (?:first|up ?front|up-front|in advance|beforehand)\\b`),
      rx(`\\b(?:send|transfer|wire)\\b${gap(30)}\\b(?:money|cash|payment|funds|deposit|reward)\\b${gap(30)}\\b(?:first|before|up ?front|in advance)\\b`),
      rx(`\\bpay(?:ment)?\\b${gap(40)}\\bbefore (?:i|we)\\b${gap(20)}\\b(?:return|send|give|ship|mail|post|bring|hand|release)`),
      rx(`\\b(?:western union|moneygram|money gram)\\b`),
      // Spanish
      rx(`\\bpag(?:o|a|ar|ue|ues|uen|ame|ueme|arme|arnos)\\b${gap(30)}(?:(?<!gracias )\\bpor adelantado\\b|\\badelantado\\b|\\bpor anticipado\\b|\\banticipado\\b|\\bprimero\\b|\\bantes de\\b${gap(15)}\\b(?:devolver|devuelva|devuelvo|entregar|entregue|entrego|enviar|envie|envio|mandar|mande|mando))`),
      rx(`\\b(?:pago|deposito|transferencia|anticipo) (?:previo|anticipado|por adelantado|adelantado|primero)\\b`),
      rx(`\\b(?:un|el|del) (?:adelanto|anticipo)\\b`),
      rx(`\\b(?:envia|enviame|envieme|manda|mandame|mandeme|transfiere|transfiereme|deposita|depositame)\\b${gap(30)}\\b(?:dinero|plata|pago|recompensa|deposito)\\b${gap(30)}\\b(?:primero|antes|por adelantado)\\b`),
      // French
      rx(`\\b(?:pai|paie|paye|payez|payer|payes|paiement|regle|reglez|regler|reglement)\\w*\\b${gap(30)}(?:(?<!merci )\\bd'avance\\b|\\ba l'avance\\b|\\bpar avance\\b|\\ben avance\\b|\\bd'abord\\b|\\bau prealable\\b|\\ben premier\\b|\\bavant (?:de|que|d'))`),
      rx(`\\b(?:acompte|avance de fonds|paiement anticipe|paiement prealable|paiement d'avance)\\b`),
      rx(`\\b(?:envoyez|envoie|envoyer|virez|vire|virer|versez|verser|transferez|transferer)\\b${gap(30)}\\b(?:argent|paiement|recompense|virement|fonds|acompte)\\b${gap(30)}(?:\\bd'abord\\b|\\bavant\\b|\\bd'avance\\b|\\ba l'avance\\b|\\ben premier\\b)`),
      // German
      rx(`\\b(?:vorkasse|vorauszahlung|vorabzahlung|anzahlung|vorab-zahlung)\\b`),
      rx(`\\b(?:zahl|bezahl|uberweis|ueberweis)\\w*\\b${gap(30)}(?:(?<!dank |danke )\\bim voraus\\b|\\bvorab\\b|\\bvorher\\b|\\bzuerst\\b|\\bvorweg\\b)`),
      rx(`\\b(?:im voraus|vorab|zuerst|vorher|vorweg)\\b${gap(20)}\\b(?:zahl|bezahl|uberweis|ueberweis)\\w*`),
      rx(`\\b(?:erst|zuerst) (?:das )?geld\\b`),
    ],
    loose: [loose("westernunion"), loose("moneygram")],
  },
  {
    code: "GIFT_CARD",
    patterns: [
      // English (and brand names every language uses)
      rx(`\\bgift ?cards?\\b`),
      rx(`\\b(?:itunes|apple|google ?play|steam|amazon|ebay|xbox|playstation|psn|razer gold) (?:gift )?(?:cards?|vouchers?|codes?)\\b`),
      rx(`\\b(?:prepaid|pre-paid) (?:cards?|vouchers?|codes?)\\b`),
      rx(`\\b(?:paysafe ?card|neosurf|transcash|pcs mastercard|(?:coupons?|recharges?|tickets?) (?:pcs|neosurf|transcash))\\b`),
      // Spanish
      rx(`\\btarjetas? (?:de )?regalo\\b`),
      rx(`\\btarjetas? (?:prepago|prepagadas?)\\b`),
      rx(`\\b(?:tarjetas?|codigos?) (?:de )?(?:itunes|google play|steam|amazon|apple)\\b`),
      rx(`\\bcodigos? de (?:la )?tarjeta\\b`),
      // French
      rx(`\\bcartes?[ -]cadeaux?\\b`),
      rx(`\\bcartes? prepayees?\\b`),
      rx(`\\b(?:cartes?|codes?|recharges?|coupons?) (?:itunes|google play|steam|amazon|apple)\\b`),
      rx(`\\bcoupons? de recharge\\b`),
      // German
      rx(`\\b(?:geschenk|gutschein|guthaben|prepaid|wert)-?karten?\\b`),
      rx(`\\b(?:itunes|apple|google ?play|steam|amazon)[- ]?(?:karten?|gutscheine?|guthaben)\\b`),
      rx(`\\bgutschein-? ?codes?\\b`),
    ],
    loose: [loose("giftcard"), loose("paysafecard"), loose("itunescard"), loose("googleplaycard"), loose("steamcard")],
  },
  {
    code: "CRYPTO",
    patterns: [
      rx(
        `\\b(?:bitcoins?|btc|ethereum|eth|usdt|usdc|tether|litecoin|ltc|dogecoin|monero|xmr|binance|coinbase|metamask|crypto|cryptos|cryptocurrency|cryptocurrencies|cryptomonnaies?|crypto-monnaies?|criptomonedas?|cripto|criptos|criptoactivos?|krypto|kryptos|kryptowahrung(?:en)?)\\b`,
      ),
      rx(`\\b(?:wallet address|adresse (?:de |du )?(?:wallet|portefeuille)|direccion de (?:la |tu )?(?:billetera|wallet|cartera)|wallet-?adresse)\\b`),
      rx(`\\b(?:trc|erc|bep)-?20\\b`),
      rx(`\\b0x[0-9a-f]{40}\\b`),
      rx(`\\bbc1[a-z0-9]{25,60}\\b`),
    ],
    loose: [loose("bitcoin"), loose("ethereum"), loose("cryptocurrenc"), loose("cryptomonnaie"), loose("criptomoneda"), loose("kryptowahrung")],
  },
  {
    code: "DELIVERY_FEE",
    patterns: [
      // English
      rx(`\\b(?:delivery|courier|shipping|customs|handling|release|clearance|dispatch|postage|transport) (?:fees?|charges?)\\b`),
      rx(`\\bfees? (?:for|to) (?:the )?(?:delivery|courier|customs|shipping|release)\\b`),
      // Spanish
      rx(`\\b(?:tarifas?|cuotas?|cargos?|tasas?|comision(?:es)?) (?:de|por|del) (?:la |el )?(?:envio|entrega|mensajeria|aduanas?|despacho|paqueteria|correo|liberacion)\\b`),
      rx(`\\bgastos (?:de|del) (?:aduanas?|despacho|mensajeria|liberacion)\\b`),
      // French
      rx(`\\bfrais (?:de |d')(?:livraison|douanes?|dedouanement|coursier|dossier|liberation)\\b`),
      // German
      rx(`\\b(?:liefer|versand|zustell|zoll|bearbeitungs|kurier|paket|transport|freigabe)-?gebuhr(?:en)?\\b`),
      rx(`\\bgebuhr(?:en)? fur (?:die |den |das )?(?:lieferung|zustellung|versand|zoll|kurier|freigabe)\\b`),
    ],
  },
  {
    code: "OFF_PLATFORM",
    patterns: [
      // Messaging apps, named in any language.
      rx(`\\b(?:whats ?app|whatsap|watsapp|wa\\.me|telegram|t\\.me|wechat|viber|snapchat|threema|kik messenger|imessage)\\b`),
      rx(`\\b(?:on|via|per|en|sur|par|auf|uber|por) signal\\b`),
      // English: "text me at +1 555 …", "email me at x@y.z", "add me on snap"
      rx(`\\b(?:text|txt|sms|message|msg|dm|contact|reach|call|ring|email|e-mail|mail|add|write)(?: to)? (?:me|us)\\b${gap(15)}\\b(?:at|on|via)\\b\\s*[:-]?\\s*${CONTACT}`),
      rx(`\\b(?:continue|move|switch|carry on|take this)\\b${gap(20)}\\b(?:to|by|over|via|on)\\b ?(?:an? )?(?:e-?mail|text|sms|phone|another app|other app)\\b`),
      // Spanish: "escríbeme al +34 …", "mándame un mensaje a x@y.z"
      rx(`\\b(?:escribeme|escribame|escribenos|mandame|mandeme|enviame|envieme|contactame|contacteme|contactanos|llamame|llameme|agregame|agregueme)\\b${gap(20)}\\b(?:al|a|en|por|via)\\b\\s*[:-]?\\s*${CONTACT}`),
      rx(`\\b(?:sigamos|continuemos|hablemos|pasemos)\\b${gap(20)}\\b(?:por|en|a|al)\\b ?(?:el |un )?(?:correo|e-?mail|sms|telefono|whatsapp)\\b`),
      // French: "écrivez-moi au 06 …", "envoie-moi un texto au …"
      rx(`\\b(?:ecrivez|ecris|ecrire|contactez|contacte|contacter|appelez|appelle|envoyez|envoie|joignez|joins|ajoutez|ajoute)[- ](?:moi|nous)\\b${gap(20)}\\b(?:au|aux|sur|par|a|via|en)\\b\\s*[:-]?\\s*${CONTACT}`),
      rx(`\\b(?:continuons|passons|poursuivons|parlons)\\b${gap(20)}\\b(?:par|sur|en)\\b ?(?:e-?mail|mail|sms|texto|telephone|whatsapp)\\b`),
      // German: "schreib mir unter 0171 …", "melden Sie sich per WhatsApp"
      rx(`\\b(?:schreib|kontaktier|ruf|meld|simse|sms)\\w*\\b${gap(30)}\\b(?:an|auf|per|unter|uber|bei|via)\\b\\s*[:-]?\\s*${CONTACT}`),
      rx(`\\b(?:lass uns|lasst uns|wir konnen)\\b${gap(20)}\\b(?:per|uber|auf)\\b ?(?:e-?mail|mail|sms|telefon|whatsapp)\\b`),
    ],
    loose: [loose("whatsapp"), loose("telegram")],
  },
];

/**
 * The scam signals in a message, in the order of SCAM_SIGNALS, each once; [] for ordinary text.
 * Pure: the same text always gives the same answer, so stored messages need no stored flags.
 */
export function scamSignals(text: string): ScamSignal[] {
  const normalized = normalizeForScamRules(text);
  const found = new Set<ScamSignal>();
  for (const rule of rules) {
    if (rule.patterns.some((pattern) => pattern.test(normalized)) || rule.loose?.some((pattern) => pattern.test(normalized))) found.add(rule.code);
  }
  return SCAM_SIGNALS.filter((code) => found.has(code));
}

/**
 * Whether a text gives away a way to reach its writer or where they live: a phone number, an e-mail
 * address or a street address (a number next to a street word, in the finder languages). Not a scam
 * signal (most honest returns are arranged so); the owner is asked to confirm before sending such a
 * reply to a conversation whose finder messages tripped the scam rules.
 */
export function containsContactDetails(text: string): boolean {
  const normalized = normalizeForScamRules(text);
  if (/\+?\d[\d\s().\/-]{6,}\d/.test(normalized)) return true;
  if (/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/.test(normalized)) return true;
  const street = "(?:street|st\\.|road|rd\\.?|avenue|ave\\.?|lane|drive|boulevard|blvd|way|close|court|place|square|strasse|str\\.|weg|platz|gasse|allee|rue|avenue|boulevard|chemin|impasse|calle|avenida|plaza|paseo|camino)";
  const words = "(?:[a-z'-]+ ){0,3}";
  return new RegExp(`\\b\\d{1,5}[a-z]?,? ${words}${street}(?![a-z])|\\b${street} ${words}\\d{1,5}[a-z]?\\b|\\b\\w+(?:strasse|str\\.|weg|platz|gasse|allee) \\d{1,5}`).test(normalized);
}

const headings: Record<MessageLocale, string> = {
  en: "Be careful: this may be a scam",
  es: "Cuidado: esto podría ser una estafa",
  fr: "Attention : il pourrait s'agir d'une arnaque",
  de: "Vorsicht: Das könnte Betrug sein",
};

const warnings: Record<ScamSignal, Record<MessageLocale, string>> = {
  UPFRONT_PAYMENT: {
    en: "This message asks for money before the item is returned. Never pay in advance: a genuine finder or owner can arrange the return first.",
    es: "Este mensaje pide dinero antes de devolver el objeto. No pagues nunca por adelantado: quien lo encontró o su dueño de verdad puede organizar primero la devolución.",
    fr: "Ce message demande de l'argent avant la restitution de l'objet. Ne payez jamais d'avance : une personne honnête peut d'abord organiser la restitution.",
    de: "Diese Nachricht verlangt Geld, bevor der Gegenstand zurückgegeben wird. Zahlen Sie nie im Voraus: Ehrliche Finder oder Besitzer können zuerst die Rückgabe vereinbaren.",
  },
  GIFT_CARD: {
    en: "This message mentions gift cards. Scammers ask for them because they cannot be traced: never buy a gift card or share its code to get an item back.",
    es: "Este mensaje menciona tarjetas regalo. Los estafadores las piden porque no se pueden rastrear: nunca compres una ni compartas su código para recuperar un objeto.",
    fr: "Ce message parle de cartes cadeaux. Les escrocs les demandent car elles sont intraçables : n'achetez jamais de carte cadeau et ne partagez jamais son code pour récupérer un objet.",
    de: "Diese Nachricht erwähnt Geschenkkarten. Betrüger verlangen sie, weil sie nicht rückverfolgbar sind: Kaufen Sie nie eine Geschenkkarte und geben Sie keinen Code weiter, um einen Gegenstand zurückzubekommen.",
  },
  CRYPTO: {
    en: "This message mentions cryptocurrency. Crypto payments cannot be reversed: never send crypto to get an item back.",
    es: "Este mensaje menciona criptomonedas. Los pagos en cripto no se pueden revertir: nunca envíes criptomonedas para recuperar un objeto.",
    fr: "Ce message parle de cryptomonnaie. Un paiement en crypto ne peut pas être annulé : n'envoyez jamais de crypto pour récupérer un objet.",
    de: "Diese Nachricht erwähnt Kryptowährung. Krypto-Zahlungen lassen sich nicht rückgängig machen: Senden Sie nie Krypto, um einen Gegenstand zurückzubekommen.",
  },
  DELIVERY_FEE: {
    en: "This message mentions a delivery, courier or customs fee. Being asked to pay a fee to release or deliver a found item is a common scam: don't pay it.",
    es: "Este mensaje menciona una tarifa de envío, mensajería o aduana. Pedir una tarifa para liberar o entregar un objeto encontrado es una estafa habitual: no la pagues.",
    fr: "Ce message parle de frais de livraison, de coursier ou de douane. Réclamer des frais pour libérer ou livrer un objet trouvé est une arnaque courante : ne les payez pas.",
    de: "Diese Nachricht erwähnt eine Liefer-, Kurier- oder Zollgebühr. Eine Gebühr für die Freigabe oder Zustellung eines Fundstücks ist ein verbreiteter Betrug: Zahlen Sie sie nicht.",
  },
  OFF_PLATFORM: {
    en: "This message suggests continuing outside Tag Service (another app, a phone number or an e-mail address). That can be genuine, but scammers do it to avoid our protections: never pay in advance or share verification codes.",
    es: "Este mensaje propone seguir fuera de Tag Service (otra app, un teléfono o un correo). Puede ser legítimo, pero los estafadores lo hacen para evitar nuestras protecciones: nunca pagues por adelantado ni compartas códigos de verificación.",
    fr: "Ce message propose de continuer en dehors de Tag Service (une autre appli, un numéro ou une adresse e-mail). Cela peut être sincère, mais les escrocs le font pour échapper à nos protections : ne payez jamais d'avance et ne partagez jamais de code de vérification.",
    de: "Diese Nachricht schlägt vor, außerhalb von Tag Service weiterzuschreiben (andere App, Telefonnummer oder E-Mail-Adresse). Das kann ehrlich gemeint sein, aber Betrüger umgehen so unseren Schutz: Zahlen Sie nie im Voraus und geben Sie keine Bestätigungscodes weiter.",
  },
};

export const isMessageLocale = isFinderLocale;

/** What a signal means for the reader, in their language (English for anything else). */
export function scamWarningText(code: ScamSignal, locale: string = "en"): string {
  return warnings[code][isMessageLocale(locale) ? locale : "en"];
}

/** The heading shown above a message's warnings. */
export function scamWarningHeading(locale: string = "en"): string {
  return headings[isMessageLocale(locale) ? locale : "en"];
}
