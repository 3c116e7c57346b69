import Link from "next/link";
import { wordsFor } from "@/lib/finder-page/messages";
import { tagCard } from "@/lib/finder-page/tag-page";
import { FieldsForm, type TagFieldSpec } from "@/components/tags/fields-form";
import type { ServiceContext } from "@/lib/services/context";
import { pushEndpointsOfThisDevice } from "@/lib/services/notifications";
import { finderViewPreview } from "@/lib/services/finder";
import { getRelaySettings, getVerifiedPhone } from "@/lib/services/relay";
import { inLostMode, type TagRecord } from "@/lib/services/tags";
import { PushDevice } from "../../notifications/preferences/push-device";
import { saveLostModeAction } from "./actions";
import { LostAlertPanel } from "./lost-alert-panel";
import { lostModeRewardFields, RewardPanel, type TagRewards } from "./reward-panel";

/**
 * Lost mode, right under the tag's summary, as one form with one button: the message for finders and the
 * reward, saved together (saveLostModeAction). There is no "show my phone to finders" choice to add to it:
 * finders never see the owner's phone number (docs/reunion.md, Lost mode). Turning lost mode on with a verified
 * phone and the relay off, it offers "Let finders call or text me through the relay", which the same save
 * turns on (docs/relay.md).
 * - An ACTIVE tag: a disclosure whose summary is the page's most prominent button ("I lost it"), opened
 *   inline in one tap, without JavaScript (`open`: shown open). A reward still to pay stays above it.
 * - In lost mode (LOST, or STOLEN with its alert): open, headed by what finders now see; the form changes
 *   the message and the reward; a lost pet's "Alert people nearby" (folded) and the reward's card (confirm
 *   the return, pay) follow it.
 * - Any other status (found, switched off…): only the tag's rewards, when it has any.
 */
export async function LostMode({ ctx, tag, rewards, timeZone, open = false, earlierOpen = false }: { ctx: ServiceContext; tag: TagRecord; rewards: TagRewards; timeZone: string; open?: boolean; earlierOpen?: boolean }) {
  // Offered when turning lost mode on; once it is on, the relay's own section follows lost mode.
  const offerRelay = tag.status === "ACTIVE" ? await relayOffered(ctx, tag.id) : false;
  const panel = (nested: boolean) => <RewardPanel tagId={tag.id} rewards={rewards} timeZone={timeZone} nested={nested} earlierOpen={earlierOpen} />;
  if (inLostMode(tag.status)) {
    const registeredEndpoints = await pushEndpointsOfThisDevice(ctx);
    return (
      <section aria-labelledby="lost-mode-heading" id="lost-mode" className="flex flex-col gap-5 rounded-xl border-2 border-danger-700 bg-white p-4 shadow-sm sm:p-6">
        <div>
          <h2 id="lost-mode-heading" className="text-lg font-bold text-danger-700">
            {tag.status === "LOST" ? "Lost mode is on" : "The stolen alert is on"}
          </h2>
          <p className="mt-1 text-sm text-muted">Every real scan alerts you at once. Finders can message you and share where they are.</p>
        </div>
        {/* While the item is lost a finder's message is urgent: offer push on this device when it is off here. */}
        <PushDevice registeredEndpoints={registeredEndpoints} offerOnly />
        <LostModeForm tag={tag} rewards={rewards} offerRelay={offerRelay} />
        {/* A lost pet: tell the neighbours who watch the area (folded, so the page stays short on a phone). */}
        {tag.tagType === "PET" && tag.status === "LOST" ? <LostAlertPanel ctx={ctx} tag={tag} timeZone={timeZone} /> : null}
        {panel(true)}
        <p className="border-t border-line pt-5">
          <Link href={`/dashboard/tags/${tag.id}/poster`} className="btn-secondary">
            Print a {tag.status === "LOST" ? "lost" : "stolen"} poster
          </Link>
        </p>
        <FinderPreview ctx={ctx} tagId={tag.id} />
      </section>
    );
  }
  if (tag.status !== "ACTIVE") return panel(false);
  return (
    <>
      {/* A returned reward still to pay (or one offered outside lost mode) stays at hand, above the offer. */}
      {rewards.open ? panel(false) : null}
      <details id="lost-mode" open={open} className="group rounded-xl border border-line bg-white shadow-sm open:border-danger-700 open:p-4 sm:open:p-6">
        <summary className="flex min-h-14 cursor-pointer list-none items-center justify-center gap-2 rounded-xl bg-danger-700 px-5 py-3 text-lg font-bold text-white hover:bg-red-800 focus-visible:outline-offset-4 group-open:mb-5 [&::-webkit-details-marker]:hidden">
          <span aria-hidden="true">!</span> I lost it
        </summary>
        <div className="flex flex-col gap-5">
          <p className="text-ink">
            Lost mode shows a <strong>LOST</strong> banner and your message to whoever scans the tag, alerts you at every real scan, and lets you print a poster. You can offer a
            reward in the same step.
          </p>
          <LostModeForm tag={tag} rewards={rewards} offerRelay={offerRelay} />
          <FinderPreview ctx={ctx} tagId={tag.id} />
        </div>
      </details>
      {/* Rewards already settled are history: below the offer, folded. */}
      {rewards.open ? null : panel(false)}
    </>
  );
}

/** The relay box is offered only with a verified phone (it would be refused without) and while the relay is off. */
async function relayOffered(ctx: ServiceContext, tagId: string): Promise<boolean> {
  const [phone, relay] = await Promise.all([getVerifiedPhone(ctx), getRelaySettings(ctx, tagId)]);
  return phone !== null && !relay.enabled;
}

/** Lost mode's one form: it turns lost mode on, or (while on) changes the message and the reward. */
function LostModeForm({ tag, rewards, offerRelay }: { tag: TagRecord; rewards: TagRewards; offerRelay: boolean }) {
  const on = inLostMode(tag.status);
  const reward = lostModeRewardFields(rewards, { fold: on && rewards.open?.status === "ACTIVE" });
  const message: TagFieldSpec = {
    name: "lostMessage",
    label: "Message for finders",
    kind: "textarea",
    rows: on ? 2 : 3,
    optional: true,
    maxLength: 500,
    defaultValue: tag.lostMessage ?? "",
    hint: tag.status === "STOLEN" ? "Shown with the stolen alert." : on ? "Shown on the page a finder sees." : "Shown on the page a finder sees, like “He is shy: please keep him on a lead and message me.”",
  };
  return (
    <FieldsForm
      action={saveLostModeAction}
      formLabel={on ? "Lost mode" : "Turn on lost mode"}
      hidden={{ tagId: tag.id }}
      variant={on ? "primary" : "danger"}
      intro={reward ? undefined : <p className="text-sm text-muted">The last reward was returned and is still to be paid: a new one can be offered once its payment is recorded.</p>}
      fields={[
        message,
        ...(reward?.fields ?? []),
        ...(offerRelay
          ? [
              {
                name: "relay",
                label: "Let finders call or text me through the relay",
                kind: "checkbox" as const,
                hint: <span className="text-sm text-muted">They call or text our number with this tag&apos;s PIN; neither of you sees the other&apos;s number.</span>,
              },
            ]
          : []),
      ]}
      groups={reward ? [reward.group] : []}
      submitLabel={on ? (reward ? "Save message and reward" : "Save the message") : "Turn on lost mode"}
      pendingLabel={on ? "Saving…" : "Turning on…"}
    />
  );
}

/** The top of the page a scan opens, as it is now, folded away: finders' view is one tap off. */
async function FinderPreview({ ctx, tagId }: { ctx: ServiceContext; tagId: string }) {
  const view = await finderViewPreview(ctx, tagId);
  return (
    <details className="rounded-lg border border-line px-4 py-2">
      <summary className="min-h-10 cursor-pointer content-center font-semibold text-ink">What finders see now</summary>
      <div className="mx-auto my-3 flex w-full max-w-sm flex-col gap-3 rounded-2xl border-4 border-slate-300 bg-canvas p-3" data-testid="finder-preview">
        {/* The finder page's own card (lib/finder-page), escaped markup built on the server; the dashboard is in English. */}
        <div className="contents" dangerouslySetInnerHTML={{ __html: tagCard(wordsFor("en"), view, { preview: true }).__html }} />
      </div>
    </details>
  );
}
