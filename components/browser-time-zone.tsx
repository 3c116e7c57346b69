"use client";

import { useEffect } from "react";
import { useRouter } from "next/navigation";

/** Kept in step with TIME_ZONE_COOKIE in lib/http/viewer-time-zone.ts (a server module this file cannot import). */
const COOKIE = "tz";
const YEAR_SECONDS = 365 * 24 * 60 * 60;

function cookieValue(name: string): string | undefined {
  return document.cookie
    .split("; ")
    .find((entry) => entry.startsWith(`${name}=`))
    ?.slice(name.length + 1);
}

/**
 * Tells the server this browser's time zone: pages are rendered on the server, which cannot know it.
 * It lands in the `tz` cookie (a year, whole site), and only when that changed (first visit, travel, a
 * new zone setting) is the page re-rendered, so the next render and every one after it is right. Without
 * JavaScript nothing happens and pages use the saved zone or UTC.
 */
export function BrowserTimeZone() {
  const router = useRouter();
  useEffect(() => {
    let zone: string | undefined;
    try {
      zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    } catch {
      return;
    }
    // IANA names only: anything else is left out rather than written into a cookie.
    if (!zone || !/^[A-Za-z][A-Za-z0-9_+\-/]{0,99}$/.test(zone) || cookieValue(COOKIE) === zone) return;
    document.cookie = `${COOKIE}=${zone}; Path=/; Max-Age=${YEAR_SECONDS}; SameSite=Lax${location.protocol === "https:" ? "; Secure" : ""}`;
    // Refreshing when the cookie did not stick (cookies blocked) would only repeat the same render.
    if (cookieValue(COOKIE) === zone) router.refresh();
  }, [router]);
  return null;
}
