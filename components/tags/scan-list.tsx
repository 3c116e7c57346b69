import { formatDateTime } from "@/components/dashboard/dates";
import { formatPlace, geoUri, openStreetMapUrl } from "@/lib/maps/links";
import type { RolledUpScans, ScanRecord } from "@/lib/services/tags";

type ScanClass = ScanRecord["scanClass"];

/** The scan classes as the owner reads them: the words carry the meaning, colour only helps. */
export const scanClassLabels: Record<ScanClass, { label: string; tone: string }> = {
  REAL: { label: "Real scan", tone: "border-green-700 bg-green-50 text-green-900" },
  OWNER: { label: "You", tone: "border-brand-700 bg-brand-50 text-brand-900" },
  REPEAT: { label: "Repeat", tone: "border-slate-400 bg-slate-100 text-slate-800" },
  BOT: { label: "Bot or link preview", tone: "border-slate-500 bg-white text-slate-700" },
  PREFETCH: { label: "Prefetch", tone: "border-slate-500 bg-white text-slate-700" },
};

/** The explanation of suspicious scans above the list, which each marked scan links to. */
const SUSPICIOUS_HELP_ID = "suspicious-scans-help";

const badge = "inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap";

const regions = new Intl.DisplayNames(["en"], { type: "region" });

export function countryName(code: string | null): string | null {
  if (!code) return null;
  try {
    return regions.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

function ScanItem({ scan, timeZone }: { scan: ScanRecord; timeZone: string }) {
  const kind = scanClassLabels[scan.scanClass];
  const place = [scan.city, countryName(scan.country)].filter(Boolean).join(", ") || "Place unknown";
  const when = formatDateTime(scan.scannedAt, timeZone);
  const located = scan.locationShared && scan.latitude !== null && scan.longitude !== null;
  return (
    <li className="flex flex-col gap-1.5 py-3" data-scan-class={scan.locationShared ? "LOCATION" : scan.scanClass}>
      <div className="flex flex-wrap items-center gap-2">
        {scan.locationShared ? (
          <span className={`${badge} border-reward-800 bg-reward-50 text-reward-800`}>Location shared</span>
        ) : (
          <span className={`${badge} ${kind.tone}`}>{kind.label}</span>
        )}
        {scan.suspicious ? <span className={`${badge} border-danger-700 bg-danger-50 text-danger-700`}>Possible copy of the tag</span> : null}
        <time dateTime={scan.scannedAt} className="text-sm text-ink">
          {when}
        </time>
      </div>
      {scan.suspicious ? (
        <p className="text-sm text-danger-700">
          Minutes after a scan too far away for one tag to travel. <a href={`#${SUSPICIOUS_HELP_ID}`} className="font-semibold underline">What this means</a>
        </p>
      ) : null}
      <p className="text-sm break-words text-muted">
        {scan.agent ?? "No browser details"} · {place}
      </p>
      {located ? (
        <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
          <span className="text-ink">
            {formatPlace(scan.latitude!, scan.longitude!)}
            {scan.accuracy !== null ? ` (within ${Math.round(scan.accuracy)} m)` : ""}
          </span>
          <a href={openStreetMapUrl(scan.latitude!, scan.longitude!)} className="inline-flex min-h-10 items-center font-semibold text-brand-700 underline" target="_blank" rel="noopener noreferrer">
            Open in OpenStreetMap<span className="sr-only"> (location shared {when}, opens in a new tab)</span>
          </a>
          <a href={geoUri(scan.latitude!, scan.longitude!)} className="inline-flex min-h-10 items-center font-semibold text-brand-700 underline">
            Open in your maps app<span className="sr-only"> (location shared {when})</span>
          </a>
        </p>
      ) : null}
    </li>
  );
}

/**
 * What a scan marked as a possible copy means and what the owner can do, said once above the list. Only
 * what the product does: the page was not blocked, and a new tag (the old one released) is the way to
 * leave a copied code or link behind, since both stay the same for as long as the tag is owned.
 */
function SuspiciousScansHelp() {
  return (
    <section id={SUSPICIOUS_HELP_ID} aria-labelledby={`${SUSPICIOUS_HELP_ID}-heading`} tabIndex={-1} className="mb-3 rounded-lg border-l-4 border-danger-700 bg-danger-50 px-4 py-3 text-sm text-ink">
      <h3 id={`${SUSPICIOUS_HELP_ID}-heading`} className="font-semibold text-danger-700">
        About scans marked “Possible copy of the tag”
      </h3>
      <p className="mt-1">
        Two scans came minutes apart from places too far apart for one tag to travel. Someone may have copied the tag&apos;s QR code, link or printed code, or a VPN may have
        placed one of the scans far from where it happened. Nothing was blocked: the tag&apos;s page stayed open, so a real finder can still message you.
      </p>
      <p className="mt-1">
        If you shared the tag&apos;s link or code somewhere (a chat, a post), that may explain it. If you did not and it keeps happening, move to a new tag: activate a new one
        for the item, then release this one under “More” on this page, so the copies no longer reach you. Releasing deletes this tag&apos;s profile, photos, scans and
        messages.
      </p>
    </section>
  );
}

/** A tag's scans, newest first: each with its class, the kind of client, the place and any shared location; times in `timeZone`. */
export function ScanList({ scans, timeZone }: { scans: ScanRecord[]; timeZone: string }) {
  return (
    <>
      {scans.some((scan) => scan.suspicious) ? <SuspiciousScansHelp /> : null}
      <ul aria-label="Scans" className="flex flex-col divide-y divide-line">
        {scans.map((scan) => (
          <ScanItem key={scan.id} scan={scan} timeZone={timeZone} />
        ))}
      </ul>
    </>
  );
}

const monthOf = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString("en", { month: "long", year: "numeric", timeZone: "UTC" });
const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

/**
 * The tag's scans older than the list keeps (`months`), as the counts the retention run kept of them: a
 * sentence under the list, so the owner's history does not seem to begin 13 months ago.
 */
export function RolledUpScanSummary({ summary, months }: { summary: RolledUpScans; months: number }) {
  const span = summary.firstDay.slice(0, 7) === summary.lastDay.slice(0, 7) ? `in ${monthOf(summary.firstDay)}` : `from ${monthOf(summary.firstDay)} to ${monthOf(summary.lastDay)}`;
  const shared = summary.sharedLocations > 0 ? `, and finders shared their place ${plural(summary.sharedLocations, "time", "times")}` : "";
  return (
    <p className="mt-4 text-sm text-muted" data-testid="rolled-up-scans">
      Older scans: {plural(summary.all, "scan", "scans")} {span} ({plural(summary.real, "real scan", "real scans")}){shared}. Each scan is listed for {months} months; after that
      only the number per day is kept.
    </p>
  );
}
