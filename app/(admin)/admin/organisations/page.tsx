import type { Metadata } from "next";
import { AdminHeading, FilterForm, FilterSelect, ResultCount } from "@/components/admin/list-filters";
import { DateTime } from "@/components/dashboard/date-time";
import { noticeFrom } from "@/components/dashboard/notices";
import { Pager } from "@/components/dashboard/pager";
import { FormAlert } from "@/components/forms/form-alert";
import { SubmitButton } from "@/components/forms/submit-button";
import { organisationKindLabels } from "@/components/organisations/labels";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { formatPlace, openStreetMapUrl } from "@/lib/maps/links";
import { listOrganisationsForAdmin, type AdminOrganisation } from "@/lib/services/organisations";
import { requireAdminContext } from "../admin-context";
import { setVerifiedAction } from "./actions";
import { ORGANISATIONS_PATH, organisationsHref, organisationsView, type OrganisationsView } from "./organisations-path";

export const metadata: Metadata = { title: "Organisations" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const PER_PAGE = 20;

/** Shelters, vets and police stations: check each application (its place, phone, website) and verify it, or withdraw a verification. */
export default async function AdminOrganisationsPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireAdminContext(ORGANISATIONS_PATH);
  const timeZone = await viewerTimeZone();
  const params = await searchParams;
  const view = organisationsView((name) => {
    const value = params[name];
    return Array.isArray(value) ? value[0] : value;
  });
  const { items, total } = await listOrganisationsForAdmin(ctx, {
    page: view.page,
    limit: PER_PAGE,
    verified: view.show === "all" ? undefined : view.show === "verified",
  });
  const totalPages = Math.max(1, Math.ceil(total / PER_PAGE));
  const notice = noticeFrom(params, {
    verified: { tone: "success", text: "The organisation is verified. Its account was told by e-mail." },
    unverified: { tone: "success", text: "The verification is withdrawn. Its account was told by e-mail." },
    missing: { tone: "error", text: "That organisation was not found." },
  });

  return (
    <div className="flex max-w-4xl flex-col gap-6">
      <AdminHeading title="Organisations" intro="Shelters, vets and police stations that applied to see lost pets near them and report found animals. Check each one before verifying it; those waiting are listed oldest first." />
      {notice ? <FormAlert tone={notice.tone} title={notice.text} /> : null}

      <FilterForm action={ORGANISATIONS_PATH} label="Filter organisations">
        <FilterSelect
          id="filter-show"
          label="Show"
          name="show"
          defaultValue={view.show}
          options={[
            { value: "pending", label: "Waiting for verification" },
            { value: "verified", label: "Verified" },
            { value: "all", label: "All" },
          ]}
        />
      </FilterForm>

      <ResultCount total={total} page={view.page} totalPages={totalPages} noun={["organisation", "organisations"]} />

      {items.length ? (
        <ul aria-label="Organisations" className="flex flex-col gap-4">
          {items.map((organisation) => (
            <OrganisationCard key={organisation.id} organisation={organisation} view={view} timeZone={timeZone} />
          ))}
        </ul>
      ) : null}

      <Pager page={view.page} totalPages={totalPages} href={(n) => organisationsHref({ ...view, page: n })} label="Organisation pages" className="" />
    </div>
  );
}

function OrganisationCard({ organisation, view, timeZone }: { organisation: AdminOrganisation; view: OrganisationsView; timeZone: string }) {
  const headingId = `organisation-${organisation.id}`;
  return (
    <li id={headingId} aria-labelledby={`${headingId}-name`} className="flex flex-col gap-4 rounded-xl border border-line bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={`${headingId}-name`} className="text-lg font-semibold break-words text-ink">
          {organisation.name} <span className="text-sm font-normal text-muted">· {organisationKindLabels[organisation.kind]}</span>
        </h2>
        <span data-verified={organisation.verified} className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${organisation.verified ? "bg-green-50 text-green-900" : "bg-amber-100 text-amber-900"}`}>
          {organisation.verified ? "Verified" : "Waiting"}
        </span>
      </div>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-semibold text-ink">Account</dt>
        <dd className="break-all text-muted">{organisation.userEmail ?? organisation.userId}</dd>
        <dt className="font-semibold text-ink">Address</dt>
        <dd className="break-words whitespace-pre-line text-muted">{organisation.address}</dd>
        <dt className="font-semibold text-ink">Place</dt>
        <dd className="text-muted">
          <a href={openStreetMapUrl(organisation.latitude, organisation.longitude)} className="font-semibold text-brand-700 underline" rel="noopener noreferrer" target="_blank">
            {formatPlace(organisation.latitude, organisation.longitude)}
          </a>
        </dd>
        <dt className="font-semibold text-ink">Phone</dt>
        <dd className="text-muted">{organisation.phone}</dd>
        <dt className="font-semibold text-ink">Website</dt>
        <dd className="break-all text-muted">
          {organisation.website ? (
            <a href={organisation.website} className="font-semibold text-brand-700 underline" rel="noopener noreferrer nofollow" target="_blank">
              {organisation.website}
            </a>
          ) : (
            "None"
          )}
        </dd>
        <dt className="font-semibold text-ink">Applied</dt>
        <dd className="text-muted">
          <DateTime iso={organisation.createdAt} timeZone={timeZone} />
        </dd>
        {organisation.verifiedAt ? (
          <>
            <dt className="font-semibold text-ink">Verified</dt>
            <dd className="text-muted">
              <DateTime iso={organisation.verifiedAt} timeZone={timeZone} />
            </dd>
          </>
        ) : null}
      </dl>
      <form action={setVerifiedAction} className="border-t border-line pt-4">
        <input type="hidden" name="organisationId" value={organisation.id} />
        <input type="hidden" name="verified" value={organisation.verified ? "false" : "true"} />
        <input type="hidden" name="view-show" value={view.show} />
        <input type="hidden" name="view-page" value={String(view.page)} />
        <SubmitButton variant={organisation.verified ? "secondary" : "primary"} pendingLabel="Saving…">
          {organisation.verified ? "Withdraw verification" : "Verify"}
          <span className="sr-only"> {organisation.name}</span>
        </SubmitButton>
      </form>
    </li>
  );
}
