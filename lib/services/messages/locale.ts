import { MESSAGE_LOCALES, type MessageLocale } from "./scam-rules";

/**
 * The finder's language from Accept-Language, among the four the finder's e-mails are written in:
 * the supported language with the highest weight (a regional tag counts for its language: fr-CH is
 * fr), English when none is supported or the header is missing or malformed.
 */
export function finderLocaleFrom(acceptLanguage: string | null | undefined): MessageLocale {
  if (!acceptLanguage) return "en";
  const ranked = acceptLanguage
    .slice(0, 500)
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
      const weight = q ? Number(q.slice(2)) : 1;
      return { language: tag.trim().toLowerCase().split("-")[0] ?? "", weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  const found = ranked.find((entry) => (MESSAGE_LOCALES as readonly string[]).includes(entry.language));
  return (found?.language as MessageLocale | undefined) ?? "en";
}
