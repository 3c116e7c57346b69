import type { Metadata } from "next";
import Link from "next/link";
import { BackLink } from "@/components/dashboard/back-link";
import { DateTime } from "@/components/dashboard/date-time";
import { noticeFrom } from "@/components/dashboard/notices";
import { cursorParam } from "@/components/dashboard/pager";
import { Panel } from "@/components/dashboard/panel";
import { FormAlert } from "@/components/forms/form-alert";
import { SubmitButton } from "@/components/forms/submit-button";
import { threadTitle } from "@/components/messages/labels";
import { ThreadStatusBadge } from "@/components/messages/thread-status-badge";
import { Disclosure } from "@/components/tags/disclosure";
import { FieldsForm, type TagFieldSpec } from "@/components/tags/fields-form";
import { statusOptions, tagStatusLabels, tagTypeLabels } from "@/components/tags/labels";
import { TagStatusBadge } from "@/components/tags/status-badge";
import type { ServiceContext } from "@/lib/services/context";
import { listThreads } from "@/lib/services/messages";
import { MAX_PHOTOS_PER_TAG, type Profile } from "@/lib/services/profiles";
import { allowedTransitions, inLostMode, type TagRecord, type TagStatus } from "@/lib/services/tags";
import { type SearchParams } from "../params";
import { addPhotoAction, changeStatusAction, deletePhotoAction, makePrimaryPhotoAction, releaseTagAction, reportStolenAction, saveTagDetailsAction } from "./actions";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { loadOwnedTag } from "./load";
import { LostMode } from "./lost-mode";
import { InsurancePanel, moreNotices, ScansPanel, TransferPanel } from "./more-panels";
import { RelayPanel, relayPanelState, relayUpFront, type RelayPanelState } from "./relay-panel";
import { loadTagRewards, rewardNotices, type TagRewards } from "./reward-panel";
import { detailsFields, isTypedKind, typedFormSpecs } from "./typed-fields";

export const metadata: Metadata = { title: "Tag" };

type Params = Promise<{ id: string }>;

/** Conversations listed on the tag's page; the inbox has them all. */
const MESSAGES_SHOWN = 3;

/**
 * One tag, arranged around what owners do, short enough for a phone: the summary with the one status
 * control (its most urgent move as a big button, the other moves folded under it), lost mode inline (one
 * form for the message and the reward, the reward's card, the poster, the live preview), the messages, the
 * details and photos folded away once the tag is set up, and the rarely used rest (the phone relay unless the
 * tag is lost or stolen, scan history, printing, transfer, insurance, release) under "More". LOST is reached through lost mode only, STOLEN through the
 * stolen report only, every other move through the status control: each move of the transition table has
 * one place, and each is a plain form that works without JavaScript.
 */
export default async function TagPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const { id } = await params;
  const { ctx, tag, profile } = await loadOwnedTag(id, `/dashboard/tags/${id}`);
  const [timeZone, rewards] = await Promise.all([viewerTimeZone(), loadTagRewards(ctx, tag.id)]);
  const query = await searchParams;
  const notices = {
    activated: { tone: "success", text: "The tag is yours. Fill in its details below to make it active." },
    ...moreNotices,
    ...rewardNotices,
    "lost-on-reward": { tone: "success", text: "The tag is now lost, and the reward is offered: finders see both when they scan it." },
    "lost-saved": { tone: "success", text: "Saved: finders see it the next time they open the tag's page." },
    "lost-on-relay": { tone: "success", text: "The tag is now lost, and finders can call or text you through the relay." },
    "lost-saved-relay": { tone: "success", text: "Saved, and finders can now call or text you through the relay." },
    "photo-deleted": { tone: "success", text: "The photo was deleted." },
    "photo-primary": { tone: "success", text: "The primary photo was changed." },
    "photo-missing": { tone: "error", text: "That photo was already deleted." },
    ...Object.fromEntries(Object.entries(tagStatusLabels).map(([status, label]) => [`status-${status}`, { tone: "success" as const, text: `The tag is now ${label.toLowerCase()}.` }])),
  } as const;
  const notice = noticeFrom(query, notices);
  const noticeKey = typeof query.notice === "string" ? query.notice : "";
  const scansCursor = cursorParam(query.scans);
  const relay = await relayPanelState(ctx, tag.id);
  const relayFirst = relayUpFront(inLostMode(tag.status), relay);
  const moreOpen = query.more === "1" || query.relay === "1" || query.scans !== undefined || noticeKey.startsWith("transfer-") || noticeKey.startsWith("insurance-");

  return (
    <div className="flex flex-col gap-6">
      <BackLink href="/dashboard/tags">Your tags</BackLink>
      <div className="flex flex-col gap-6 xl:grid xl:grid-cols-[minmax(0,1fr)_24rem] xl:items-start">
        <div className="flex min-w-0 flex-col gap-6">
          <TagSummary tag={tag} profile={profile} timeZone={timeZone} rewards={rewards} />
          {notice ? <FormAlert tone={notice.tone} title={notice.text} /> : null}
          <LostMode ctx={ctx} tag={tag} rewards={rewards} timeZone={timeZone} open={query.lost === "1"} earlierOpen={noticeKey.startsWith("reward-")} />
          {/* While lost, a finder may want to call at once: the relay is at hand; otherwise it waits under "More". */}
          {relayFirst ? <RelayPanel ctx={ctx} tagId={tag.id} state={relay} /> : null}
        </div>
        <div className="flex min-w-0 flex-col gap-6">
          <MessagesPanel ctx={ctx} tagId={tag.id} timeZone={timeZone} />
          <DetailsSection tag={tag} profile={profile} />
          <PhotosSection tag={tag} profile={profile} open={tag.status === "PENDING_SETUP" || noticeKey.startsWith("photo-")} />
        </div>
      </div>
      <MoreSection ctx={ctx} tag={tag} scansCursor={scansCursor} open={moreOpen} relay={relayFirst ? null : relay} />
    </div>
  );
}

/** Photo, name, status, scans and last scan, with the tag's one status control. */
function TagSummary({ tag, profile, timeZone, rewards }: { tag: TagRecord; profile: Profile; timeZone: string; rewards: TagRewards }) {
  const name = tag.itemName ?? "Unnamed tag";
  const photo = profile.photos.find((candidate) => candidate.isPrimary) ?? profile.photos[0];
  return (
    <section aria-labelledby="tag-heading" className="flex flex-col gap-4 rounded-xl border border-line bg-white p-4 shadow-sm sm:p-5">
      <div className="flex items-start gap-4">
        {photo ? (
          // eslint-disable-next-line @next/next/no-img-element -- served by our own route, already re-encoded and small
          <img src={photo.url} alt="" className="h-20 w-20 shrink-0 rounded-lg border border-line object-cover sm:h-24 sm:w-24" />
        ) : (
          <div aria-hidden="true" className="flex h-20 w-20 shrink-0 items-center justify-center rounded-lg border border-dashed border-slate-400 bg-canvas text-xs text-muted sm:h-24 sm:w-24">
            No photo
          </div>
        )}
        <div className="flex min-w-0 flex-col gap-1.5">
          <h1 id="tag-heading" className="text-2xl font-bold tracking-tight break-words text-ink">
            {name}
          </h1>
          <p className="flex flex-wrap items-center gap-2 text-sm text-muted">
            <TagStatusBadge status={tag.status} />
            <span>{tagTypeLabels[tag.tagType]}</span>
            <span className="font-mono text-ink">{tag.code}</span>
          </p>
          <p className="text-sm text-muted">
            {/* A plain link: the page is drawn again with "More" open, so the browser finds the history there. */}
            <a href={`/dashboard/tags/${tag.id}?more=1#scans-heading`} className="font-semibold text-brand-700 underline">
              {tag.scanCount} {tag.scanCount === 1 ? "scan" : "scans"}
            </a>
            {tag.lastScannedAt ? <> · last seen <DateTime iso={tag.lastScannedAt} timeZone={timeZone} /></> : " · never scanned yet"}
          </p>
        </div>
      </div>
      <StatusControl tag={tag} rewards={rewards} />
    </section>
  );
}

/** The move each status leads with, as the summary's big button. */
const primaryMoves: Partial<Record<TagStatus, { to: TagStatus; label: string }>> = {
  LOST: { to: "FOUND", label: "I've got it back" },
  STOLEN: { to: "ACTIVE", label: "I've got it back" },
  FOUND: { to: "ACTIVE", label: "Back to normal" },
  DEACTIVATED: { to: "ACTIVE", label: "Switch the tag back on" },
  EXPIRED: { to: "ACTIVE", label: "Switch the tag back on" },
};

/** What a folded move's button says and what it does, from where the tag is. */
function otherMove(from: TagStatus, to: TagStatus): { label: string; explain: string } {
  if (from === "LOST" && to === "ACTIVE") return { label: "Turn lost mode off", explain: "Back to the normal profile, without marking it found: if lost mode was turned on by mistake." };
  if (to === "DEACTIVATED") return { label: "Switch the tag off", explain: statusOptions.DEACTIVATED.explain };
  return { label: `Mark it ${statusOptions[to].label.toLowerCase()}`, explain: statusOptions[to].explain };
}

/**
 * The tag's one status control, every move the transition table allows from here but LOST (lost mode, below
 * the summary): the most urgent one as a big button, the others folded under "Other status changes", the
 * stolen report among them (a vehicle's asks for the police report reference). Each is a form of its own,
 * whose refusal is answered beside its button.
 */
function StatusControl({ tag, rewards }: { tag: TagRecord; rewards: TagRewards }) {
  if (tag.status === "PENDING_SETUP") {
    const typed = isTypedKind(tag.tagType) ? typedFormSpecs[tag.tagType] : null;
    return (
      <FormAlert tone="info" title="Almost ready">
        It turns active by itself once it has a name{typed ? ` and its ${typed.title.toLowerCase()}` : ""}: <a href="#details-heading" className="font-semibold underline">fill in the details</a>.
      </FormAlert>
    );
  }
  const moves = allowedTransitions(tag.status);
  const primary = primaryMoves[tag.status];
  const others = moves.filter((to) => to !== "LOST" && to !== "STOLEN" && to !== primary?.to);
  const stolen = moves.includes("STOLEN");
  return (
    <div className="flex flex-col gap-3">
      {primary ? (
        <FieldsForm
          action={changeStatusAction}
          formLabel={primary.label}
          hidden={{ tagId: tag.id, status: primary.to }}
          fields={[]}
          variant={tag.status === "LOST" || tag.status === "STOLEN" ? "primary" : "secondary"}
          submitClassName="min-h-14 w-full text-lg"
          submitLabel={primary.label}
          pendingLabel="Saving…"
        />
      ) : null}
      {tag.status === "LOST" && rewards.open?.status === "ACTIVE" ? (
        <p className="text-sm text-muted">
          Offered a reward? <a href="#reward-heading" className="font-semibold text-brand-700 underline">Confirm the return</a> with the finder&apos;s code instead.
        </p>
      ) : null}
      {others.length > 0 || stolen ? (
        <details id="status" className="rounded-lg border border-line px-4 py-2">
          <summary className="min-h-10 cursor-pointer content-center font-semibold text-ink">Other status changes</summary>
          <div className="mt-2 mb-3 flex flex-col gap-5">
            {others.map((to) => {
              const move = otherMove(tag.status, to);
              return (
                <FieldsForm
                  key={to}
                  action={changeStatusAction}
                  formLabel={move.label}
                  hidden={{ tagId: tag.id, status: to }}
                  fields={[]}
                  intro={<p className="text-sm text-muted">{move.explain}</p>}
                  variant="secondary"
                  submitLabel={move.label}
                  pendingLabel="Saving…"
                />
              );
            })}
            {stolen ? <StolenReport tag={tag} /> : null}
          </div>
        </details>
      ) : null}
    </div>
  );
}

/**
 * The stolen report, the one way to STOLEN. A vehicle's asks for the police's report reference: the public
 * VIN check shows a stolen report only with one on file.
 */
function StolenReport({ tag }: { tag: TagRecord }) {
  const message: TagFieldSpec = { name: "lostMessage", label: "Message for finders", kind: "textarea", optional: true, maxLength: 500, defaultValue: tag.lostMessage ?? "", hint: "Shown with the stolen alert." };
  const vehicle = tag.tagType === "VEHICLE";
  return (
    <div className="flex flex-col gap-3 border-t border-line pt-5">
      <h3 className="text-base font-semibold text-ink">{vehicle ? "Report the vehicle stolen" : "Report it stolen"}</h3>
      <p className="text-sm text-muted">
        {vehicle ? (
          <>
            Report the theft to the police first. Scans of the tag then show a stolen alert; with the police&apos;s report reference, anyone checking the VIN before buying is also
            told that its owner reported it stolen with a police reference on file. The reference itself stays private.
          </>
        ) : (
          statusOptions.STOLEN.explain
        )}
      </p>
      {vehicle ? (
        <FieldsForm
          action={reportStolenAction}
          formLabel="Report the vehicle stolen"
          hidden={{ tagId: tag.id }}
          variant="danger"
          fields={[
            {
              name: "policeReportRef",
              label: "Police report reference",
              optional: true,
              maxLength: 100,
              autoComplete: "off",
              spellCheck: false,
              hint: "The reference the police gave you. Without it, scans still show the stolen alert, but the public VIN check does not list the vehicle as stolen.",
            },
            message,
          ]}
          submitLabel="Report it stolen"
          pendingLabel="Reporting…"
        />
      ) : (
        <FieldsForm action={changeStatusAction} formLabel="Report it stolen" hidden={{ tagId: tag.id, status: "STOLEN" }} variant="danger" fields={[message]} submitLabel="Report it stolen" pendingLabel="Reporting…" />
      )}
    </div>
  );
}

/** The one details form, folded away once the tag is set up (open while it is setting up). */
function DetailsSection({ tag, profile }: { tag: TagRecord; profile: Profile }) {
  return (
    <Disclosure id="details" open={tag.status === "PENDING_SETUP"} summary={
        <h2 id="details-heading" className="min-w-0 flex-1">
          Details
        </h2>
      }>
      <p className="text-sm text-muted">What finders see when they scan the tag, unless you make it private. Finders can always message you through us.</p>
      <FieldsForm
        action={saveTagDetailsAction}
        formLabel="Details"
        hidden={{ tagId: tag.id, profileType: tag.tagType }}
        columns={2}
        fields={detailsFields(tag.tagType, profile)}
        submitLabel="Save"
        pendingLabel="Saving…"
      />
    </Disclosure>
  );
}

function PhotosSection({ tag, profile, open }: { tag: TagRecord; profile: Profile; open: boolean }) {
  const name = tag.itemName ?? "Unnamed tag";
  const count = profile.photos.length;
  return (
    <Disclosure
      id="photos"
      open={open}
      summary={
        <h2 id="photos-heading" className="min-w-0 flex-1">
          Photos <span className="text-base font-normal text-muted">({count === 0 ? "none yet" : count})</span>
        </h2>
      }
    >
      <p className="text-sm text-muted">Up to {MAX_PHOTOS_PER_TAG}: JPEG, PNG or WebP, at most 5 MB each. Location and camera details are removed. The primary photo is shown first.</p>
      {profile.photos.length === 0 ? (
        <p className="text-muted">No photos yet.</p>
      ) : (
        <ul aria-label="Photos" className="grid grid-cols-2 gap-4 sm:grid-cols-3 xl:grid-cols-2">
          {profile.photos.map((photo, index) => (
            <li key={photo.id} className="flex flex-col gap-2">
              {/* eslint-disable-next-line @next/next/no-img-element -- served by our own route, already re-encoded and small */}
              <img src={photo.url} alt={`Photo ${index + 1} of ${name}${photo.isPrimary ? " (primary)" : ""}`} className="aspect-square w-full rounded-lg border border-line bg-canvas object-cover" />
              <div className="flex flex-wrap items-center justify-between gap-2">
                {photo.isPrimary ? (
                  <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-900">Primary</span>
                ) : (
                  <form action={makePrimaryPhotoAction}>
                    <input type="hidden" name="tagId" value={tag.id} />
                    <input type="hidden" name="photoId" value={photo.id} />
                    <SubmitButton variant="link" pendingLabel="Saving…" className="min-h-10 text-sm">
                      Make primary<span className="sr-only"> (photo {index + 1})</span>
                    </SubmitButton>
                  </form>
                )}
                <form action={deletePhotoAction}>
                  <input type="hidden" name="tagId" value={tag.id} />
                  <input type="hidden" name="photoId" value={photo.id} />
                  <SubmitButton variant="link" pendingLabel="Deleting…" className="min-h-10 text-sm">
                    Delete<span className="sr-only"> photo {index + 1}</span>
                  </SubmitButton>
                </form>
              </div>
            </li>
          ))}
        </ul>
      )}
      {profile.photos.length < MAX_PHOTOS_PER_TAG ? (
        <FieldsForm
          action={addPhotoAction}
          formLabel="Add a photo"
          hidden={{ tagId: tag.id }}
          variant="secondary"
          fields={[
            { name: "file", label: "Photo", kind: "file", accept: "image/jpeg,image/png,image/webp" },
            { name: "isPrimary", label: "Make it the primary photo", kind: "checkbox" },
          ]}
          submitLabel="Upload photo"
          pendingLabel="Uploading…"
        />
      ) : (
        <p className="text-muted">This tag has the most photos it can have. Delete one to add another.</p>
      )}
    </Disclosure>
  );
}

/** The latest conversations finders started about this tag. */
async function MessagesPanel({ ctx, tagId, timeZone }: { ctx: ServiceContext; tagId: string; timeZone: string }) {
  const { items, total } = await listThreads(ctx, { page: 1, limit: MESSAGES_SHOWN, tagId });
  return (
    <Panel
      id="tag-messages"
      title="Messages"
      description={
        total > items.length ? (
          <>
            The latest {items.length} of {total} conversations about this tag.{" "}
            <Link href="/dashboard/messages" className="font-semibold text-brand-700 underline">
              All your conversations
            </Link>
          </>
        ) : (
          "Conversations finders started about this tag."
        )
      }
    >
      {items.length === 0 ? (
        <p className="text-muted">No finder has written about this tag yet.</p>
      ) : (
        <ul aria-label="Conversations about this tag" className="flex flex-col divide-y divide-line">
          {items.map((item) => (
            <li key={item.id} className="py-2 first:pt-0 last:pb-0">
              <Link href={`/dashboard/messages/${item.id}`} prefetch={false} className="flex flex-col gap-0.5 rounded-md py-1 hover:bg-brand-50">
                <span className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold text-ink">{threadTitle(item)}</span>
                  {item.unreadCount > 0 ? <span className="rounded-full bg-brand-700 px-2 py-0.5 text-xs font-semibold text-white">{item.unreadCount} unread</span> : null}
                  {item.status !== "ACTIVE" ? <ThreadStatusBadge status={item.status} /> : null}
                </span>
                {item.lastMessage ? <span className="line-clamp-2 text-sm break-words text-muted">{item.lastMessage}</span> : null}
                <span className="text-xs text-muted">
                  <DateTime iso={item.lastMessageAt} timeZone={timeZone} />
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

function PrintablesPanel({ tag }: { tag: TagRecord }) {
  return (
    <Panel id="label" title="QR label" description="Print the tag's QR code with its code, to stick on the item or keep as a spare.">
      <Link href={`/dashboard/tags/${tag.id}/label`} className="btn-secondary">
        Print the QR label
      </Link>
    </Panel>
  );
}

/** The rarely used parts, folded away: scan history, printing, transfer, insurance, release. */
function MoreSection({ ctx, tag, scansCursor, open, relay }: { ctx: ServiceContext; tag: TagRecord; scansCursor: string | undefined; open: boolean; relay: RelayPanelState | null }) {
  const name = tag.itemName ?? "Unnamed tag";
  return (
    <Disclosure id="more" open={open} summary={relay ? "More: phone relay, scan history, QR label, transfer, insurance, release" : "More: scan history, QR label, transfer, insurance, release"}>
      {relay ? <RelayPanel ctx={ctx} tagId={tag.id} state={relay} /> : null}
      <ScansPanel ctx={ctx} tagId={tag.id} scansCursor={scansCursor} />
      <PrintablesPanel tag={tag} />
      <TransferPanel ctx={ctx} tagId={tag.id} />
      <InsurancePanel ctx={ctx} tagId={tag.id} />
      <Panel id="release" title="Release this tag" tone="danger" description="The profile, photos, scan history and messages are deleted, and the tag's code can be activated again by anyone who has it. This cannot be undone.">
        <FieldsForm
          action={releaseTagAction}
          formLabel="Release this tag"
          hidden={{ tagId: tag.id }}
          variant="danger"
          fields={[{ name: "confirm", label: `Yes, release ${name} and delete its profile`, kind: "checkbox" }]}
          submitLabel="Release tag"
          pendingLabel="Releasing…"
        />
      </Panel>
    </Disclosure>
  );
}
