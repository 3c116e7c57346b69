"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * Looks at the page again after `seconds` (at `url` when given, else the same address) while it is shown:
 * for pages that wait on a background job (a payment event, a campaign's batches).
 *
 * A `<meta http-equiv="refresh">` alone is not enough: it only works when the page is loaded by the browser,
 * not when it arrives by a client-side navigation (a server action's redirect, a Link). With JavaScript,
 * the router refreshes the server components in place; without it, the meta element in <noscript> does.
 */
export function AutoRefresh({ seconds, url }: { seconds: number; url?: string }) {
  const router = useRouter();
  useEffect(() => {
    // An interval, not a timeout: a refresh that renders the same props keeps this effect, and it must look again.
    const timer = setInterval(() => (url ? router.replace(url, { scroll: false }) : router.refresh()), seconds * 1000);
    return () => clearInterval(timer);
  }, [router, seconds, url]);
  return (
    <noscript>
      <meta httpEquiv="refresh" content={url ? `${seconds};url=${url}` : String(seconds)} />
    </noscript>
  );
}
