import { SERVICE_NAME } from "@/components/site-links";
import { env } from "@/lib/env";
import { skipLinkText } from "@/lib/i18n/locales";
import { FINDER_STYLESHEET } from "./finder-css.generated";
import { html, trusted, type Html } from "./html";
import { LOCATION_SCRIPT, LOCATION_SCRIPT_HASH } from "./location-script";
import type { FinderWords } from "./messages";

const logoMark = trusted(
  '<svg viewBox="0 0 32 32" class="h-7 w-7" aria-hidden="true" focusable="false"><rect x="2" y="2" width="28" height="28" rx="7" fill="#1d4ed8"/><rect x="7" y="7" width="8" height="8" rx="1.5" fill="#fff"/><rect x="9.5" y="9.5" width="3" height="3" fill="#1d4ed8"/><rect x="17" y="7" width="3" height="3" fill="#fff"/><rect x="22" y="12" width="3" height="3" fill="#fff"/><rect x="7" y="17" width="3" height="3" fill="#fff"/><rect x="12" y="22" width="3" height="3" fill="#fff"/><circle cx="21" cy="21" r="4" fill="none" stroke="#fff" stroke-width="2"/></svg>',
);

const servedOverHttps = new URL(env.APP_URL).protocol === "https:";

/**
 * The finder's page's Content-Security-Policy: the same protection as the nonce policy of the Next pages
 * (proxy.ts), but with the page's one inline script allowed by its hash, so a cached page needs no
 * per-request nonce. No other script can run: no 'self', no 'strict-dynamic'. Styles only from our origin.
 */
export const FINDER_PAGE_CSP = [
  "default-src 'self'",
  `script-src ${LOCATION_SCRIPT_HASH}`,
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  ...(servedOverHttps ? ["upgrade-insecure-requests"] : []),
].join("; ");

/**
 * A whole finder's page: the document the root and finder layouts make for the other finder pages
 * (app/layout.tsx, app/(finder)/layout.tsx), with its own small stylesheet (the classes this page uses, see
 * finder.css; cached for ever under a name that changes with it) and the location script when the page
 * has the control.
 */
export function finderDocument(words: FinderWords, body: Html, options: { locationScript?: boolean } = {}): string {
  const { t, locale } = words;
  const page = html`<!DOCTYPE html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="theme-color" content="#1d4ed8"><meta name="robots" content="noindex, nofollow"><title>${t("pageTitle")} · ${SERVICE_NAME}</title><link rel="icon" href="/favicon.ico" sizes="any"><link rel="icon" href="/icon.svg" type="image/svg+xml"><link rel="stylesheet" href="${FINDER_STYLESHEET}"></head><body class="flex min-h-dvh flex-col"><a href="#main" class="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-3 focus:font-semibold focus:text-brand-800 focus:shadow-lg">${skipLinkText[locale]}</a><main id="main" tabindex="-1" class="flex flex-1 flex-col focus:outline-none"><div class="flex flex-1 flex-col bg-canvas"><header class="border-b border-line bg-white"><div class="mx-auto flex min-h-12 w-full max-w-xl items-center justify-between gap-3 px-4"><a href="/" class="flex items-center gap-2 rounded-md py-1.5 font-semibold text-ink" aria-label="${t("homeLabel")}">${logoMark}<span>${SERVICE_NAME}</span></a><span class="text-sm text-muted">${t("tagline")}</span></div></header><div class="mx-auto flex w-full max-w-xl flex-1 flex-col gap-5 px-4 py-5">${body}</div><footer class="border-t border-line bg-white"><p class="mx-auto w-full max-w-xl px-4 py-4 text-sm text-muted">${t("footer")}</p></footer></div></main>${
    options.locationScript ? html`<script>${trusted(LOCATION_SCRIPT)}</script>` : null
  }</body></html>`;
  return page.__html;
}
