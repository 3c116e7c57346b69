import type { Metadata } from "next";
import { headers } from "next/headers";
import { getTranslations } from "next-intl/server";
import { FinderNotice } from "@/components/finder/panels";
import { clientIp } from "@/lib/http/client-ip";
import { endpointRateLimits } from "@/lib/http/endpoint";
import { emergencyEndpoints } from "@/lib/http/endpoints/emergency";
import { optionalUserContext } from "@/lib/http/page-context";
import { visitorFrom } from "@/lib/http/visitor";
import { checkRateLimits } from "@/lib/ratelimit";
import { readEmergencyProfileByTag, type PublicEmergencyProfile } from "@/lib/services/emergency";
import { NotFoundError } from "@/lib/services/errors";

type Params = Promise<{ encryptedId: string }>;

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("Emergency");
  return { title: t("pageTitle"), robots: { index: false, follow: false } };
}

/** tel: link target: digits and a leading +, nothing a phone app could misread. */
function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}

/**
 * For a first responder: the owner's medical facts first, in large type, then tap-to-call contacts. Every
 * view is logged and tells the owner (the same verb as GET /scan/:encryptedId/emergency), so this page
 * is only ever linked with a plain <a>, never prefetched.
 */
export default async function EmergencyPage({ params }: { params: Params }) {
  const { encryptedId } = await params;
  const t = await getTranslations("Emergency");
  const requestHeaders = await headers();
  const limit = await checkRateLimits(endpointRateLimits(emergencyEndpoints.scan), { ip: clientIp(requestHeaders) });
  const back = (
    <a href={`/t/${encodeURIComponent(encryptedId)}`} className="text-base font-semibold text-brand-700 underline">
      {t("backToTag")}
    </a>
  );
  if (!limit.allowed) {
    const finder = await getTranslations("Finder");
    return (
      <FinderNotice heading={finder("tooManyHeading")}>
        <p>{finder("tooManyBody")}</p>
      </FinderNotice>
    );
  }

  let profile: PublicEmergencyProfile;
  try {
    profile = await readEmergencyProfileByTag(await optionalUserContext(), encryptedId, visitorFrom(requestHeaders, "GET"));
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    return (
      <FinderNotice heading={t("notAvailableHeading")}>
        <p>{t("notAvailableBody")}</p>
        <p>{back}</p>
      </FinderNotice>
    );
  }

  const facts: { label: string; value: string | null }[] = [
    { label: t("bloodType"), value: profile.bloodType },
    { label: t("allergies"), value: profile.allergies.join(", ") || null },
    { label: t("conditions"), value: profile.conditions.join(", ") || null },
    { label: t("medications"), value: profile.medications.join(", ") || null },
    { label: t("instructions"), value: profile.specialInstructions },
    { label: t("organDonor"), value: profile.organDonor === null || profile.organDonor === undefined ? null : profile.organDonor ? t("yes") : t("no") },
  ];

  return (
    <>
      <div className="rounded-xl bg-red-800 px-4 py-3 text-white">
        <h1 className="text-2xl font-bold">{t("heading")}</h1>
        <p className="mt-1 font-semibold" data-testid="emergency-whose">
          {profile.ownerName ? t("whose", { name: profile.ownerName }) : t("whoseUnnamed")}
        </p>
        <p className="mt-1 text-sm">{t("forResponders")}</p>
      </div>
      <dl className="flex flex-col gap-3 rounded-xl border border-line bg-white p-4">
        {facts.map((fact) => (
          <div key={fact.label} className="border-b border-line pb-3 last:border-b-0 last:pb-0">
            <dt className="text-sm font-semibold uppercase tracking-wide text-muted">{fact.label}</dt>
            <dd className={`mt-0.5 break-words ${fact.value ? "text-2xl font-bold text-ink" : "text-base text-muted"}`}>{fact.value ?? t("notRecorded")}</dd>
          </div>
        ))}
      </dl>
      <section aria-labelledby="emergency-contacts" className="flex flex-col gap-3 rounded-xl border border-line bg-white p-4">
        <h2 id="emergency-contacts" className="text-xl font-bold text-ink">
          {t("contacts")}
        </h2>
        {profile.emergencyContacts.length === 0 ? <p className="text-muted">{t("noContacts")}</p> : null}
        <ul className="flex flex-col gap-3">
          {profile.emergencyContacts.map((contact, index) => (
            <li key={`${contact.name}-${index}`} className="flex flex-col gap-2">
              <p className="text-lg text-ink">
                <span className="font-bold">{contact.name}</span> · {contact.relationship}
              </p>
              <a href={telHref(contact.phone)} className="btn-primary min-h-14 text-lg">
                {t("call", { name: contact.name })} · {contact.phone}
              </a>
            </li>
          ))}
        </ul>
        {profile.physician || profile.physicianPhone ? (
          <div className="flex flex-col gap-2 border-t border-line pt-3">
            <p className="text-lg text-ink">
              <span className="font-bold">{t("physician")}</span>
              {profile.physician ? `: ${profile.physician}` : ""}
            </p>
            {profile.physicianPhone ? (
              <a href={telHref(profile.physicianPhone)} className="btn-secondary min-h-12">
                {t("callPhysician")} · {profile.physicianPhone}
              </a>
            ) : null}
          </div>
        ) : null}
      </section>
      <p>{back}</p>
    </>
  );
}
