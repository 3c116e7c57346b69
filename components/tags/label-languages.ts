import type { FinderLocale } from "@/lib/i18n/locales";

/** The languages a label can speak to its finder, each named in itself (the owner may not read it otherwise). */
export const labelLanguageOptions: { value: FinderLocale; label: string }[] = [
  { value: "en", label: "English" },
  { value: "de", label: "Deutsch" },
  { value: "fr", label: "Français" },
  { value: "es", label: "Español" },
];
