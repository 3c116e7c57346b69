import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import { connection } from "next/server";
import { SiteFooter } from "@/components/site-footer";
import { SiteHeader } from "@/components/site-header";
import { ShownOn } from "@/components/shown-on";
import { SERVICE_NAME } from "@/components/site-links";
import { env } from "@/lib/env";
import { PAGE_KIND_HEADER, skipLinkText } from "@/lib/i18n/locales";
import { pageLocale } from "@/lib/i18n/request";
import "./globals.css";

export const metadata: Metadata = {
  metadataBase: new URL(env.APP_URL),
  title: {
    default: `${SERVICE_NAME}: QR and NFC tags that bring lost things home`,
    template: `%s · ${SERVICE_NAME}`,
  },
  description:
    "Put a QR or NFC tag on your pet, bag, bike, car or phone. Whoever finds it scans the tag, messages you anonymously and sees any reward; first responders can read your emergency information.",
  applicationName: SERVICE_NAME,
  icons: { icon: [{ url: "/favicon.ico", sizes: "any" }, { url: "/icon.svg", type: "image/svg+xml" }] },
};

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  themeColor: "#1d4ed8",
};

/**
 * Every page is rendered per request: the Content-Security-Policy from proxy.ts carries a fresh nonce
 * that Next puts on its scripts while rendering, which a page prerendered at build time could not have.
 * Pages render inside this layout's <main>; they should not add another <main>.
 */
export default async function RootLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  await connection();
  // The finder's pages (lib/i18n) are in the finder's language and bring their own compact header and
  // footer; the dashboard brings its own bar (app/(dashboard)/layout.tsx) and keeps the site footer.
  // A finder's page loaded first does not render the site's header and footer at all: ShownOn would hide
  // them, but their server render and payload would still cost every scan (a fifth of the page's bytes).
  // Its links out of the finder's pages are plain links, so the page they open renders them itself.
  const [lang, finderPage] = await Promise.all([pageLocale(), headers().then((h) => h.get(PAGE_KIND_HEADER) === "finder")]);

  return (
    <html lang={lang}>
      <body className="flex min-h-dvh flex-col">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-3 focus:font-semibold focus:text-brand-800 focus:shadow-lg"
        >
          {finderPage ? skipLinkText[lang] : "Skip to content"}
        </a>
        {finderPage ? null : (
          <ShownOn kinds={["site"]}>
            <SiteHeader />
          </ShownOn>
        )}
        <main id="main" tabIndex={-1} className="flex flex-1 flex-col focus:outline-none">
          {children}
        </main>
        {finderPage ? null : (
          <ShownOn kinds={["site", "dashboard"]}>
            <SiteFooter />
          </ShownOn>
        )}
      </body>
    </html>
  );
}
