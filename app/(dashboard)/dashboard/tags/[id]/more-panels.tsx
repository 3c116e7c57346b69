import Link from "next/link";
import { DateTime } from "@/components/dashboard/date-time";
import { Panel } from "@/components/dashboard/panel";
import { SubmitButton } from "@/components/forms/submit-button";
import { FieldsForm } from "@/components/tags/fields-form";
import { RolledUpScanSummary, ScanList } from "@/components/tags/scan-list";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import type { ServiceContext } from "@/lib/services/context";
import { NotFoundError } from "@/lib/services/errors";
import { retentionSettings } from "@/lib/services/retention";
import { getInsurance, listTagScans, listTransfers, rolledUpScans, type InsuranceRecord } from "@/lib/services/tags";
import { deleteInsuranceAction, saveInsuranceAction } from "./insurance-actions";
import { cancelTransferAction, sendTransferAction } from "./transfer-actions";
import { pageOrFirst } from "@/components/dashboard/pager";

export const moreNotices = {
  "transfer-sent": { tone: "success", text: "The transfer was sent. The new owner has 7 days to accept it." },
  "transfer-cancelled": { tone: "success", text: "The transfer was cancelled." },
  "transfer-missing": { tone: "error", text: "There was no pending transfer to cancel." },
  "insurance-deleted": { tone: "success", text: "The insurance details were removed." },
  "insurance-missing": { tone: "error", text: "There were no insurance details to remove." },
} as const;

/** Scans shown per page of the tag's scan history. */
export const SCANS_PER_PAGE = 10;

/** Offering the tag to someone else, or the pending offer with a way to cancel it. */
export async function TransferPanel({ ctx, tagId }: { ctx: ServiceContext; tagId: string }) {
  const [transfers, timeZone] = await Promise.all([listTransfers(ctx), viewerTimeZone()]);
  const pending = transfers.outgoing.find((transfer) => transfer.tagId === tagId && transfer.status === "PENDING");
  const hidden = { tagId };
  return (
      <Panel id="transfer" title="Transfer to someone else" description="The new owner gets the tag with its profile and photos. Your contact details, the insurance details and the scan history are removed; your messages stay with you.">
        {pending ? (
          <div className="flex flex-col gap-3">
            <p className="text-ink">
              Offered to <span className="font-semibold break-all">{pending.toEmail}</span> until <DateTime iso={pending.expiresAt} timeZone={timeZone} />.
            </p>
            <form action={cancelTransferAction}>
              <input type="hidden" name="tagId" value={tagId} />
              <SubmitButton variant="secondary" pendingLabel="Cancelling…">
                Cancel the transfer
              </SubmitButton>
            </form>
          </div>
        ) : (
          <FieldsForm
            action={sendTransferAction}
            formLabel="Transfer the tag"
            hidden={hidden}
            variant="secondary"
            fields={[{ name: "email", label: "New owner's e-mail address", kind: "email", autoComplete: "off", hint: "They accept it from their dashboard within 7 days." }]}
            submitLabel="Send transfer"
            pendingLabel="Sending…"
          />
        )}
      </Panel>
  );
}

/** The insurance policy kept with the item (only the owner sees it). */
export async function InsurancePanel({ ctx, tagId }: { ctx: ServiceContext; tagId: string }) {
  const insurance = await getInsurance(ctx, tagId).catch((error: unknown) => {
    if (error instanceof NotFoundError) return null;
    throw error;
  });
  return (
      <Panel id="insurance" title="Insurance" description="Keep the policy with the item, for a claim if it is not found. Only you see it.">
        <FieldsForm
          action={saveInsuranceAction}
          formLabel="Insurance"
          hidden={{ tagId }}
          columns={2}
          variant="secondary"
          fields={insuranceFields(insurance)}
          submitLabel="Save insurance"
          pendingLabel="Saving…"
        />
        {insurance ? (
          <form action={deleteInsuranceAction} className="mt-4">
            <input type="hidden" name="tagId" value={tagId} />
            <SubmitButton variant="link" pendingLabel="Removing…">
              Remove the insurance details
            </SubmitButton>
          </form>
        ) : null}
      </Panel>
  );
}

/** The tag's scan history, paged by cursor (`?scans=<cursor>`: as fast at any depth), with the places finders shared. */
export async function ScansPanel({ ctx, tagId, scansCursor }: { ctx: ServiceContext; tagId: string; scansCursor?: string }) {
  const [scans, timeZone, older] = await Promise.all([
    pageOrFirst((cursor) => listTagScans(ctx, tagId, { page: 1, limit: SCANS_PER_PAGE, cursor }), scansCursor),
    viewerTimeZone(),
    rolledUpScans(ctx, tagId),
  ]);
  const scansPage = scans.page;
  const scanPages = Math.max(1, Math.ceil(scans.total / SCANS_PER_PAGE));
  const scansHref = (cursor?: string) => `/dashboard/tags/${tagId}${cursor ? `?scans=${encodeURIComponent(cursor)}` : "?more=1"}#scans-heading`;
  return (
      <Panel
        id="scans"
        title="Scan history"
        description={
          <>
            Every scan is listed; only a real scan alerts you. Bots and link previews (a pasted link unfurling in a chat or an e-mail scanner checking it), browser prefetches,
            repeats from the same device within 10 minutes and your own scans do not.
            {scans.total > scans.items.length ? ` Page ${scansPage} of ${scans.totalIsEstimate ? "about " : ""}${scanPages.toLocaleString("en")}, ${scans.totalIsEstimate ? "about " : ""}${scans.total.toLocaleString("en")} scans in all.` : ""}
          </>
        }
      >
        {scans.total > 0 ? (
          <p className="mb-3">
            <Link href={`/dashboard/tags/${tagId}/map`} className="btn-secondary">
              See the places on a map
            </Link>
          </p>
        ) : null}
        {scans.items.length === 0 ? (
          <p className="text-muted">{scansPage > 1 && scans.total > 0
              ? "There are no scans on this page."
              : older
                ? `No scans in the last ${retentionSettings().scansMonths} months.`
                : "Nobody has scanned this tag yet."}</p>
        ) : (
          <ScanList scans={scans.items} timeZone={timeZone} />
        )}
        {scansPage > 1 || scans.nextCursor ? (
          <nav aria-label="Scan history pages" className="mt-4 flex flex-wrap gap-3">
            {scansPage > 1 ? (
              <Link href={scansHref()} className="btn-secondary">
                Newest scans
              </Link>
            ) : null}
            {scans.nextCursor ? (
              <Link href={scansHref(scans.nextCursor)} className="btn-secondary">
                Older scans
              </Link>
            ) : null}
          </nav>
        ) : null}
        {older && !scans.nextCursor ? <RolledUpScanSummary summary={older} months={retentionSettings().scansMonths} /> : null}
      </Panel>
  );
}

function insuranceFields(saved: InsuranceRecord | null) {
  return [
    { name: "provider", label: "Insurer", maxLength: 100, defaultValue: saved?.provider ?? "" },
    { name: "policyNumber", label: "Policy number", maxLength: 100, defaultValue: saved?.policyNumber ?? "" },
    { name: "coverageAmount", label: "Amount covered", optional: true, inputMode: "decimal" as const, defaultValue: saved?.coverageAmount == null ? "" : String(saved.coverageAmount) },
    { name: "currency", label: "Currency", optional: true, maxLength: 3, autoCapitalize: "characters", hint: "Three letters; USD when empty.", defaultValue: saved?.currency ?? "" },
    { name: "validUntil", label: "Valid until", kind: "date" as const, optional: true, defaultValue: saved?.validUntil ?? "" },
    { name: "contactPhone", label: "Insurer's phone", kind: "tel" as const, optional: true, maxLength: 50, defaultValue: saved?.contactPhone ?? "" },
  ];
}
