import type { Metadata } from "next";
import Link from "next/link";
import { CursorPager, cursorParam, pageOrFirst } from "@/components/dashboard/pager";
import { DateTime } from "@/components/dashboard/date-time";
import { formatDateTime } from "@/components/dashboard/dates";
import { noticeFrom } from "@/components/dashboard/notices";
import { PageHeading } from "@/components/dashboard/page-heading";
import { Panel } from "@/components/dashboard/panel";
import { FormAlert } from "@/components/forms/form-alert";
import { SubmitButton } from "@/components/forms/submit-button";
import { FieldsForm } from "@/components/tags/fields-form";
import { requireUserContext } from "@/lib/http/page-context";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { getEmergencyProfile, isShownToResponders, listEmergencyAccesses, listTagsShowingEmergency, MAX_EMERGENCY_CONTACTS, type EmergencyAccess, type EmergencyContact } from "@/lib/services/emergency";
import { addEmergencyContactAction, deleteEmergencyContactAction, saveEmergencyProfileAction, updateEmergencyContactAction } from "./actions";
import { contactFields, EMERGENCY_PATH, emergencyProfileFields } from "./emergency-form";

export const metadata: Metadata = { title: "Emergency information" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const ACCESSES_PER_PAGE = 10;

/**
 * The owner's emergency profile: the medical facts and contacts first responders read through any of
 * the owner's tags, and the log of every time someone did.
 */
export default async function EmergencyPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireUserContext(EMERGENCY_PATH);
  const timeZone = await viewerTimeZone();
  const params = await searchParams;
  const [profile, log, showingTags] = await Promise.all([
    getEmergencyProfile(ctx),
    pageOrFirst((cursor) => listEmergencyAccesses(ctx, { page: 1, limit: ACCESSES_PER_PAGE, cursor }), cursorParam(params.cursor)),
    listTagsShowingEmergency(ctx),
  ]);
  const notice = noticeFrom(params, {
    "contact-removed": { tone: "success", text: "The contact was removed." },
    "contact-missing": { tone: "error", text: "That contact was already removed." },
  });
  const shown = isShownToResponders(profile);
  const contacts = profile.emergencyContacts;
  const totalPages = Math.max(1, Math.ceil(log.total / ACCESSES_PER_PAGE));

  return (
    <>
      <PageHeading title="Emergency information">
        Whoever scans one of the tags listed below can open this information from the tag&apos;s page, even when its profile is private: it
        is meant for first responders. Each time someone opens it, you are told at once and it appears in the log below.
      </PageHeading>
      {notice ? <FormAlert tone={notice.tone} title={notice.text} className="mb-6" /> : null}

      <div className="mb-6 flex flex-col gap-3 rounded-xl border border-line bg-white p-5 shadow-sm sm:flex-row sm:items-center sm:justify-between">
        <p className="text-ink" data-testid="emergency-shown">
          {shown ? (
            <>
              <span className="font-semibold">Shown to first responders</span> through {showingTags.length === 1 ? "one of your tags" : `${showingTags.length} of your tags`}.
            </>
          ) : (
            <>
              <span className="font-semibold">Not shown yet.</span> Add a medical fact or a contact and your tags&apos; emergency page will show it.
            </>
          )}
        </p>
        <Link href={`${EMERGENCY_PATH}/ice-card`} className="btn-secondary shrink-0">
          Print an ICE card
        </Link>
      </div>

      <div className="flex max-w-3xl flex-col gap-6">
        <Panel
          id="tags"
          title="Tags that show it"
          description="Each tag's page chooses whether it offers this information: off for pet tags unless you turn it on, on for the others. Change it in the tag's details."
        >
          {showingTags.length === 0 ? (
            <p className="text-muted">None of your tags offers it.</p>
          ) : (
            <ul aria-label="Tags that show your emergency information" className="flex flex-col divide-y divide-line">
              {showingTags.map((tag) => (
                <li key={tag.id} className="py-2.5 first:pt-0">
                  <Link href={`/dashboard/tags/${tag.id}#details`} className="font-semibold text-brand-700 underline">
                    {tag.itemName ?? "Unnamed tag"}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </Panel>

        <Panel
          id="medical"
          title="Medical information"
          description={profile.updatedAt ? `Last saved ${formatDateTime(profile.updatedAt, timeZone)}. Leave out anything you would not want a stranger to read.` : "Leave out anything you would not want a stranger to read."}
        >
          <FieldsForm
            action={saveEmergencyProfileAction}
            formLabel="Medical information"
            fields={emergencyProfileFields(profile)}
            columns={2}
            submitLabel="Save medical information"
            pendingLabel="Saving…"
          />
        </Panel>

        <Panel id="contacts" title="Emergency contacts" description={`Up to ${MAX_EMERGENCY_CONTACTS}. First responders see each contact's name, relationship and phone number.`}>
          {contacts.length === 0 ? <p className="mb-5 text-muted">No contacts yet.</p> : null}
          {contacts.length > 0 ? (
            <ul aria-label="Emergency contacts" className="mb-6 flex flex-col divide-y divide-line">
              {contacts.map((contact) => (
                <ContactRow key={contact.id} contact={contact} />
              ))}
            </ul>
          ) : null}
          {contacts.length < MAX_EMERGENCY_CONTACTS ? (
            <div className="rounded-lg border border-line bg-canvas p-4 sm:p-5">
              <h3 className="mb-4 font-semibold text-ink">Add a contact</h3>
              <FieldsForm action={addEmergencyContactAction} formLabel="Add a contact" fields={contactFields()} columns={2} keepFieldsOnSuccess={false} submitLabel="Add contact" pendingLabel="Adding…" variant="secondary" />
            </div>
          ) : (
            <p className="text-muted">You have {MAX_EMERGENCY_CONTACTS} contacts, the most there can be. Remove one to add another.</p>
          )}
        </Panel>

        <Panel
          id="accesses"
          title="Who opened it"
          description={log.total === 0 ? undefined : `${log.total} ${log.total === 1 ? "time" : "times"} in all. The place comes from the reader's network and is approximate.`}
        >
          {log.items.length === 0 ? (
            <p className="text-muted">{log.total === 0 ? "Nobody has opened your emergency information yet." : "No more entries."}</p>
          ) : (
            <ul aria-label="Emergency access log" className="flex flex-col divide-y divide-line text-sm">
              {log.items.map((access) => (
                <AccessRow key={access.id} access={access} timeZone={timeZone} />
              ))}
            </ul>
          )}
          <CursorPager
            page={log.page}
            totalPages={totalPages}
            totalIsEstimate={log.totalIsEstimate}
            nextCursor={log.nextCursor}
            href={(cursor) => `${EMERGENCY_PATH}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}#accesses-heading`}
            firstLabel="Newest accesses"
            nextLabel="Older accesses"
            label="Access log pages"
            className="mt-4"
          />
        </Panel>
      </div>
    </>
  );
}

function ContactRow({ contact }: { contact: EmergencyContact }) {
  const headingId = `contact-${contact.id}`;
  return (
    <li aria-labelledby={headingId} className="flex flex-col gap-3 py-4 first:pt-0">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p id={headingId} className="font-semibold break-words text-ink">
            {contact.name} <span className="font-normal text-muted">· {contact.relationship}</span>
          </p>
          <p className="text-sm text-ink">
            <a href={`tel:${contact.phone.replace(/[^\d+]/g, "")}`} className="underline">
              {contact.phone}
            </a>
            {contact.email ? <span className="break-all text-muted"> · {contact.email}</span> : null}
          </p>
        </div>
        <form action={deleteEmergencyContactAction}>
          <input type="hidden" name="contactId" value={contact.id} />
          <SubmitButton variant="link" pendingLabel="Removing…" className="min-h-10 text-sm">
            Remove<span className="sr-only"> {contact.name}</span>
          </SubmitButton>
        </form>
      </div>
      <details className="rounded-lg border border-line">
        <summary className="min-h-11 cursor-pointer px-3 py-2.5 text-sm font-semibold text-brand-700">
          Edit<span className="sr-only"> {contact.name}</span>
        </summary>
        <div className="border-t border-line p-4">
          <FieldsForm
            action={updateEmergencyContactAction}
            formLabel={`Edit ${contact.name}`}
            hidden={{ contactId: contact.id }}
            fields={contactFields(contact)}
            columns={2}
            submitLabel="Save contact"
            pendingLabel="Saving…"
            variant="secondary"
          />
        </div>
      </details>
    </li>
  );
}

function AccessRow({ access, timeZone }: { access: EmergencyAccess; timeZone: string }) {
  const place = [access.city, access.country].filter(Boolean).join(", ");
  return (
    <li className="flex flex-col gap-0.5 py-2.5 sm:flex-row sm:items-center sm:justify-between sm:gap-4">
      <span className="font-semibold text-ink">
        <DateTime iso={access.accessedAt} timeZone={timeZone} />
      </span>
      <span className="text-muted">
        {place || "Place unknown"} · {access.tagName ? `through “${access.tagName}”` : "through a tag"}
        {access.agent ? ` · ${access.agent}` : ""}
      </span>
    </li>
  );
}
