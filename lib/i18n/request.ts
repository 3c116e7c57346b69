import { headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { PAGE_LOCALE_HEADER, isFinderLocale, negotiateLocale, type FinderLocale } from "./locales";

/**
 * The page's language: proxy.ts decides it per request (the finder's Accept-Language on finder pages,
 * English elsewhere). Requests the proxy does not see (router prefetches) fall back to the header itself.
 */
export async function pageLocale(): Promise<FinderLocale> {
  const requestHeaders = await headers();
  const decided = requestHeaders.get(PAGE_LOCALE_HEADER);
  return isFinderLocale(decided) ? decided : negotiateLocale(requestHeaders.get("accept-language"));
}

export default getRequestConfig(async () => {
  const locale = await pageLocale();
  return { locale, messages: (await import(`../../messages/${locale}.json`)).default, timeZone: "UTC" };
});
