import { formatDateTime } from "@/components/dashboard/dates";
import { Panel } from "@/components/dashboard/panel";
import { SubmitButton } from "@/components/forms/submit-button";
import { FieldsForm } from "@/components/tags/fields-form";
import type { ServiceContext } from "@/lib/services/context";
import { NotFoundError } from "@/lib/services/errors";
import { getInsurance, listTagScans, listTransfers, type InsuranceRecord } from "@/lib/services/tags";
import { deleteInsuranceAction, saveInsuranceAction } from "./insurance-actions";
import { cancelTransferAction, sendTransferAction } from "./transfer-actions";

export const transferInsuranceNotices = {
  "transfer-sent": { tone: "success", text: "The transfer was sent. The new owner has 7 days to accept it." },
  "transfer-cancelled": { tone: "success", text: "The transfer was cancelled." },
  "transfer-missing": { tone: "error", text: "There was no pending transfer to cancel." },
  "insurance-deleted": { tone: "success", text: "The insurance details were removed." },
  "insurance-missing": { tone: "error", text: "There were no insurance details to remove." },
} as const;

/** Transfer, insurance and scan history of one tag (the lower half of the tag page). */
export async function TransferInsuranceScanPanels({ ctx, tagId }: { ctx: ServiceContext; tagId: string }) {
  const [transfers, insurance, scans] = await Promise.all([
    listTransfers(ctx),
    getInsurance(ctx, tagId).catch((error: unknown) => {
      if (error instanceof NotFoundError) return null;
      throw error;
    }),
    listTagScans(ctx, tagId, { page: 1, limit: 10 }),
  ]);
  const pending = transfers.outgoing.find((transfer) => transfer.tagId === tagId && transfer.status === "PENDING");
  const hidden = { tagId };

  return (
    <>
      <Panel id="transfer" title="Transfer to someone else" description="The new owner gets the tag with its profile and photos. Your contact details, the insurance details and the scan history are removed; your messages stay with you.">
        {pending ? (
          <div className="flex flex-col gap-3">
            <p className="text-ink">
              Offered to <span className="font-semibold break-all">{pending.toEmail}</span> until {formatDateTime(pending.expiresAt)}.
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

      <Panel id="insurance" title="Insurance" description="Keep the policy with the item, for a claim if it is not found. Only you see it.">
        <FieldsForm
          action={saveInsuranceAction}
          formLabel="Insurance"
          hidden={hidden}
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

      <Panel id="scans" title="Scan history" description={scans.total > scans.items.length ? `The latest ${scans.items.length} of ${scans.total} scans.` : undefined}>
        {scans.items.length === 0 ? (
          <p className="text-muted">Nobody has scanned this tag yet.</p>
        ) : (
          <ul aria-label="Scans" className="flex flex-col divide-y divide-line text-sm">
            {scans.items.map((scan) => (
              <li key={scan.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="text-ink">{formatDateTime(scan.scannedAt)}</span>
                <span className="text-muted">
                  {[scan.city, scan.country].filter(Boolean).join(", ") || "Place unknown"}
                  {scan.suspicious ? <span className="ml-2 font-semibold text-danger-700">Suspicious</span> : null}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </>
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
