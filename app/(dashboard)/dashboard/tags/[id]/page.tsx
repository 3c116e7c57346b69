import type { Metadata } from "next";
import Link from "next/link";
import { BackLink } from "@/components/dashboard/back-link";
import { formatDateTime } from "@/components/dashboard/dates";
import { noticeFrom } from "@/components/dashboard/notices";
import { PageHeading } from "@/components/dashboard/page-heading";
import { pageParam } from "@/components/dashboard/pager";
import { Panel } from "@/components/dashboard/panel";
import { FormAlert } from "@/components/forms/form-alert";
import { SubmitButton } from "@/components/forms/submit-button";
import { FieldsForm } from "@/components/tags/fields-form";
import { tagStatusLabels, tagTypeLabels, tagTypes, transitionActions } from "@/components/tags/labels";
import { TagStatusBadge } from "@/components/tags/status-badge";
import { MAX_PHOTOS_PER_TAG } from "@/lib/services/profiles";
import { allowedTransitions } from "@/lib/services/tags";
import { type SearchParams } from "../params";
import { addPhotoAction, changeStatusAction, deletePhotoAction, makePrimaryPhotoAction, releaseTagAction, saveGeneralProfileAction, saveTypedProfileAction } from "./actions";
import { loadOwnedTag } from "./load";
import { RewardPanel, rewardNotices } from "./reward-panel";
import { TransferInsuranceScanPanels, transferInsuranceNotices } from "./transfer-insurance-scan-panels";
import { isTypedKind, typedDefaults, typedFormSpecs } from "./typed-fields";

export const metadata: Metadata = { title: "Tag" };

type Params = Promise<{ id: string }>;

export default async function TagPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const { id } = await params;
  const { ctx, tag, profile } = await loadOwnedTag(id, `/dashboard/tags/${id}`);
  const query = await searchParams;
  const notice = noticeFrom(query, {
    activated: { tone: "success", text: "The tag is yours. Fill in its profile to make it active." },
    ...transferInsuranceNotices,
    ...rewardNotices,
    "photo-deleted": { tone: "success", text: "The photo was deleted." },
    "photo-primary": { tone: "success", text: "The primary photo was changed." },
    "photo-missing": { tone: "error", text: "That photo was already deleted." },
    ...Object.fromEntries(Object.entries(tagStatusLabels).map(([status, label]) => [`status-${status}`, { tone: "success" as const, text: `The tag is now ${label.toLowerCase()}.` }])),
  });
  const moves = allowedTransitions(tag.status);
  const hidden = { tagId: tag.id };
  const typed = isTypedKind(tag.tagType) ? typedFormSpecs[tag.tagType] : null;
  const name = tag.itemName ?? "Unnamed tag";
  const scansPage = pageParam(query.scans);

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <BackLink href="/dashboard/tags">Your tags</BackLink>
      <div>
        <PageHeading title={name}>
          <p className="flex flex-wrap items-center gap-2">
            <TagStatusBadge status={tag.status} />
            <span>
              <span className="font-mono text-ink">{tag.code}</span> · {tagTypeLabels[tag.tagType]} · {tag.scanCount} {tag.scanCount === 1 ? "scan" : "scans"}
              {tag.lastScannedAt ? `, last ${formatDateTime(tag.lastScannedAt)}` : ""}
            </span>
          </p>
        </PageHeading>
        {notice ? <FormAlert tone={notice.tone} title={notice.text} className="-mt-2" /> : null}
        {tag.status === "PENDING_SETUP" ? (
          <FormAlert tone="info" title="Almost ready" className="mt-4">
            The tag turns active once it has an item name{typed ? ` and its ${typed.title.toLowerCase()} are saved` : ""}.
          </FormAlert>
        ) : null}
        {tag.status === "LOST" || tag.status === "STOLEN" ? (
          <FormAlert tone="info" title={tag.status === "LOST" ? "Finders see that this is lost." : "Finders see a stolen alert."} className="mt-4">
            {tag.lostMessage ? <p>Your message: “{tag.lostMessage}”</p> : <p>You left no message for finders.</p>}
            <p className="mt-2">
              <Link href={`/dashboard/tags/${tag.id}/poster`} className="font-semibold underline">
                Print a {tag.status === "LOST" ? "lost" : "stolen"} poster
              </Link>{" "}
              to put up nearby: it carries the tag&apos;s QR code, never your contact details.
            </p>
          </FormAlert>
        ) : null}
      </div>

      <Panel id="general" title="Profile" description="What people who scan the tag see, unless you make it private. Contact details are optional: finders can always message you through us.">
        <FieldsForm
          action={saveGeneralProfileAction}
          formLabel="Profile"
          hidden={hidden}
          columns={2}
          fields={[
            { name: "itemName", label: "Item name", maxLength: 100, defaultValue: profile.itemName ?? "" },
            { name: "tagType", label: "Type", kind: "select", options: tagTypes.map((type) => ({ value: type, label: tagTypeLabels[type] })), defaultValue: tag.tagType },
            { name: "description", label: "Description", kind: "textarea", optional: true, maxLength: 2000, defaultValue: profile.description ?? "" },
            { name: "ownerName", label: "Your name as finders see it", optional: true, maxLength: 100, autoComplete: "name", defaultValue: profile.ownerName ?? "" },
            { name: "contactEmail", label: "Contact e-mail", kind: "email", optional: true, autoComplete: "email", defaultValue: profile.contactEmail ?? "" },
            { name: "contactPhone", label: "Contact phone", kind: "tel", optional: true, autoComplete: "tel", defaultValue: profile.contactPhone ?? "" },
            {
              name: "visibility",
              label: "Who sees the profile",
              kind: "select",
              options: [
                { value: "PUBLIC", label: "Anyone who scans the tag" },
                { value: "PRIVATE", label: "Private: finders see only a way to contact you" },
              ],
              defaultValue: profile.visibility,
            },
          ]}
          submitLabel="Save profile"
          pendingLabel="Saving…"
        />
      </Panel>

      {typed ? (
        <Panel id="typed" title={typed.title} description={typed.description}>
          <FieldsForm
            action={saveTypedProfileAction}
            formLabel={typed.title}
            hidden={{ ...hidden, profileType: tag.tagType }}
            columns={2}
            fields={typedDefaults(typed.fields, profile.typedProfile)}
            submitLabel={`Save ${typed.title.toLowerCase()}`}
            pendingLabel="Saving…"
          />
        </Panel>
      ) : null}

      <Panel id="photos" title="Photos" description={`Up to ${MAX_PHOTOS_PER_TAG} photos: JPEG, PNG or WebP, at most 5 MB each. Location and camera details are removed. The primary photo is shown first.`}>
        {profile.photos.length === 0 ? (
          <p className="mb-5 text-muted">No photos yet.</p>
        ) : (
          <ul aria-label="Photos" className="mb-6 grid grid-cols-2 gap-4 sm:grid-cols-3">
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
            hidden={hidden}
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

      <Panel id="status" title="Status" description={<>Now: {tagStatusLabels[tag.status]}. Only the changes possible from here are offered.</>}>
        {moves.length === 0 ? (
          <p className="text-muted">No change is possible from this status.</p>
        ) : (
          <ul className="flex flex-col gap-5">
            {moves.map((to) => (
              <li key={to} className="border-b border-line pb-5 last:border-b-0 last:pb-0">
                <p className="mb-3 text-sm text-muted">{transitionActions[to].explain}</p>
                <FieldsForm
                  action={changeStatusAction}
                  formLabel={transitionActions[to].label}
                  hidden={{ ...hidden, status: to }}
                  variant={to === "DEACTIVATED" || to === "STOLEN" ? "secondary" : "primary"}
                  fields={
                    to === "LOST" || to === "STOLEN"
                      ? [{ name: "lostMessage", label: "Message for finders", kind: "textarea", optional: true, maxLength: 500, defaultValue: tag.lostMessage ?? "", hint: "Shown on the page a finder sees, like “Please call, reward offered”." }]
                      : []
                  }
                  submitLabel={transitionActions[to].label}
                  pendingLabel="Saving…"
                />
              </li>
            ))}
          </ul>
        )}
      </Panel>

      <RewardPanel ctx={ctx} tagId={tag.id} />

      <Panel id="label" title="QR label" description="Print the tag's QR code with its code, to stick on the item or keep as a spare.">
        <div className="flex flex-wrap gap-3">
          <Link href={`/dashboard/tags/${tag.id}/label`} className="btn-secondary">
            Print the QR label
          </Link>
          {tag.status === "LOST" || tag.status === "STOLEN" ? (
            <Link href={`/dashboard/tags/${tag.id}/poster`} className="btn-secondary">
              Print a {tag.status === "LOST" ? "lost" : "stolen"} poster
            </Link>
          ) : null}
        </div>
      </Panel>

      <TransferInsuranceScanPanels ctx={ctx} tagId={tag.id} scansPage={scansPage} />

      <Panel id="release" title="Release this tag" tone="danger" description="The profile, photos, scan history and messages are deleted, and the tag's code can be activated again by anyone who has it. This cannot be undone.">
        <FieldsForm
          action={releaseTagAction}
          formLabel="Release this tag"
          hidden={hidden}
          variant="danger"
          fields={[{ name: "confirm", label: `Yes, release ${name} and delete its profile`, kind: "checkbox" }]}
          submitLabel="Release tag"
          pendingLabel="Releasing…"
        />
      </Panel>
    </div>
  );
}
