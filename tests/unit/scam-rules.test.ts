import { describe, expect, it } from "vitest";
import { MESSAGE_LOCALES, SCAM_SIGNALS, normalizeForScamRules, scamSignals, scamWarningHeading, scamWarningText, type ScamSignal } from "@/lib/services/messages/scam-rules";

type Language = "en" | "es" | "fr" | "de";

/** Per signal and language: messages that must raise it, and honest look-alikes that must not. */
const examples: Record<ScamSignal, Record<Language, { positive: string[]; negative: string[] }>> = {
  UPFRONT_PAYMENT: {
    en: {
      positive: [
        "I have your bag. Pay me $50 first and I'll send it.",
        "You need to send the money first, then we meet.",
        "An upfront payment of 100 USD is required.",
        "Please pay before I return the phone.",
        "Send it by Western Union and I post the keys tomorrow.",
      ],
      negative: [
        "I found your backpack near the station, I can drop it off tomorrow.",
        "No need to pay anything, I'm glad to help.",
        "I'll pay the reward when we meet, thanks in advance!",
        "I'll pay you first thing in the morning when I pick it up.",
      ],
    },
    es: {
      positive: ["Tengo tu cartera. Págame 50 euros por adelantado y te la envío.", "Necesito un pago anticipado de 30 €.", "Envíame el dinero primero y luego quedamos.", "Pide un adelanto antes de devolverla."],
      negative: ["Encontré tu mochila en el parque, te la puedo llevar mañana.", "Te pago la recompensa cuando nos veamos, gracias por adelantado.", "No hace falta pagar nada."],
    },
    fr: {
      positive: ["J'ai votre sac. Payez-moi d'abord 50 euros et je l'envoie.", "Un acompte de 40 € est nécessaire.", "Il faut un paiement à l'avance pour la restitution.", "Envoyez l'argent avant et je poste les clés."],
      negative: ["J'ai trouvé votre portefeuille au café, je peux le déposer demain.", "Je vous paierai la récompense en main propre, merci d'avance.", "Pas besoin de payer quoi que ce soit."],
    },
    de: {
      positive: ["Ich habe Ihren Rucksack. Bitte zahlen Sie im Voraus 50 Euro.", "Nur gegen Vorkasse schicke ich das Handy zurück.", "Überweisen Sie zuerst 30 €, dann bekommen Sie die Schlüssel.", "Erst das Geld, dann die Tasche."],
      negative: ["Ich habe Ihren Schlüssel gefunden und kann ihn morgen vorbeibringen.", "Den Finderlohn zahle ich bei der Übergabe, danke im Voraus!", "Sie müssen nichts bezahlen."],
    },
  },
  GIFT_CARD: {
    en: {
      positive: ["Buy a $100 Steam card and send me the code.", "I only accept gift cards.", "Send me an iTunes voucher and it's yours.", "g-i-f-t c-a-r-d codes only"],
      negative: ["Your bank card was in the wallet, it's safe.", "It was a gift. Card holder is inside too.", "I found a wallet with a library card."],
    },
    es: {
      positive: ["Mándame una tarjeta regalo de Amazon.", "Solo acepto tarjetas de Google Play.", "Pásame el código de la tarjeta y te lo devuelvo."],
      negative: ["Tu tarjeta del banco estaba en la cartera.", "Era un regalo para mi hermana, por eso quiero devolverlo."],
    },
    fr: {
      positive: ["Achetez une carte cadeau et envoyez-moi le code.", "Je veux un coupon PCS de 100 euros.", "Un code Amazon suffira."],
      negative: ["Votre carte bancaire était dans le portefeuille.", "C'était un cadeau, je comprends que vous y teniez."],
    },
    de: {
      positive: ["Schicken Sie mir eine Geschenkkarte über 50 Euro.", "Ich möchte einen Amazon-Gutschein als Belohnung.", "Bitte eine Paysafecard, dann bekommen Sie das Handy."],
      negative: ["Ihre EC-Karte war noch in der Geldbörse.", "Das war sicher ein Geschenk, ich bringe es gern zurück."],
    },
  },
  CRYPTO: {
    en: {
      positive: ["Pay the reward in Bitcoin please.", "Send 0.01 BTC to my wallet address.", "USDT on TRC20 only.", "send to 0x52908400098527886e0f7030069857d2e4169ee7", "b i t c o i n only"],
      negative: ["I found your wallet on the bus!", "Your wallet and keys are at the front desk.", "The ether bunny sticker on it is cute."],
    },
    es: {
      positive: ["Acepto solo criptomonedas.", "Envíame la recompensa en cripto.", "Mi dirección de billetera es esta."],
      negative: ["Encontré tu billetera en el autobús.", "Tu cartera está en recepción."],
    },
    fr: {
      positive: ["Je veux être payé en cryptomonnaie.", "Envoyez des bitcoins à cette adresse.", "Donnez-moi l'adresse de votre wallet crypto."],
      negative: ["J'ai trouvé votre portefeuille dans le bus.", "Votre portefeuille est à l'accueil."],
    },
    de: {
      positive: ["Bitte in Kryptowährung bezahlen.", "Schick mir Bitcoin an diese Adresse.", "Nur Krypto, bitte."],
      negative: ["Ich habe Ihre Brieftasche im Bus gefunden.", "Ihr Portemonnaie liegt an der Rezeption."],
    },
  },
  DELIVERY_FEE: {
    en: {
      positive: ["The courier needs a delivery fee of $25 first.", "There is a customs fee to release the parcel.", "Pay the shipping fee and I'll post it."],
      negative: ["I can post it to you, I'll cover the shipping cost.", "Happy to deliver it myself tomorrow.", "Shipping costs are on me."],
    },
    es: {
      positive: ["Hay que pagar una tarifa de envío de 20 €.", "La mensajería cobra una tasa de aduana.", "Falta la comisión por entrega."],
      negative: ["Yo pago los gastos de envío, no te preocupes.", "Te lo entrego en mano mañana."],
    },
    fr: {
      positive: ["Il faut régler des frais de livraison de 20 €.", "Des frais de douane sont à payer pour le colis.", "Le coursier demande des frais de dossier."],
      negative: ["Je prends en charge les frais de port.", "Je peux vous le livrer moi-même demain."],
    },
    de: {
      positive: ["Es fällt eine Liefergebühr von 20 € an.", "Die Zollgebühr muss vorher bezahlt werden.", "Bitte die Gebühr für die Zustellung überweisen."],
      negative: ["Die Versandkosten übernehme ich gern.", "Ich kann es Ihnen morgen persönlich bringen."],
    },
  },
  OFF_PLATFORM: {
    en: {
      positive: ["WhatsApp me and we'll sort it out.", "Text me at +1 555 123 4567.", "Add me on Telegram: @keys_finder", "Email me at finder@example.com to arrange it.", "Let's move this to email.", "Message me on Signal."],
      negative: ["Call me at 5 pm if that suits you.", "I'll be at the station on Monday at 10.", "No signal here, sorry for the late answer.", "What's the app you used to make this tag?"],
    },
    es: {
      positive: ["Escríbeme al +34 612 345 678.", "Mándame un mensaje por WhatsApp.", "Contáctame en ana@example.es.", "Sigamos por correo, es más fácil."],
      negative: ["Puedo quedar el lunes a las 10 en la estación.", "Escríbeme aquí cuando puedas."],
    },
    fr: {
      positive: ["Écrivez-moi au 06 12 34 56 78.", "Contactez-moi sur Telegram.", "Envoie-moi un texto au 07 98 76 54 32.", "Continuons par e-mail."],
      negative: ["Je serai à la gare lundi à 10 h.", "Répondez-moi ici quand vous pouvez."],
    },
    de: {
      positive: ["Schreib mir unter 0171 2345678.", "Melden Sie sich per WhatsApp.", "Rufen Sie mich unter +49 30 1234567 an.", "Lass uns per E-Mail weiterschreiben."],
      negative: ["Ich bin Montag um 10 Uhr am Bahnhof.", "Schreiben Sie mir hier, wann es Ihnen passt."],
    },
  },
};

describe("scamSignals", () => {
  for (const code of SCAM_SIGNALS) {
    describe(code, () => {
      for (const language of ["en", "es", "fr", "de"] as const) {
        const { positive, negative } = examples[code][language];
        it(`raises it for ${language} messages that ask for it`, () => {
          for (const text of positive) expect(scamSignals(text), text).toContain(code);
        });
        it(`leaves honest ${language} messages alone`, () => {
          for (const text of negative) expect(scamSignals(text), text).not.toContain(code);
        });
      }
    });
  }

  it("is case- and accent-insensitive", () => {
    for (const text of ["PAGUE POR ADELANTADO", "pague por adelantado", "Pagué por adelantado", "ÜBERWEISEN SIE ZUERST", "uberweisen sie zuerst", "ueberweisen Sie zuerst", "FRAIS DE DOUANE", "frais de douane"]) {
      expect(scamSignals(text).length, text).toBeGreaterThan(0);
    }
  });

  it("answers [] for ordinary messages and each code once, in the table's order, when several match", () => {
    expect(scamSignals("Hi! I found your keys in the park. When can I bring them back?")).toEqual([]);
    expect(scamSignals("")).toEqual([]);
    expect(scamSignals("WhatsApp me. Buy a gift card, or pay in bitcoin, whatsapp again. Delivery fee too. Pay first.")).toEqual([
      "UPFRONT_PAYMENT",
      "GIFT_CARD",
      "CRYPTO",
      "DELIVERY_FEE",
      "OFF_PLATFORM",
    ]);
  });

  it("stays fast on long hostile input", () => {
    const started = performance.now();
    scamSignals(`${"pay ".repeat(500)}${"a".repeat(2000)}`);
    scamSignals("me at ".repeat(400));
    expect(performance.now() - started).toBeLessThan(500);
  });

  it("normalises accents, case, ß and apostrophes", () => {
    expect(normalizeForScamRules("Größe  ÉCRIVEZ\u2019moi")).toBe("grosse ecrivez'moi");
  });
});

describe("scamWarningText", () => {
  it("has a distinct text per code in each of the four languages, and falls back to English", () => {
    for (const code of SCAM_SIGNALS) {
      const texts = MESSAGE_LOCALES.map((locale) => scamWarningText(code, locale));
      expect(new Set(texts).size).toBe(MESSAGE_LOCALES.length);
      for (const text of texts) expect(text.length).toBeGreaterThan(40);
      expect(scamWarningText(code, "pt")).toBe(scamWarningText(code, "en"));
      expect(scamWarningText(code)).toBe(scamWarningText(code, "en"));
    }
    expect(scamWarningText("GIFT_CARD", "de")).toContain("Geschenkkarte");
    expect(scamWarningText("CRYPTO", "es")).toContain("cripto");
    expect(scamWarningText("DELIVERY_FEE", "fr")).toContain("frais");
    expect(new Set(MESSAGE_LOCALES.map((locale) => scamWarningHeading(locale))).size).toBe(4);
  });
});
