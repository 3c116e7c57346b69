import type { Metadata } from "next";
import Link from "next/link";
import { BackLink } from "@/components/dashboard/back-link";
import { DateTime } from "@/components/dashboard/date-time";
import { noticeFrom } from "@/components/dashboard/notices";
import { pageParam } from "@/components/dashboard/pager";
import { Panel } from "@/components/dashboard/panel";
import { FormAlert } from "@/components/forms/form-alert";
import { SubmitButton } from "@/components/forms/submit-button";
import { threadTitle } from "@/components/messages/labels";
import { ThreadStatusBadge } from "@/components/messages/thread-status-badge";
import { FieldsForm } from "@/components/tags/fields-form";
import { statusOptions, tagStatusLabels, tagTypeLabels } from "@/components/tags/labels";
import { TagStatusBadge } from "@/components/tags/status-badge";
import type { ServiceContext } from "@/lib/services/context";
import { listThreads } from "@/lib/services/messages";
import { MAX_PHOTOS_PER_TAG, type Profile } from "@/lib/services/profiles";
import { allowedTransitions, type TagRecord } from "@/lib/services/tags";
import { type SearchParams } from "../params";
import { addPhotoAction, changeStatusAction, deletePhotoAction, makePrimaryPhotoAction, quickStatusAction, releaseTagAction, reportStolenAction, saveTagDetailsAction } from "./actions";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { loadOwnedTag } from "./load";
import { LostMode } from "./lost-mode";
import { InsurancePanel, moreNotices, ScansPanel, TransferPanel } from "./more-panels";
import { rewardNotices } from "./reward-panel";
import { detailsFields, isTypedKind, typedFormSpecs } from "./typed-fields";

export const metadata: Metadata = { title: "Tag" };

type Params = Promise<{ id: string }>;

const MESSAGES_SHOWN = 5;

/**
 * One tag, arranged around what owners do: the summary with the one control that matters most ("I lost it"
 * / "I've got it back"), lost mode inline (message, reward, poster, live preview), the details in one form,
 * the status as one control, then photos, messages, scans, printables, and the rarely used rest under "More".
 */
export default async function TagPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const { id } = await params;
  const { ctx, tag, profile } = await loadOwnedTag(id, `/dashboard/tags/${id}`);
  const timeZone = await viewerTimeZone();
  const query = await searchParams;
  const notices = {
    activated: { tone: "success", text: "The tag is yours. Fill in its details below to make it active." },
    ...moreNotices,
    ...rewardNotices,
    "photo-deleted": { tone: "success", text: "The photo was deleted." },
    "photo-primary": { tone: "success", text: "The primary photo was changed." },
    "photo-missing": { tone: "error", text: "That photo was already deleted." },
    "status-refused": { tone: "error", text: "That change is not possible from the tag's status now: here is where it stands." },
    ...Object.fromEntries(Object.entries(tagStatusLabels).map(([status, label]) => [`status-${status}`, { tone: "success" as const, text: `The tag is now ${label.toLowerCase()}.` }])),
  } as const;
  const notice = noticeFrom(query, notices);
  const noticeKey = typeof query.notice === "string" ? query.notice : "";
  const scansPage = pageParam(query.scans);

  return (
    <div className="flex flex-col gap-6">
      <BackLink href="/dashboard/tags">Your tags</BackLink>
      <div className="flex flex-col gap-6 xl:grid xl:grid-cols-[minmax(0,1fr)_22rem] xl:items-start">
        <div className="flex min-w-0 flex-col gap-6">
          <TagSummary tag={tag} profile={profile} timeZone={timeZone} />
          {notice ? <FormAlert tone={notice.tone} title={notice.text} /> : null}
          <LostMode ctx={ctx} tag={tag} open={noticeKey.startsWith("reward-") || query.lost === "1"} />
          <DetailsPanel tag={tag} profile={profile} />
          <StatusPanel tag={tag} />
        </div>
        <div className="flex min-w-0 flex-col gap-6">
          <PhotosPanel tag={tag} profile={profile} />
          <MessagesPanel ctx={ctx} tagId={tag.id} timeZone={timeZone} />
          <PrintablesPanel tag={tag} />
        </div>
      </div>
      <ScansPanel ctx={ctx} tagId={tag.id} scansPage={scansPage} />
      <MoreSection ctx={ctx} tag={tag} open={noticeKey.startsWith("transfer-") || noticeKey.startsWith("insurance-")} />
    </div>
  );
}

/** Photo, name, status, scans and last scan, with the one control for the tag's most urgent move. */
function TagSummary({ tag, profile, timeZone }: { tag: TagRecord; profile: Profile; timeZone: string }) {
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
            {tag.scanCount} {tag.scanCount === 1 ? "scan" : "scans"}
            {tag.lastScannedAt ? <> · last seen <DateTime iso={tag.lastScannedAt} timeZone={timeZone} /></> : " · never scanned yet"}
          </p>
        </div>
      </div>
      <SummaryControl tag={tag} />
    </section>
  );
}

/** "I've got it back" while lost or stolen, "back to normal" once found, finishing the set-up before that. */
function SummaryControl({ tag }: { tag: TagRecord }) {
  const quick: Partial<Record<TagRecord["status"], { to: TagRecord["status"]; label: string }>> = {
    LOST: { to: "FOUND", label: "I've got it back" },
    STOLEN: { to: "ACTIVE", label: "I've got it back" },
    FOUND: { to: "ACTIVE", label: "Back to normal" },
    DEACTIVATED: { to: "ACTIVE", label: "Switch the tag back on" },
  };
  if (tag.status === "PENDING_SETUP") {
    const typed = isTypedKind(tag.tagType) ? typedFormSpecs[tag.tagType] : null;
    return (
      <FormAlert tone="info" title="Almost ready">
        It turns active by itself once it has a name{typed ? ` and its ${typed.title.toLowerCase()}` : ""}: <a href="#details-heading" className="font-semibold underline">fill in the details</a>.
      </FormAlert>
    );
  }
  const move = quick[tag.status];
  if (!move) return null;
  return (
    <form action={quickStatusAction} className="flex">
      <input type="hidden" name="tagId" value={tag.id} />
      <input type="hidden" name="status" value={move.to} />
      <SubmitButton variant={tag.status === "FOUND" || tag.status === "DEACTIVATED" ? "secondary" : "primary"} pendingLabel="Saving…" className="min-h-14 w-full text-lg">
        {move.label}
      </SubmitButton>
    </form>
  );
}

function DetailsPanel({ tag, profile }: { tag: TagRecord; profile: Profile }) {
  return (
    <Panel id="details" title="Details" description="What finders see when they scan the tag, unless you make it private. Finders can always message you through us.">
      <FieldsForm
        action={saveTagDetailsAction}
        formLabel="Details"
        hidden={{ tagId: tag.id, profileType: tag.tagType }}
        columns={2}
        fields={detailsFields(tag.tagType, profile)}
        submitLabel="Save"
        pendingLabel="Saving…"
      />
    </Panel>
  );
}

/** The moves the transition table allows from here, as one choice with each option's meaning. */
function StatusPanel({ tag }: { tag: TagRecord }) {
  if (tag.status === "PENDING_SETUP") return null;
  // A vehicle is reported stolen through its own form below, which asks for the police report reference:
  // the public VIN check shows a stolen report only with one on file.
  const vehicleStolen = tag.tagType === "VEHICLE" && allowedTransitions(tag.status).includes("STOLEN");
  const moves = allowedTransitions(tag.status).filter((to) => !(vehicleStolen && to === "STOLEN"));
  return (
    <Panel id="status" title="Status" description={<>Now: {tagStatusLabels[tag.status]}. Only the changes possible from here are offered.</>}>
      {vehicleStolen ? (
        <div className="mb-6 flex flex-col gap-3 border-b border-line pb-6">
          <h3 className="text-base font-semibold text-ink">Report the vehicle stolen</h3>
          <p className="text-sm text-muted">
            Report the theft to the police first. Scans of the tag then show a stolen alert; with the police&apos;s report reference, anyone checking the VIN before buying is also
            told that its owner reported it stolen with a police reference on file. The reference itself stays private.
          </p>
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
              { name: "lostMessage", label: "Message for finders", kind: "textarea", optional: true, maxLength: 500, defaultValue: tag.lostMessage ?? "", hint: "Shown with the stolen alert." },
            ]}
            submitLabel="Report it stolen"
            pendingLabel="Reporting…"
          />
        </div>
      ) : null}
      <FieldsForm
        action={changeStatusAction}
        formLabel="Change the status"
        hidden={{ tagId: tag.id }}
        variant="secondary"
        fields={[
          { name: "status", label: "New status", kind: "radio", options: moves.map((to) => ({ value: to, label: statusOptions[to].label, description: statusOptions[to].explain })) },
          ...(moves.includes("LOST") || moves.includes("STOLEN")
            ? [{ name: "lostMessage", label: "Message for finders", kind: "textarea" as const, optional: true, maxLength: 500, defaultValue: tag.lostMessage ?? "", hint: moves.includes("STOLEN") ? "Used for Lost and Stolen." : "Used for Lost." }]
            : []),
        ]}
        submitLabel="Change the status"
        pendingLabel="Saving…"
      />
    </Panel>
  );
}

function PhotosPanel({ tag, profile }: { tag: TagRecord; profile: Profile }) {
  const name = tag.itemName ?? "Unnamed tag";
  return (
    <Panel id="photos" title="Photos" description={`Up to ${MAX_PHOTOS_PER_TAG}: JPEG, PNG or WebP, at most 5 MB each. Location and camera details are removed. The primary photo is shown first.`}>
      {profile.photos.length === 0 ? (
        <p className="mb-5 text-muted">No photos yet.</p>
      ) : (
        <ul aria-label="Photos" className="mb-6 grid grid-cols-2 gap-4 sm:grid-cols-3 xl:grid-cols-2">
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
    </Panel>
  );
}

/** The latest conversations finders started about this tag. */
async function MessagesPanel({ ctx, tagId, timeZone }: { ctx: ServiceContext; tagId: string; timeZone: string }) {
  const { items, total } = await listThreads(ctx, { page: 1, limit: MESSAGES_SHOWN, tagId });
  return (
    <Panel id="tag-messages" title="Messages" description={total > items.length ? `The latest ${items.length} of ${total} conversations about this tag.` : "Conversations finders started about this tag."}>
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
  const lost = tag.status === "LOST" || tag.status === "STOLEN";
  return (
    <Panel id="label" title="QR label and printables" description="Print the tag's QR code with its code, to stick on the item or keep as a spare.">
      <div className="flex flex-wrap gap-3">
        <Link href={`/dashboard/tags/${tag.id}/label`} className="btn-secondary">
          Print the QR label
        </Link>
        {lost ? (
          <Link href={`/dashboard/tags/${tag.id}/poster`} className="btn-secondary">
            Print a {tag.status === "LOST" ? "lost" : "stolen"} poster
          </Link>
        ) : null}
      </div>
    </Panel>
  );
}

/** Transfer, insurance and release: rarely needed, so folded away. */
function MoreSection({ ctx, tag, open }: { ctx: ServiceContext; tag: TagRecord; open: boolean }) {
  const name = tag.itemName ?? "Unnamed tag";
  return (
    <details open={open} className="rounded-xl border border-line bg-white shadow-sm">
      <summary className="flex min-h-14 cursor-pointer items-center px-5 text-lg font-semibold text-ink">More: transfer, insurance, release</summary>
      <div className="flex flex-col gap-6 border-t border-line p-4 sm:p-5">
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
      </div>
    </details>
  );
}
