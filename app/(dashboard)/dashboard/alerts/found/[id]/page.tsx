import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { BackLink } from "@/components/dashboard/back-link";
import { DateTime } from "@/components/dashboard/date-time";
import { PageHeading } from "@/components/dashboard/page-heading";
import { Panel } from "@/components/dashboard/panel";
import { FormAlert } from "@/components/forms/form-alert";
import { animalLabels, organisationKindLabels } from "@/components/organisations/labels";
import { organisationEndpoints } from "@/lib/http/endpoints/organisations";
import { requireUserContext } from "@/lib/http/page-context";
import { pageParams } from "@/lib/http/page-input";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { formatPlace, openStreetMapUrl } from "@/lib/maps/links";
import { NotFoundError } from "@/lib/services/errors";
import { findMyOrganisation, getFoundReport, type FoundReport } from "@/lib/services/organisations";

export const metadata: Metadata = { title: "A found animal" };

type Params = Promise<Record<string, string | string[] | undefined>>;

async function loadReport(ctx: Awaited<ReturnType<typeof requireUserContext>>, id: string): Promise<FoundReport> {
  try {
    return await getFoundReport(ctx, id);
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
}

/**
 * A found-animal report as the owner of a matched lost pet reads it (FOUND_PET_MATCH leads here): the photo,
 * what the animal is, where (rounded) and when it was found, the note, and who has it with their contact
 * details; the filing organisation and admins read the same page. Anyone else gets the 404 page.
 */
export default async function FoundReportPage({ params }: { params: Params }) {
  const { id } = await pageParams(organisationEndpoints.getFound, params);
  const ctx = await requireUserContext(`/dashboard/alerts/found/${id}`);
  const [timeZone, report, mine] = await Promise.all([viewerTimeZone(), loadReport(ctx, id), findMyOrganisation(ctx)]);
  // The organisation that filed it reads the same page, and goes back to its own.
  const filedByMe = mine?.id === report.organisation.id;
  const animal = animalLabels[report.species];
  const description = [report.colour, report.breed].filter(Boolean).join(" ");
  const { organisation } = report;

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      {filedByMe ? <BackLink href="/dashboard/organisation">Your organisation</BackLink> : <BackLink href="/dashboard/alerts">Lost pets</BackLink>}
      <PageHeading title={`A found ${animal.toLowerCase()}${description ? `: ${description}` : ""}`}>
        {organisation.name} found this animal. It may be your pet: look at the photo and contact them.
      </PageHeading>
      {report.removed ? <FormAlert tone="info" title="A moderator removed this report: the owners of matching lost pets no longer see it." /> : null}

      <Panel id="animal" title="The animal">
        <div className="flex flex-col gap-5 sm:flex-row">
          {report.photoUrl ? (
            // eslint-disable-next-line @next/next/no-img-element -- served by our own route to the report's readers only, re-encoded without metadata
            <img src={report.photoUrl} alt={`Photo of the found ${animal.toLowerCase()}`} className="max-h-80 w-full rounded-lg border border-line object-contain sm:w-64" />
          ) : (
            <p className="flex h-40 w-full items-center justify-center rounded-lg border border-dashed border-slate-400 bg-canvas text-sm text-muted sm:w-64">No photo</p>
          )}
          <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="font-semibold text-ink">Animal</dt>
            <dd className="text-ink">{animal}</dd>
            <dt className="font-semibold text-ink">Breed</dt>
            <dd className="break-words text-ink">{report.breed ?? "Not given"}</dd>
            <dt className="font-semibold text-ink">Colour</dt>
            <dd className="break-words text-ink">{report.colour ?? "Not given"}</dd>
            <dt className="font-semibold text-ink">Found</dt>
            <dd className="text-ink">
              <DateTime iso={report.foundAt} timeZone={timeZone} long />
            </dd>
            <dt className="font-semibold text-ink">Where</dt>
            <dd className="text-ink">
              About {formatPlace(report.latitude, report.longitude)}{" "}
              <a href={openStreetMapUrl(report.latitude, report.longitude)} className="font-semibold text-brand-700 underline" rel="noopener noreferrer" target="_blank">
                Open on OpenStreetMap
              </a>
            </dd>
          </dl>
        </div>
        <figure className="mt-5 rounded-lg border-l-4 border-brand-700 bg-canvas px-4 py-3">
          <figcaption className="text-xs font-semibold text-muted uppercase">Their note</figcaption>
          <blockquote className="mt-1 break-words whitespace-pre-line text-ink">{report.note}</blockquote>
        </figure>
      </Panel>

      <Panel id="organisation" title={`Who has it: ${organisation.name}`} description={organisationKindLabels[organisation.kind]}>
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="font-semibold text-ink">Phone</dt>
          <dd>
            <a href={`tel:${organisation.phone}`} className="font-semibold text-brand-700 underline">
              {organisation.phone}
            </a>
          </dd>
          <dt className="font-semibold text-ink">Address</dt>
          <dd className="break-words whitespace-pre-line text-ink">{organisation.address}</dd>
          {organisation.website ? (
            <>
              <dt className="font-semibold text-ink">Website</dt>
              <dd className="break-all">
                <a href={organisation.website} className="font-semibold text-brand-700 underline" rel="noopener noreferrer nofollow" target="_blank">
                  {organisation.website}
                </a>
              </dd>
            </>
          ) : null}
        </dl>
      </Panel>

      {report.matches.length ? (
        <Panel id="matches" title={report.matches.length === 1 ? "The lost pet it matched" : "The lost pets it matched"}>
          <ul className="flex flex-col gap-2 text-sm">
            {report.matches.map((match) => (
              <li key={match.alertId}>
                <a href={match.url} className="font-semibold text-brand-700 underline">
                  {match.petName}
                </a>{" "}
                <span className="text-muted">last seen {match.distanceText} from where this animal was found</span>
              </li>
            ))}
          </ul>
        </Panel>
      ) : null}

      {filedByMe ? null : (
        <p className="text-sm text-muted">
          Something wrong with this report?{" "}
          <Link href={`/dashboard/account/safety?foundReportId=${report.id}&type=SCAM#report`} className="font-semibold text-brand-700 underline">
            Report this
          </Link>
        </p>
      )}
    </div>
  );
}
