import { DateTime } from "@/components/dashboard/date-time";
import { FormAlert } from "@/components/forms/form-alert";
import { localDateTimeInput } from "@/lib/i18n/time-zones";
import { ALERTS_PER_TAG_PER_DAY, listTagAlerts, lostAlertMapOpening, type TagLostAlert } from "@/lib/services/alerts";
import type { ServiceContext } from "@/lib/services/context";
import type { TagRecord } from "@/lib/services/tags";
import { raiseLostAlertAction } from "./lost-alert-actions";
import { LostAlertSection } from "./lost-alert-form";

const MAX_RADIUS_KM = 20;

const badge = "inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap";
const statusBadge: Record<TagLostAlert["status"], { label: string; className: string }> = {
  OPEN: { label: "Open", className: "border-danger-700 bg-danger-50 text-danger-700" },
  HOME: { label: "Closed: home", className: "border-green-700 bg-green-50 text-green-900" },
  CLOSED: { label: "Closed", className: "border-slate-400 bg-canvas text-ink" },
};

/**
 * Lost mode's "Alert people nearby" for a PET tag in LOST (docs/alerts.md): folded, with the day's count in
 * its summary; the form, then this tag's alerts (when, how many people, open or closed, the public page)
 * and how many more today.
 */
export async function LostAlertPanel({ ctx, tag, timeZone }: { ctx: ServiceContext; tag: TagRecord; timeZone: string }) {
  const [{ alerts, remainingToday, nextAllowedAt }, around] = await Promise.all([listTagAlerts(ctx, tag.id), lostAlertMapOpening(ctx, tag.id)]);
  const name = tag.itemName ?? "your pet";
  const sent = alerts.length;
  const summary = (
    <>
      Alert people nearby
      {sent > 0 ? <span className="font-normal text-muted"> ({sent} sent, {remainingToday} more today)</span> : null}
    </>
  );
  const intro = (
    <p className="text-sm text-muted">
      Neighbours who watch an area around the place get a notification with {name}&apos;s photo and description and where it was last seen, to within about 500 m. They
      never see your name or contact details, and write to you through us. Up to {ALERTS_PER_TAG_PER_DAY} alerts in any 24 hours.
    </p>
  );
  const blocked =
    remainingToday === 0 ? (
      <FormAlert tone="info" title={`You have sent ${ALERTS_PER_TAG_PER_DAY} alerts in the last 24 hours.`}>
        {nextAllowedAt ? (
          <>
            The next one is possible from <DateTime iso={nextAllowedAt} timeZone={timeZone} />.
          </>
        ) : null}
      </FormAlert>
    ) : undefined;
  return (
    <LostAlertSection
      action={raiseLostAlertAction}
      tagId={tag.id}
      timeZone={timeZone}
      now={localDateTimeInput(new Date(), timeZone)}
      maxRadiusKm={MAX_RADIUS_KM}
      around={around}
      summary={summary}
      intro={intro}
      blocked={blocked}
    >
      {sent > 0 ? (
        <div className="flex flex-col gap-2 border-t border-line pt-4">
          <h3 className="text-base font-semibold text-ink">Alerts sent</h3>
          <ol aria-label="Alerts sent, newest first" className="flex flex-col divide-y divide-line">
            {alerts.map((alert) => {
              const state = statusBadge[alert.status];
              return (
                <li key={alert.id} className="flex flex-col gap-1 py-2" data-alert-id={alert.id} data-status={alert.status}>
                  <p className="flex flex-wrap items-center gap-2 text-sm">
                    <span className={`${badge} ${state.className}`}>{alert.removed ? "Removed" : state.label}</span>
                    <DateTime iso={alert.createdAt} timeZone={timeZone} />
                  </p>
                  <p className="text-sm text-ink" data-testid="alert-recipients">
                    {alert.recipients === 1 ? "1 person" : `${alert.recipients} people`} within {alert.radiusKm} km
                    {alert.notified < alert.recipients ? `, ${alert.notified} told so far` : ""}
                  </p>
                  {alert.removed ? null : (
                    // A full page load: the public page is one of the finder's (app/layout.tsx).
                    <a href={alert.url} className="text-sm font-semibold text-brand-700 underline">
                      Its public page<span className="sr-only"> (alert of <DateTime iso={alert.createdAt} timeZone={timeZone} />)</span>
                    </a>
                  )}
                </li>
              );
            })}
          </ol>
          <p className="text-sm text-muted" data-testid="alerts-remaining">
            {remainingToday === 0 ? "No more alerts today." : `${remainingToday} more ${remainingToday === 1 ? "alert" : "alerts"} possible today.`}
          </p>
        </div>
      ) : null}
    </LostAlertSection>
  );
}
