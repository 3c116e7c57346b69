import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { formatMoney } from "@/lib/i18n/money";
import { ownerWordsOf } from "@/lib/services/scans";
import type { PublicScanView } from "@/lib/services/scans/schemas";
import { FinderCard } from "./panels";

/**
 * The top of the finder's page: the LOST / STOLEN / FOUND banner, the item with its photo and owner, the
 * reward, the owner's note and the description, in the finder's language. The scan page shows it, and the
 * owner's dashboard shows it as the preview of that page (`preview`: a heading below the page's own, and the
 * banner without role="status").
 */
export async function FinderTagCard({ view, preview = false }: { view: PublicScanView; preview?: boolean }) {
  const t = await getTranslations("Finder");
  const format = await getFormatter();
  const locale = await getLocale();
  const name = view.itemName ?? t("unnamedItem");
  const photo = view.photos.find((candidate) => candidate.isPrimary) ?? view.photos[0];
  // A STOLEN tag's alert is the banner above, in the finder's language; beside it, only the owner's words.
  const ownerNote = ownerWordsOf(view);
  const Heading = preview ? "h3" : "h1";
  const NoteHeading = preview ? "h4" : "h2";
  const headingId = preview ? "finder-preview-item" : "finder-item";
  const bannerRole = preview ? undefined : "status";

  return (
    <>
      {view.status === "LOST" ? (
        <p role={bannerRole} className="rounded-xl bg-danger-700 px-4 py-3 text-center text-lg font-bold text-white">
          {t("bannerLost")}
        </p>
      ) : null}
      {view.status === "STOLEN" ? (
        <div role={bannerRole} className="rounded-xl bg-danger-700 px-4 py-3 text-white">
          <p className="text-center text-lg font-bold">{t("bannerStolen")}</p>
          <p className="mt-1 text-sm">{t("bannerStolenAdvice")}</p>
        </div>
      ) : null}
      {view.status === "FOUND" ? <p className="rounded-xl border border-green-700 bg-green-50 px-4 py-3 text-green-900">{t("bannerFound")}</p> : null}

      <FinderCard labelledBy={headingId}>
        <div className="flex items-start gap-4">
          {photo ? (
            // eslint-disable-next-line @next/next/no-img-element -- served by our own photo route, already re-encoded and small; no client JavaScript needed
            <img src={photo.url} alt={view.itemName ? t("photoAlt", { name: view.itemName }) : t("photoAltUnnamed")} className="h-28 w-28 shrink-0 rounded-lg border border-line object-cover" />
          ) : null}
          <div className="flex min-w-0 flex-col gap-1">
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{t(`tagType.${view.tagType}`)}</p>
            <Heading id={headingId} className="text-2xl font-bold break-words text-ink">
              {name}
            </Heading>
            {view.ownerName ? <p className="text-ink">{t("belongsTo", { name: view.ownerName })}</p> : null}
            {!view.itemName && !view.ownerName ? <p className="text-sm text-muted">{t("privateProfile")}</p> : null}
          </div>
        </div>
        {view.reward !== null ? (
          <div className="rounded-lg bg-reward-50 px-3 py-2 text-reward-800" data-testid="finder-reward">
            <p className="text-lg font-bold">{t("reward", { amount: view.rewardCurrency ? formatMoney(view.reward, view.rewardCurrency, locale) : format.number(view.reward) })}</p>
            {view.contactEnabled ? <p className="mt-1 text-sm">{t("rewardHowTo")}</p> : null}
          </div>
        ) : null}
        {ownerNote ? (
          <div>
            <NoteHeading className="text-sm font-semibold text-muted">{t("ownerNote")}</NoteHeading>
            <p className="mt-1 whitespace-pre-line break-words text-ink">{ownerNote}</p>
          </div>
        ) : null}
        {view.description ? <p className="whitespace-pre-line break-words text-ink">{view.description}</p> : null}
      </FinderCard>
    </>
  );
}
