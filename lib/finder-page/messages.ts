import { createFormatter, createTranslator } from "use-intl/core";
import de from "@/messages/de.json";
import en from "@/messages/en.json";
import es from "@/messages/es.json";
import fr from "@/messages/fr.json";
import type { FinderLocale } from "@/lib/i18n/locales";

const messages = { en, es, fr, de } as const;

function finderWords(locale: FinderLocale) {
  return {
    locale,
    t: createTranslator({ locale, messages: messages[locale] as typeof en, namespace: "Finder" }),
    format: createFormatter({ locale, timeZone: "UTC" }),
  };
}

/** The finder's page's words in one language: the same messages the Next pages read through next-intl. */
export type FinderWords = ReturnType<typeof finderWords>;

const made = new Map<FinderLocale, FinderWords>();

/** Made once per language per process (a translator caches its formats). */
export function wordsFor(locale: FinderLocale): FinderWords {
  let words = made.get(locale);
  if (!words) made.set(locale, (words = finderWords(locale)));
  return words;
}
