import Link from "next/link";
import { FinderTagCard } from "@/components/finder/tag-card";
import { FieldsForm } from "@/components/tags/fields-form";
import type { ServiceContext } from "@/lib/services/context";
import { pushEndpointsOfThisDevice } from "@/lib/services/notifications";
import { listRewards } from "@/lib/services/rewards";
import { finderViewPreview } from "@/lib/services/scans";
import type { TagRecord } from "@/lib/services/tags";
import { PushDevice } from "../../notifications/preferences/push-device";
import { changeStatusAction } from "./actions";
import { RewardPanel } from "./reward-panel";

const lostLike = (status: TagRecord["status"]) => status === "LOST" || status === "STOLEN";

/**
 * Lost mode, right under the tag's summary: what finders read, the reward, the poster and a live preview of
 * the finder's page. For a tag that can be lost it is a disclosure whose summary is the page's most prominent
 * button ("I lost it"), opened inline in one tap, without JavaScript; while the tag is lost or stolen it is
 * open, headed by what finders now see. `open`: shown open (an answer from the reward panel inside it).
 */
export async function LostMode({ ctx, tag, open = false }: { ctx: ServiceContext; tag: TagRecord; open?: boolean }) {
  const on = lostLike(tag.status);
  const content = <LostModeContent ctx={ctx} tag={tag} />;
  if (on) {
    return (
      <section aria-labelledby="lost-mode-heading" id="lost-mode" className="flex flex-col gap-5 rounded-xl border-2 border-danger-700 bg-white p-5 shadow-sm sm:p-6">
        <div>
          <h2 id="lost-mode-heading" className="text-lg font-bold text-danger-700">
            {tag.status === "LOST" ? "Lost mode is on" : "The stolen alert is on"}
          </h2>
          <p className="mt-1 text-sm text-muted">Every real scan alerts you at once. Finders can message you and share where they are.</p>
        </div>
        {content}
      </section>
    );
  }
  // Out of lost mode (found, switched off…) the tag's rewards stay at hand: a returned one is still to pay.
  if (tag.status !== "ACTIVE") return <RewardPanel ctx={ctx} tagId={tag.id} standalone />;
  // A reward returned while the tag was not lost is still to pay: its panel inside is shown open.
  const [latest] = (await listRewards(ctx, { page: 1, limit: 1, tagId: tag.id })).items;
  return (
    <details id="lost-mode" open={open || latest?.status === "RETURNED"} className="group rounded-xl border border-line bg-white shadow-sm open:border-danger-700 open:p-5 sm:open:p-6">
      <summary className="flex min-h-14 cursor-pointer list-none items-center justify-center gap-2 rounded-xl bg-danger-700 px-5 py-3 text-lg font-bold text-white hover:bg-red-800 focus-visible:outline-offset-4 group-open:mb-5 [&::-webkit-details-marker]:hidden">
        <span aria-hidden="true">!</span> I lost it
      </summary>
      <div className="flex flex-col gap-5">
        <p className="text-ink">
          Lost mode shows a <strong>LOST</strong> banner and your message to whoever scans the tag, alerts you at every real scan, and lets you print a poster. You can offer a
          reward too.
        </p>
        <FieldsForm
          action={changeStatusAction}
          formLabel="Turn on lost mode"
          hidden={{ tagId: tag.id, status: "LOST" }}
          variant="danger"
          fields={[
            {
              name: "lostMessage",
              label: "Message for finders",
              kind: "textarea",
              optional: true,
              maxLength: 500,
              defaultValue: tag.lostMessage ?? "",
              hint: "Shown on the page a finder sees, like “He is shy: please keep him on a lead and message me.”",
            },
          ]}
          submitLabel="Turn on lost mode"
          pendingLabel="Turning on…"
        />
        {content}
      </div>
    </details>
  );
}

async function LostModeContent({ ctx, tag }: { ctx: ServiceContext; tag: TagRecord }) {
  const on = lostLike(tag.status);
  const [view, registeredEndpoints] = await Promise.all([finderViewPreview(ctx, tag.id), on ? pushEndpointsOfThisDevice(ctx) : Promise.resolve([])]);
  return (
    <>
      {on ? (
        <div>
          <h3 className="text-base font-semibold text-ink">Your message to finders</h3>
          <p className="mt-1 whitespace-pre-line break-words text-ink">{tag.lostMessage ? `“${tag.lostMessage}”` : "You left no message for finders."}</p>
        </div>
      ) : null}
      {/* While the item is lost a finder's message is urgent: offer push on this device when it is off here. */}
      {on ? <PushDevice registeredEndpoints={registeredEndpoints} offerOnly /> : null}
      <RewardPanel ctx={ctx} tagId={tag.id} />
      <div className="flex flex-col gap-2">
        <h3 className="text-base font-semibold text-ink">Poster</h3>
        {on ? (
          <>
            <p className="text-sm text-muted">Put it up nearby: it carries the tag&apos;s QR code and your message, never your contact details.</p>
            <p>
              <Link href={`/dashboard/tags/${tag.id}/poster`} className="btn-primary">
                Print a {tag.status === "LOST" ? "lost" : "stolen"} poster
              </Link>
            </p>
          </>
        ) : (
          <p className="text-sm text-muted">Once lost mode is on, you can print a poster with the tag&apos;s QR code to put up nearby.</p>
        )}
      </div>
      <section aria-labelledby="finder-preview-heading" className="flex flex-col gap-3">
        <div>
          <h3 id="finder-preview-heading" className="text-base font-semibold text-ink">
            What finders see now
          </h3>
          <p className="text-sm text-muted">The top of the page a scan opens, as it is at this moment.</p>
        </div>
        <div className="mx-auto flex w-full max-w-sm flex-col gap-3 rounded-2xl border-4 border-slate-300 bg-canvas p-3" data-testid="finder-preview">
          <FinderTagCard view={view} preview />
        </div>
      </section>
    </>
  );
}
