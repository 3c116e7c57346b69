import type { Metadata } from "next";
import Link from "next/link";
import { DateTime } from "@/components/dashboard/date-time";
import { noticeFrom } from "@/components/dashboard/notices";
import { PageHeading } from "@/components/dashboard/page-heading";
import { CursorPager, cursorParam, pageOrFirst } from "@/components/dashboard/pager";
import { Panel } from "@/components/dashboard/panel";
import { FormAlert } from "@/components/forms/form-alert";
import { SubmitButton } from "@/components/forms/submit-button";
import { requireUserContext } from "@/lib/http/page-context";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { findAlertArea, listNearbyAlerts, type NearbyAlert } from "@/lib/services/alerts";
import { saveAlertAreaAction, stopWatchingAction } from "./actions";
import { SPECIES_CHOICES, speciesLabel } from "./species-choices";
import { WatchAreaForm } from "./watch-area-form";

export const metadata: Metadata = { title: "Lost pets near you" };

const PAGE_SIZE = 20;
const PATH = "/dashboard/alerts";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * Lost-pet alerts for a neighbour (docs/alerts.md): the one area the account watches (the point picker,
 * a radius of 1–50 km, every pet or one kind; stop watching), then the open alerts it was told about,
 * newest first, each leading to the pet's public page.
 */
export default async function AlertsPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireUserContext(PATH);
  const query = await searchParams;
  const [timeZone, area, nearby] = await Promise.all([
    viewerTimeZone(),
    findAlertArea(ctx),
    pageOrFirst((cursor) => listNearbyAlerts(ctx, { page: 1, limit: PAGE_SIZE, cursor }), cursorParam(query.cursor)),
  ]);
  const page = nearby.page;
  const notice = noticeFrom(query, { stopped: { tone: "success", text: "You no longer watch an area: no more lost-pet alerts reach you." } });
  const totalPages = Math.max(1, Math.ceil(nearby.total / PAGE_SIZE));
  const watching = area ? `${area.radiusKm} km around your area, ${(SPECIES_CHOICES.find((choice) => choice.value === (area.species ?? ""))?.label ?? "all pets").toLowerCase()}` : null;

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <PageHeading title="Lost pets near you">
        When a pet is lost near you, its owner can alert the neighbours: you get a notification with its photo and where it was last seen, and can tell the owner when you see it.
      </PageHeading>
      {notice ? <FormAlert tone={notice.tone} title={notice.text} /> : null}

      <Panel
        id="watch-area"
        title="Watch my area for lost pets"
        description={
          <>
            {watching ? <p className="font-semibold text-ink" data-testid="watching">You are watching {watching}.</p> : <p>You are not watching an area yet.</p>}
            <p className="mt-1">
              How you are told (in the app, by e-mail, by push) is under{" "}
              <Link href="/dashboard/notifications/preferences" className="font-semibold text-brand-700 underline">
                your notification settings
              </Link>{" "}
              (&ldquo;Lost pets near my home&rdquo;).
            </p>
          </>
        }
      >
        <div className="flex flex-col gap-5">
          <WatchAreaForm action={saveAlertAreaAction} area={area ? { latitude: area.latitude, longitude: area.longitude, radiusKm: area.radiusKm, species: area.species } : null} />
          {area ? (
            <form action={stopWatchingAction} aria-label="Stop watching" className="border-t border-line pt-5">
              <p className="mb-3 text-sm text-muted">No more alerts about lost pets: your area is deleted.</p>
              <SubmitButton variant="secondary" pendingLabel="Stopping…">
                Stop watching
              </SubmitButton>
            </form>
          ) : null}
        </div>
      </Panel>

      <section aria-labelledby="nearby-heading" className="flex flex-col gap-3">
        <h2 id="nearby-heading" className="text-lg font-semibold text-ink">
          Lost pets near you
        </h2>
        {nearby.items.length === 0 ? (
          <p className="rounded-xl border border-line bg-white p-5 text-muted shadow-sm">
            {page > 1 ? "There is nothing on this page." : area ? "No pet is missing near you right now. You will be told when one is." : "Watch an area above to hear of pets lost near you."}
          </p>
        ) : (
          <ul aria-label="Lost pets near you, newest first" className="flex flex-col divide-y divide-line overflow-hidden rounded-xl border border-line bg-white shadow-sm">
            {nearby.items.map((alert) => (
              <NearbyRow key={alert.alertId} alert={alert} timeZone={timeZone} />
            ))}
          </ul>
        )}
        <CursorPager
          page={page}
          totalPages={totalPages}
          totalIsEstimate={nearby.totalIsEstimate}
          nextCursor={nearby.nextCursor}
          href={(cursor) => (cursor ? `${PATH}?cursor=${encodeURIComponent(cursor)}` : PATH)}
          label="Alert pages"
          firstLabel="Newest alerts"
          nextLabel="Older alerts"
        />
      </section>
    </div>
  );
}

function NearbyRow({ alert, timeZone }: { alert: NearbyAlert; timeZone: string }) {
  const name = alert.petName ?? "A lost pet";
  const description = [alert.color, alert.breed].filter(Boolean).join(" ");
  return (
    <li data-alert-id={alert.alertId}>
      {/* A plain link: the public page is outside the dashboard (the finder's pages, app/layout.tsx). */}
      <a href={alert.url} className="flex items-start gap-4 p-4 hover:bg-brand-50 focus-visible:bg-brand-50">
        {alert.photoUrl ? (
          // eslint-disable-next-line @next/next/no-img-element -- served by our own photo route, already re-encoded and small
          <img src={alert.photoUrl} alt="" className="h-20 w-20 shrink-0 rounded-lg border border-line object-cover" />
        ) : (
          <span aria-hidden="true" className="flex h-20 w-20 shrink-0 items-center justify-center rounded-lg border border-dashed border-slate-400 bg-canvas text-xs text-muted">
            No photo
          </span>
        )}
        <span className="flex min-w-0 flex-col gap-0.5">
          <span className="text-lg font-semibold break-words text-brand-800 underline">{name}</span>
          <span className="text-sm text-ink">
            {speciesLabel[alert.species]}
            {description ? `: ${description}` : ""}
          </span>
          <span className="text-sm text-ink">Last seen {alert.distanceText} from your area</span>
          <span className="text-sm text-muted">
            <DateTime iso={alert.lastSeenAt} timeZone={timeZone} />
          </span>
        </span>
      </a>
    </li>
  );
}
