import { getTranslations } from "next-intl/server";
import { LogoMark } from "@/components/logo";
import { SERVICE_NAME } from "@/components/site-links";

/**
 * The finder's pages (scan, thread, emergency, found): a stranger on a phone, often in a hurry. A compact
 * header instead of the site's navigation, everything in the finder's language (lib/i18n), and no
 * client JavaScript needed to read a page or send a message.
 */
export default async function FinderLayout({ children }: { children: React.ReactNode }) {
  const t = await getTranslations("Finder");
  return (
    <div className="flex flex-1 flex-col bg-canvas">
      <header className="border-b border-line bg-white">
        <div className="mx-auto flex min-h-12 w-full max-w-xl items-center justify-between gap-3 px-4">
          {/* A full page load, not a client navigation: the site's header and footer are not in this page (app/layout.tsx). */}
          {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- see the comment above */}
          <a href="/" className="flex items-center gap-2 rounded-md py-1.5 font-semibold text-ink" aria-label={t("homeLabel")}>
            <LogoMark className="h-7 w-7" />
            <span>{SERVICE_NAME}</span>
          </a>
          <span className="text-sm text-muted">{t("tagline")}</span>
        </div>
      </header>
      <div className="mx-auto flex w-full max-w-xl flex-1 flex-col gap-5 px-4 py-5">{children}</div>
      <footer className="border-t border-line bg-white">
        <p className="mx-auto w-full max-w-xl px-4 py-4 text-sm text-muted">{t("footer")}</p>
      </footer>
    </div>
  );
}
