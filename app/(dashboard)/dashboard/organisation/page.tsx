import type { Metadata } from "next";
import Link from "next/link";
import { DateTime } from "@/components/dashboard/date-time";
import { PageHeading } from "@/components/dashboard/page-heading";
import { Pager, pageParam } from "@/components/dashboard/pager";
import { Panel } from "@/components/dashboard/panel";
import { FormAlert } from "@/components/forms/form-alert";
import { animalLabels, organisationKindLabels } from "@/components/organisations/labels";
import { FieldsForm } from "@/components/tags/fields-form";
import { requireUserContext } from "@/lib/http/page-context";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { localDateTimeInput } from "@/lib/i18n/time-zones";
import { findMyOrganisation, listMyFoundReports, listOrganisationAlerts, type FoundReport, type Organisation, type OrganisationAlert } from "@/lib/services/organisations";
import { applyOrganisationAction, fileFoundReportAction, updateOrganisationAction } from "./actions";
import { ApplyOrganisationForm, FoundReportForm } from "./organisation-forms";

export const metadata: Metadata = { title: "Organisation" };

const PATH = "/dashboard/organisation";
const ALERTS_PER_PAGE = 20;
const REPORTS_PER_PAGE = 10;

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * A shelter's, vet's or police station's page (docs/organisations.md): the application; while it waits, a notice;
 * once verified by an admin, the open lost-pet alerts around it (newest first, with photos), the found-animal
 * report form and its own reports with the lost pets each matched.
 */
export default async function OrganisationPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireUserContext(PATH);
  const query = await searchParams;
  const [timeZone, organisation] = await Promise.all([viewerTimeZone(), findMyOrganisation(ctx)]);

  if (!organisation) {
    return (
      <div className="flex max-w-3xl flex-col gap-6">
        <PageHeading title="Your organisation">
          Shelters, vets and police stations can see the lost pets reported near them and tell their owners when they find one. Register yours: an admin checks each application first.
        </PageHeading>
        <Panel id="apply" title="Register your organisation">
          <ApplyOrganisationForm action={applyOrganisationAction} />
        </Panel>
      </div>
    );
  }

  const alertsPage = pageParam(query.page);
  const reportsPage = pageParam(query.reports);
  const [alerts, reports] = organisation.verified
    ? await Promise.all([listOrganisationAlerts(ctx, { page: alertsPage, limit: ALERTS_PER_PAGE }), listMyFoundReports(ctx, { page: reportsPage, limit: REPORTS_PER_PAGE })])
    : [null, await listMyFoundReports(ctx, { page: reportsPage, limit: REPORTS_PER_PAGE })];

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <PageHeading title={organisation.name}>
        {organisationKindLabels[organisation.kind]} · {organisation.address}
      </PageHeading>
      {organisation.verified ? null : (
        <FormAlert tone="info" title="Waiting for verification">
          An admin checks your application. Once it is verified you get an e-mail, and this page shows the lost pets near you and lets you report animals you have found.
        </FormAlert>
      )}

      {alerts ? <AlertsSection alerts={alerts} page={alertsPage} radiusKm={organisation.watchRadiusKm} timeZone={timeZone} /> : null}

      {organisation.verified ? (
        <Panel id="found" title="Report a found animal" description="The owners of open alerts for this kind of animal within 20 km are told at once, when its colour and breed fit.">
          <FoundReportForm action={fileFoundReportAction} timeZone={timeZone} now={localDateTimeInput(new Date(), timeZone)} />
        </Panel>
      ) : null}

      {reports.total > 0 ? <ReportsSection reports={reports} page={reportsPage} timeZone={timeZone} /> : null}

      <SettingsPanel organisation={organisation} />
    </div>
  );
}

function AlertsSection({ alerts, page, radiusKm, timeZone }: { alerts: { items: OrganisationAlert[]; total: number }; page: number; radiusKm: number; timeZone: string }) {
  const totalPages = Math.max(1, Math.ceil(alerts.total / ALERTS_PER_PAGE));
  return (
    <section aria-labelledby="alerts-heading" className="flex flex-col gap-3">
      <h2 id="alerts-heading" className="text-lg font-semibold text-ink">
        Open lost-pet alerts near you
      </h2>
      <p className="text-sm text-muted">Within {radiusKm} km of your premises, newest first. Places are shown to within about 500 m.</p>
      {alerts.items.length === 0 ? (
        <p className="rounded-xl border border-line bg-white p-5 text-muted shadow-sm">{page > 1 ? "There is nothing on this page." : "No pet is reported lost near you right now."}</p>
      ) : (
        <ul aria-label="Open lost-pet alerts near you, newest first" className="flex flex-col divide-y divide-line overflow-hidden rounded-xl border border-line bg-white shadow-sm">
          {alerts.items.map((alert) => (
            <AlertRow key={alert.alertId} alert={alert} timeZone={timeZone} />
          ))}
        </ul>
      )}
      <Pager page={page} totalPages={totalPages} href={(n) => `${PATH}?page=${n}`} previousLabel="Newer" nextLabel="Older" label="Alert pages" className="" />
    </section>
  );
}

function PetPhoto({ url }: { url: string | null }) {
  return url ? (
    // eslint-disable-next-line @next/next/no-img-element -- served by our own photo route, already re-encoded and small
    <img src={url} alt="" className="h-20 w-20 shrink-0 rounded-lg border border-line object-cover" />
  ) : (
    <span aria-hidden="true" className="flex h-20 w-20 shrink-0 items-center justify-center rounded-lg border border-dashed border-slate-400 bg-canvas text-xs text-muted">
      No photo
    </span>
  );
}

function AlertRow({ alert, timeZone }: { alert: OrganisationAlert; timeZone: string }) {
  const description = [alert.color, alert.breed].filter(Boolean).join(" ");
  return (
    <li data-alert-id={alert.alertId}>
      {/* A plain link: the public page is outside the dashboard. */}
      <a href={alert.url} className="flex items-start gap-4 p-4 hover:bg-brand-50 focus-visible:bg-brand-50">
        <PetPhoto url={alert.photoUrl} />
        <span className="flex min-w-0 flex-col gap-0.5">
          <span className="text-lg font-semibold break-words text-brand-800 underline">{alert.petName}</span>
          <span className="text-sm break-words text-ink">
            {animalLabels[alert.species]}
            {description ? `: ${description}` : ""}
          </span>
          <span className="text-sm text-ink">Last seen {alert.distanceText} from you</span>
          <span className="text-sm text-muted">
            <DateTime iso={alert.lastSeenAt} timeZone={timeZone} />
          </span>
        </span>
      </a>
    </li>
  );
}

function ReportsSection({ reports, page, timeZone }: { reports: { items: FoundReport[]; total: number }; page: number; timeZone: string }) {
  const totalPages = Math.max(1, Math.ceil(reports.total / REPORTS_PER_PAGE));
  return (
    <section aria-labelledby="reports-heading" className="flex flex-col gap-3">
      <h2 id="reports-heading" className="text-lg font-semibold text-ink">
        Your found-animal reports
      </h2>
      <ul aria-label="Your found-animal reports, newest first" className="flex flex-col gap-3">
        {reports.items.map((report) => {
          const description = [report.colour, report.breed].filter(Boolean).join(" ");
          return (
            <li key={report.id} data-found-report-id={report.id} className="flex flex-col gap-3 rounded-xl border border-line bg-white p-4 shadow-sm">
              <div className="flex items-start gap-4">
                <PetPhoto url={report.photoUrl} />
                <div className="flex min-w-0 flex-col gap-0.5">
                  <Link href={`/dashboard/alerts/found/${report.id}`} className="font-semibold break-words text-brand-800 underline">
                    {animalLabels[report.species]}
                    {description ? `: ${description}` : ""}
                  </Link>
                  <span className="text-sm text-muted">
                    Found <DateTime iso={report.foundAt} timeZone={timeZone} />
                  </span>
                  {report.removed ? <span className="text-sm font-semibold text-danger-700">Removed by a moderator</span> : null}
                </div>
              </div>
              {report.matches.length ? (
                <div>
                  <p className="text-sm font-semibold text-ink">{report.matches.length === 1 ? "Matched 1 lost pet; its owner was told:" : `Matched ${report.matches.length} lost pets; their owners were told:`}</p>
                  <ul className="mt-1 flex flex-col gap-1 text-sm">
                    {report.matches.map((match) => (
                      <li key={match.alertId}>
                        <a href={match.url} className="font-semibold text-brand-700 underline">
                          {match.petName}
                        </a>{" "}
                        <span className="text-muted">
                          ({animalLabels[match.species].toLowerCase()}
                          {match.color ? `, ${match.color}` : ""}), last seen {match.distanceText} from where you found it
                        </span>
                      </li>
                    ))}
                  </ul>
                </div>
              ) : (
                <p className="text-sm text-muted">It matched no open alert when you filed it.</p>
              )}
            </li>
          );
        })}
      </ul>
      <Pager page={page} totalPages={totalPages} href={(n) => `${PATH}?reports=${n}#reports-heading`} previousLabel="Newer" nextLabel="Older" label="Report pages" className="" />
    </section>
  );
}

function SettingsPanel({ organisation }: { organisation: Organisation }) {
  return (
    <Panel
      id="settings"
      title="Settings"
      description="The name, kind, address and place are what an admin verified: to change them, contact support."
    >
      <FieldsForm
        action={updateOrganisationAction}
        formLabel="Organisation settings"
        columns={2}
        fields={[
          { name: "watchRadiusKm", label: "Show lost pets within (km)", kind: "number", min: "1", max: "100", step: "any", inputMode: "decimal", defaultValue: String(organisation.watchRadiusKm), hint: "From 1 to 100 km." },
          { name: "phone", label: "Phone", kind: "tel", autoComplete: "tel", maxLength: 40, defaultValue: organisation.phone, hint: "International form." },
          { name: "website", label: "Website", optional: true, maxLength: 300, defaultValue: organisation.website ?? "", hint: "Starting with https:// or http://." },
        ]}
        submitLabel="Save settings"
        pendingLabel="Saving…"
      />
    </Panel>
  );
}
