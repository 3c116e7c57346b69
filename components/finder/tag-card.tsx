import type { ReactNode } from "react";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { formatMoney } from "@/lib/i18n/money";
import { ownerWordsOf } from "@/lib/services/finder";
import type { PublicDetails, PublicScanView } from "@/lib/services/scans";
import { FinderCard } from "./panels";

/**
 * The top of the finder's page: the LOST / STOLEN / FOUND banner, the item with its photo and owner, the
 * reward, the owner's note and the description, in the finder's language. The scan page shows it, and the
 * owner's dashboard shows it as the preview of that page (`preview`: a heading below the page's own, and the
 * banner without role="status"). `actions` (the finder page's "Message the owner", then the emergency button)
 * come right under the item's name, so on a phone they are above the fold whatever the owner wrote below.
 */
export async function FinderTagCard({ view, preview = false, actions }: { view: PublicScanView; preview?: boolean; actions?: ReactNode }) {
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
        {actions}
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
        <IdentifyingDetails details={view.details} Heading={NoteHeading} t={t} />
        {view.description ? <p className="whitespace-pre-line break-words text-ink">{view.description}</p> : null}
      </FinderCard>
    </>
  );
}

/** Which fields of each type identify the item, in the order a finder compares them with what they hold. */
const identifyingFields = {
  PET: ["species", "breed", "color", "size", "distinctiveMarks"],
  VEHICLE: ["make", "model", "year", "color", "licensePlate"],
  DEVICE: ["deviceType", "brand", "model", "color"],
  TRAVEL: ["luggageType", "brand", "color"],
} as const;

/**
 * What identifies the item, from the scan view's details: exactly the fields the owner lets finders see
 * (the view already leaves out the rest), so the dashboard's preview shows the same.
 */
function IdentifyingDetails({ details, Heading, t }: { details: PublicDetails; Heading: "h2" | "h4"; t: Awaited<ReturnType<typeof getTranslations<"Finder">>> }) {
  if (!details) return null;
  const record = details as Record<string, unknown>;
  const rows = identifyingFields[details.tagType]
    .map((field) => ({ field, value: record[field] }))
    .filter((row): row is { field: (typeof identifyingFields)[keyof typeof identifyingFields][number]; value: string | number } => typeof row.value === "string" || typeof row.value === "number");
  const medication = details.tagType === "PET" && details.needsMedication === true;
  if (rows.length === 0 && !medication) return null;
  return (
    <div data-testid="finder-identifying">
      <Heading className="text-sm font-semibold text-muted">{t("identifyingHeading")}</Heading>
      {medication ? <p className="mt-1 rounded-lg bg-danger-50 px-3 py-2 font-semibold text-danger-700">{t("needsMedication")}</p> : null}
      {rows.length > 0 ? (
        <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-ink">
          {rows.map((row) => (
            <div key={row.field} className="contents">
              <dt className="text-muted">{t(`field.${row.field}`)}</dt>
              <dd className="break-words">{String(row.value)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </div>
  );
}
