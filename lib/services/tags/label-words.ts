import de from "@/messages/de.json";
import en from "@/messages/en.json";
import es from "@/messages/es.json";
import fr from "@/messages/fr.json";
import { defaultFinderLocale, type FinderLocale } from "@/lib/i18n/locales";

/**
 * What a printed label says to whoever finds the item, in the language the owner prints it in (the
 * finder reads the sticker, not the owner's dashboard): the call to action by the QR code and the line
 * that leads to the /found address. The words live with the finder pages' in messages/*.json.
 */
export interface LabelWords {
  callToAction: string;
  noCamera: string;
}

const words: Record<FinderLocale, LabelWords> = { en: en.Label, de: de.Label, fr: fr.Label, es: es.Label };

export function labelWords(locale: FinderLocale = defaultFinderLocale): LabelWords {
  return words[locale];
}
