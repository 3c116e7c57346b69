import { cache } from "react";
import { cookies } from "next/headers";
import { FALLBACK_TIME_ZONE, canonicalTimeZone } from "@/lib/i18n/time-zones";
import { savedTimeZone } from "@/lib/services/notifications";
import { currentUserContext } from "./page-context";

/** The cookie components/browser-time-zone.tsx keeps the browser's IANA zone in. */
export const TIME_ZONE_COOKIE = "tz";

/**
 * The browser's zone as its cookie says, or null (no cookie yet, JavaScript off, or a value that is not
 * a zone Intl knows: the cookie is the visitor's to write, so it is checked, never trusted).
 */
export const browserTimeZone = cache(async function browserTimeZone(): Promise<string | null> {
  const value = (await cookies()).get(TIME_ZONE_COOKIE)?.value;
  return value ? canonicalTimeZone(value) : null;
});

/**
 * The zone a page shows times in, once per request: the one saved in the signed-in user's notification
 * settings, else their browser's, else UTC.
 */
export const viewerTimeZone = cache(async function viewerTimeZone(): Promise<string> {
  const ctx = await currentUserContext();
  const saved = ctx ? await savedTimeZone(ctx) : null;
  return (saved && canonicalTimeZone(saved)) || (await browserTimeZone()) || FALLBACK_TIME_ZONE;
});
