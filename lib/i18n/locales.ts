/** The languages the finder's pages (scan, thread, emergency, found, a lost pet's alert) speak; English is the fallback. */
export const finderLocales = ["en", "es", "fr", "de"] as const;
export type FinderLocale = (typeof finderLocales)[number];
export const defaultFinderLocale: FinderLocale = "en";

export function isFinderLocale(value: unknown): value is FinderLocale {
  return typeof value === "string" && (finderLocales as readonly string[]).includes(value);
}

/**
 * The best of our languages for an Accept-Language header (RFC 9110 §12.5.4): ranges by quality, ties in
 * the order sent, a region (`es-MX`) matching its language, `*` and q=0 ignored. English when nothing matches.
 */
export function negotiateLocale(acceptLanguage: string | null | undefined): FinderLocale {
  if (!acceptLanguage) return defaultFinderLocale;
  const ranges = acceptLanguage
    .slice(0, 1000)
    .split(",")
    .map((part, order) => {
      const [range = "", ...params] = part.trim().split(";");
      const q = params.map((param) => param.trim()).find((param) => /^q=/i.test(param));
      // A malformed weight makes the range unusable rather than top priority.
      const quality = q === undefined ? 1 : /^q=[0-9.]+$/i.test(q) ? Number(q.slice(2)) : 0;
      return { language: range.trim().toLowerCase().split("-")[0] ?? "", quality: Number.isFinite(quality) ? quality : 0, order };
    })
    .filter((entry) => entry.quality > 0 && entry.language && entry.language !== "*")
    .sort((a, b) => b.quality - a.quality || a.order - b.order);
  return ranges.map((entry) => entry.language).find(isFinderLocale) ?? defaultFinderLocale;
}

/** Paths whose pages are the finder's, in the finder's language. */
export function isFinderPath(pathname: string): boolean {
  return pathname === "/found" || pathname === "/thread" || pathname.startsWith("/t/") || pathname.startsWith("/thread/") || pathname.startsWith("/lost/");
}

/** Request header (set by proxy.ts, never trusted from a client for anything but the language) naming the page's language. */
export const PAGE_LOCALE_HEADER = "x-page-locale";

/** Paths of the owner's dashboard, which brings its own bar instead of the site header. */
export function isDashboardPath(pathname: string): boolean {
  return pathname === "/dashboard" || pathname.startsWith("/dashboard/");
}

/**
 * What kind of page a path is, for the root layout's chrome: a finder's page (its own compact header, no
 * site footer), a dashboard page (its own bar, the site footer) or any other page (the site header).
 */
export type PageKind = "finder" | "dashboard" | "site";

export function pageKind(pathname: string): PageKind {
  if (isFinderPath(pathname)) return "finder";
  if (isDashboardPath(pathname)) return "dashboard";
  return "site";
}

/** Request header (set by proxy.ts, always overwritten) naming the page's kind (see pageKind). */
export const PAGE_KIND_HEADER = "x-page-kind";

/** The skip link's words on a finder's page (the root layout's and the finder's tag page's). */
export const skipLinkText: Record<FinderLocale, string> = { en: "Skip to content", es: "Ir al contenido", fr: "Aller au contenu", de: "Zum Inhalt springen" };
