import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { FinderCard, FinderNotice, SafetyAdvice } from "@/components/finder/panels";
import { FinderRelayCard, relayTelHref } from "@/components/finder/relay-card";
import { FinderTagCard } from "@/components/finder/tag-card";
import { ContactOwnerCard } from "@/components/finder/contact-owner-card";
import { ShareLocation } from "@/components/finder/share-location";
import { optionalUserContext } from "@/lib/http/page-context";
import { clientIp } from "@/lib/http/client-ip";
import { endpointRateLimits } from "@/lib/http/endpoint";
import { scanEndpoints } from "@/lib/http/endpoints/scans";
import { visitorFrom } from "@/lib/http/visitor";
import { checkRateLimits } from "@/lib/ratelimit";
import { scanTag } from "@/lib/services/finder";
import type { PublicScanView } from "@/lib/services/scans";
import { NotFoundError } from "@/lib/services/errors";
import { contactOwnerAction } from "./actions";

type Params = Promise<{ encryptedId: string }>;

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("Finder");
  // A finder's page is nobody's business but the finder's: keep it out of search engines.
  return { title: t("pageTitle"), robots: { index: false, follow: false } };
}

/**
 * The page a tag's QR code opens. Server-rendered from scanTag (the same verb as GET /scan/:encryptedId,
 * which records the scan and tells the owner when it is a real one). Readable and usable without
 * JavaScript; only "share my location" needs it.
 */
export default async function FinderScanPage({ params }: { params: Params }) {
  const { encryptedId } = await params;
  const t = await getTranslations("Finder");
  const requestHeaders = await headers();
  const ctx = await optionalUserContext();

  // The page records a scan like GET /scan/:encryptedId, so it counts against the same per-IP limit.
  const limit = await checkRateLimits(endpointRateLimits(scanEndpoints.scan), { ip: clientIp(requestHeaders) });
  if (!limit.allowed) {
    return (
      <FinderNotice heading={t("tooManyHeading")}>
        <p>{t("tooManyBody")}</p>
      </FinderNotice>
    );
  }

  let view: PublicScanView;
  try {
    view = await scanTag(ctx, encryptedId, visitorFrom(requestHeaders, "GET"));
  } catch (error) {
    // A suspected copy of the tag is answered like any scan (the owner is alerted): a refusal would let
    // anyone with a VPN shut genuine finders out of a lost item's page.
    if (error instanceof NotFoundError) notFound();
    throw error;
  }

  if (view.status === "PENDING_SETUP") {
    return (
      <FinderNotice heading={t("unownedHeading")}>
        <p>{t("unownedBody")}</p>
      </FinderNotice>
    );
  }

  return <TagForFinder view={view} encryptedId={encryptedId} />;
}

async function TagForFinder({ view, encryptedId }: { view: PublicScanView; encryptedId: string }) {
  const t = await getTranslations("Finder");

  // Messaging first: the finder's first action, right under the item's name (above the fold on a phone),
  // jumping to the form below; with the relay on, a call (the PIN dialled for them) next; the emergency
  // button follows.
  const actions =
    view.contactEnabled || view.emergencyAvailable || view.relay ? (
      <div className="flex flex-col gap-3">
        {view.contactEnabled ? (
          <a href="#finder-contact" className="flex min-h-14 flex-col items-center justify-center rounded-xl bg-brand-700 px-4 py-3 text-center text-white hover:bg-brand-800" data-testid="message-owner">
            <span className="text-lg font-bold">{t("messageOwner")}</span>
            <span className="text-sm">{t("messageOwnerHint")}</span>
          </a>
        ) : null}
        {view.relay ? (
          <a
            href={relayTelHref(view.relay)}
            className="flex min-h-14 flex-col items-center justify-center rounded-xl border-2 border-brand-700 bg-white px-4 py-3 text-center text-brand-800 hover:bg-brand-50"
            data-testid="relay-call-top"
          >
            <span className="text-lg font-bold">{t("relayCall")}</span>
            <span className="text-sm">{t("relayCallHint")}</span>
          </a>
        ) : null}
        {view.emergencyAvailable ? (
          <a
            href={`/t/${encodeURIComponent(encryptedId)}/emergency`}
            className="flex min-h-14 flex-col items-center justify-center rounded-xl bg-red-800 px-4 py-3 text-center text-white hover:bg-red-900"
            data-testid="emergency-button"
          >
            <span className="text-lg font-bold">{t("emergencyButton")}</span>
            <span className="text-sm">{t("emergencyHint")}</span>
          </a>
        ) : null}
      </div>
    ) : null;

  return (
    <>
      <FinderTagCard view={view} actions={actions} />

      {/* Only while the owner has the relay on: otherwise nothing about phones is shown (docs/relay.md). */}
      {view.relay ? <FinderRelayCard relay={view.relay} /> : null}

      <ContactOwnerCard
        headingId="finder-contact"
        action={contactOwnerAction}
        hidden={{ encryptedId }}
        closedText={view.contactEnabled ? null : view.status === "DEACTIVATED" ? t("deactivatedBody") : t("contactDisabled")}
      />

      {view.contactEnabled ? (
        <FinderCard labelledBy="finder-location">
          <h2 id="finder-location" className="text-lg font-bold text-ink">
            {t("locationHeading")}
          </h2>
          <p className="text-sm text-muted">{t("locationIntro")}</p>
          <ShareLocation
            encryptedId={encryptedId}
            texts={{
              button: t("locationButton"),
              pending: t("locationPending"),
              sent: t("locationSent"),
              denied: t("locationDenied"),
              unavailable: t("locationUnavailable"),
              failed: t("failed"),
              needsScript: t("locationNeedsScript"),
            }}
          />
        </FinderCard>
      ) : null}

      <SafetyAdvice heading={t("safetyHeading")} points={[t("safetyPublicPlace"), t("safetyNoPayment"), t("safetyStayHere")]} />
    </>
  );
}
