import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { BrowserTimeZone } from "@/components/browser-time-zone";
import { ContactOwnerCard } from "@/components/finder/contact-owner-card";
import { FinderCard, FinderNotice, SafetyAdvice } from "@/components/finder/panels";
import { wordsFor } from "@/lib/finder-page/messages";
import { pageLocale } from "@/lib/i18n/request";
import { relayCard, relayTelHref } from "@/lib/finder-page/tag-page";
import { PlacesMap } from "@/components/maps/places-map";
import { clientIp } from "@/lib/http/client-ip";
import { endpointRateLimits } from "@/lib/http/endpoint";
import { alertEndpoints } from "@/lib/http/endpoints/alerts";
import { optionalUserContext } from "@/lib/http/page-context";
import { pageParams } from "@/lib/http/page-input";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { formatMoney } from "@/lib/i18n/money";
import { geoUri, openStreetMapUrl } from "@/lib/maps/links";
import { checkRateLimits } from "@/lib/ratelimit";
import { getPublicLostAlert, type PublicLostAlert } from "@/lib/services/alerts";
import { NotFoundError } from "@/lib/services/errors";
import { contactFromAlertAction, describeSightingAction, sightingAction } from "./actions";
import { SightingPanel } from "./sighting-panel";

type Params = Promise<{ alertId: string }>;

/** The radius drawn around the rounded point: the grid's half-diagonal, so the circle says "around here". */
const AREA_RADIUS_M = 400;

/** One read per request for the metadata and the page; unknown, removed and malformed ids are the 404 page. */
const loadAlert = cache(async (rawId: string): Promise<PublicLostAlert> => {
  const { alertId } = await pageParams(alertEndpoints.getPublic, { alertId: rawId });
  try {
    return await getPublicLostAlert(await optionalUserContext(), alertId);
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
});

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const t = await getTranslations("Lost");
  const alert = await loadAlert((await params).alertId);
  const name = alert.petName ?? t("unnamedPet");
  const title = t("metaTitle", { name });
  const description = alert.status === "OPEN" ? t("bannerOpen") : alert.status === "HOME" ? t("homeHeading", { name }) : t("closedHeading");
  const photo = alert.photos[0];
  // Shared by neighbours on purpose (the preview shows the pet), but still nobody's search result: the page is
  // about a private person's pet.
  return {
    title,
    description,
    openGraph: { title, description, type: "website", ...(photo ? { images: [{ url: photo.url }] } : {}) },
    robots: { index: false, follow: false },
    referrer: "same-origin",
  };
}

/**
 * A lost pet's public page (what a watcher's notification opens, and what neighbours share), in the
 * visitor's language, server-rendered and usable without JavaScript: the pet, where it was last seen on
 * a map (rounded to ~500 m) and when, the reward, "I've seen this pet", the finder page's message form and
 * relay card. Once the pet is home (or the alert closed), only that, and no forms.
 */
export default async function LostAlertPage({ params }: { params: Params }) {
  const { alertId } = await params;
  const t = await getTranslations("Lost");
  const finder = await getTranslations("Finder");

  // The page reads GET /lost/:alertId's data, so it counts against that endpoint's per-IP limit.
  const limit = await checkRateLimits(endpointRateLimits(alertEndpoints.getPublic), { ip: clientIp(await headers()) });
  if (!limit.allowed) {
    return (
      <FinderNotice heading={finder("tooManyHeading")}>
        <p>{finder("tooManyBody")}</p>
      </FinderNotice>
    );
  }

  const alert = await loadAlert(alertId);
  const name = alert.petName ?? t("unnamedPet");

  if (alert.status !== "OPEN") {
    return (
      <>
        <FinderCard labelledBy="lost-closed" className={alert.status === "HOME" ? "border-green-700 bg-green-50" : undefined}>
          <h1 id="lost-closed" className={`text-2xl font-bold break-words ${alert.status === "HOME" ? "text-green-900" : "text-ink"}`}>
            {alert.status === "HOME" ? t("homeHeading", { name }) : t("closedHeading")}
          </h1>
          <p className={alert.status === "HOME" ? "text-green-900" : "text-ink"}>{alert.status === "HOME" ? t("homeBody") : t("closedBody")}</p>
        </FinderCard>
        <PetCard alert={alert} name={name} headingLevel="h2" />
        <ReportLink alertId={alert.id} />
      </>
    );
  }

  const actions = alert.contactEnabled || alert.relay ? (
    <div className="flex flex-col gap-3">
      {alert.contactEnabled ? (
        <>
          <a href="#lost-seen" className="flex min-h-14 flex-col items-center justify-center rounded-xl bg-brand-700 px-4 py-3 text-center text-white hover:bg-brand-800" data-testid="seen-jump">
            <span className="text-lg font-bold">{t("seenButton")}</span>
          </a>
          <a href="#lost-contact" className="flex min-h-14 flex-col items-center justify-center rounded-xl border-2 border-brand-700 bg-white px-4 py-3 text-center text-brand-800 hover:bg-brand-50" data-testid="message-owner">
            <span className="text-lg font-bold">{finder("messageOwner")}</span>
            <span className="text-sm">{finder("messageOwnerHint")}</span>
          </a>
        </>
      ) : null}
      {alert.relay ? (
        <a href={relayTelHref(alert.relay)} className="flex min-h-14 flex-col items-center justify-center rounded-xl border-2 border-brand-700 bg-white px-4 py-3 text-center text-brand-800 hover:bg-brand-50" data-testid="relay-call-top">
          <span className="text-lg font-bold">{finder("relayCall")}</span>
          <span className="text-sm">{finder("relayCallHint")}</span>
        </a>
      ) : null}
    </div>
  ) : null;

  return (
    <>
      <BrowserTimeZone />
      <p role="status" className="rounded-xl bg-danger-700 px-4 py-3 text-center text-lg font-bold text-white">
        {t("bannerOpen")}
      </p>
      <PetCard alert={alert} name={name} headingLevel="h1" actions={actions} />
      <LastSeen alert={alert} />
      {alert.contactEnabled ? (
        <FinderCard labelledBy="lost-seen">
          <h2 id="lost-seen" className="text-xl font-bold text-ink">
            {t("seenHeading")}
          </h2>
          <p className="text-muted">{t("seenIntro")}</p>
          <SightingPanel
            alertId={alert.id}
            sightingAction={sightingAction}
            describeAction={describeSightingAction}
            texts={{
              button: t("seenButton"),
              pending: t("seenPending"),
              denied: t("seenDenied"),
              unavailable: t("seenUnavailable"),
              describe: t("seenDescribe"),
              whereLabel: t("whereLabel"),
              whereHint: t("whereHint"),
              whereSend: t("whereSend"),
              sending: finder("sending"),
            }}
          />
        </FinderCard>
      ) : null}
      {/* The finder page's own card (lib/finder-page): escaped markup built on the server, in the page's language. */}
      {alert.relay ? <div className="contents" dangerouslySetInnerHTML={{ __html: relayCard(wordsFor(await pageLocale()), alert.relay).__html }} /> : null}
      <ContactOwnerCard headingId="lost-contact" action={contactFromAlertAction} hidden={{ alertId: alert.id }} closedText={alert.contactEnabled ? null : t("contactClosed")} />
      <SafetyAdvice heading={finder("safetyHeading")} points={[finder("safetyPublicPlace"), finder("safetyNoPayment"), finder("safetyStayHere")]} />
      <ReportLink alertId={alert.id} />
    </>
  );
}

/** The pet: photo, species, name, what identifies it, the owner's note, the reward, and the page's actions under the name. */
async function PetCard({ alert, name, headingLevel, actions }: { alert: PublicLostAlert; name: string; headingLevel: "h1" | "h2"; actions?: React.ReactNode }) {
  const t = await getTranslations("Lost");
  const finder = await getTranslations("Finder");
  const locale = await getLocale();
  const Heading = headingLevel;
  const [photo, ...morePhotos] = alert.photos;
  const details = [
    ["breed", alert.breed],
    ["color", alert.color],
    ["size", alert.size],
    ["distinctiveMarks", alert.distinctiveMarks],
  ] as const;
  const shown = details.filter(([, value]) => value);
  const open = alert.status === "OPEN";
  return (
    <FinderCard labelledBy="lost-pet">
      {photo ? (
        // eslint-disable-next-line @next/next/no-img-element -- served by our own photo route, already re-encoded and small; no client JavaScript needed
        <img src={photo.url} alt={t("photoAltNumbered", { number: 1, name })} className="aspect-[4/3] w-full rounded-lg border border-line bg-canvas object-cover" data-testid="lost-photo" />
      ) : null}
      <div className="flex flex-col gap-1">
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{t(`species.${alert.species}`)}</p>
        <Heading id="lost-pet" className="text-2xl font-bold break-words text-ink">
          {name}
        </Heading>
      </div>
      {actions}
      {open && alert.reward ? (
        <div className="rounded-lg bg-reward-50 px-3 py-2 text-reward-800" data-testid="lost-reward">
          <p className="text-lg font-bold">{finder("reward", { amount: formatMoney(alert.reward.amount, alert.reward.currency, locale) })}</p>
          {alert.reward.note ? <p className="mt-1 whitespace-pre-line break-words">{alert.reward.note}</p> : null}
          {alert.contactEnabled ? <p className="mt-1 text-sm">{t("rewardHowTo")}</p> : null}
        </div>
      ) : null}
      {alert.note ? (
        <div>
          <h2 className="text-sm font-semibold text-muted">{finder("ownerNote")}</h2>
          <p className="mt-1 whitespace-pre-line break-words text-ink">{alert.note}</p>
        </div>
      ) : null}
      {shown.length > 0 ? (
        <div data-testid="lost-identifying">
          <h2 className="text-sm font-semibold text-muted">{finder("identifyingHeading")}</h2>
          <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-ink">
            {shown.map(([field, value]) => (
              <div key={field} className="contents">
                <dt className="text-muted">{finder(`field.${field}`)}</dt>
                <dd className="break-words">{value}</dd>
              </div>
            ))}
          </dl>
        </div>
      ) : null}
      {morePhotos.length > 0 ? (
        <ul aria-label={t("photosLabel")} className="grid grid-cols-3 gap-2">
          {morePhotos.map((more, index) => (
            <li key={more.url}>
              <a href={more.url} className="block rounded-lg">
                {/* eslint-disable-next-line @next/next/no-img-element -- as above */}
                <img src={more.url} alt={t("photoAltNumbered", { number: index + 2, name })} loading="lazy" className="aspect-square w-full rounded-lg border border-line bg-canvas object-cover" />
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </FinderCard>
  );
}

/** Where and when: the rounded place on the map (and as links, which is what works without JavaScript). */
async function LastSeen({ alert }: { alert: PublicLostAlert }) {
  const t = await getTranslations("Lost");
  const format = await getFormatter();
  const timeZone = await viewerTimeZone();
  const at = new Date(alert.lastSeen.at);
  const time = format.dateTime(at, { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short", timeZone });
  const ago = format.relativeTime(at, new Date());
  const { latitude, longitude } = alert.lastSeen;
  const link = "inline-flex min-h-10 items-center font-semibold text-brand-700 underline";
  return (
    <FinderCard labelledBy="lost-last-seen">
      <h2 id="lost-last-seen" className="text-xl font-bold text-ink">
        {t("lastSeenHeading")}
      </h2>
      <p className="text-ink" data-testid="lost-last-seen-at">
        <time dateTime={alert.lastSeen.at}>{t("lastSeenAt", { time, ago })}</time>
      </p>
      <PlacesMap
        label={t("mapLabel")}
        describedBy="lost-area-note"
        places={[{ id: alert.id, latitude, longitude, accuracy: AREA_RADIUS_M, kind: "shared", label: t("mapMarker", { time }) }]}
        singleZoom={14}
        texts={{ needsScript: t("mapNeedsScript"), failed: t("mapFailed"), loading: t("mapLoading"), openInOsm: t("openInOsm") }}
      />
      <p id="lost-area-note" className="text-sm text-muted">
        {t("lastSeenArea")} {t("timesIn", { zone: timeZone })}
      </p>
      <p className="flex flex-wrap gap-x-4 text-sm">
        <a href={openStreetMapUrl(latitude, longitude)} className={link} target="_blank" rel="noopener noreferrer">
          {t("openInOsm")}
        </a>
        <a href={geoUri(latitude, longitude)} className={link}>
          {t("openInMaps")}
        </a>
      </p>
    </FinderCard>
  );
}

/** Any visitor may report an alert; the report form asks to sign in first (the dashboard's safety page). */
async function ReportLink({ alertId }: { alertId: string }) {
  const t = await getTranslations("Lost");
  return (
    <p className="text-sm text-muted">
      {t("reportHint")}{" "}
      {/* A full page load: the dashboard is outside the finder's pages (app/layout.tsx). */}
      <a href={`/dashboard/account/safety?alertId=${encodeURIComponent(alertId)}`} className="font-semibold text-brand-700 underline" data-testid="report-alert">
        {t("reportLink")}
      </a>
    </p>
  );
}
