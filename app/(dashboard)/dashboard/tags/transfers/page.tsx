import type { Metadata } from "next";
import Link from "next/link";
import { BackLink } from "@/components/dashboard/back-link";
import { DateTime } from "@/components/dashboard/date-time";
import { PageHeading } from "@/components/dashboard/page-heading";
import { Panel } from "@/components/dashboard/panel";
import { FormAlert } from "@/components/forms/form-alert";
import { SubmitButton } from "@/components/forms/submit-button";
import { requireUserContext } from "@/lib/http/page-context";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { getMe } from "@/lib/services/auth";
import { listTransfers, type TransferRecord } from "@/lib/services/tags";
import { ResendVerificationForm } from "../../resend-verification-form";
import { param, type SearchParams } from "../params";
import { acceptTransferAction, declineTransferAction } from "./actions";
import { transferFailureMessage } from "./failure-messages";

export const metadata: Metadata = { title: "Tag transfers" };

const statusText: Record<TransferRecord["status"], string> = {
  PENDING: "Waiting for an answer",
  ACCEPTED: "Accepted",
  DECLINED: "Declined",
  CANCELLED: "Cancelled",
  EXPIRED: "Expired",
};

export default async function TransfersPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireUserContext("/dashboard/tags/transfers");
  const [me, { incoming, outgoing }, timeZone] = await Promise.all([getMe(ctx), listTransfers(ctx), viewerTimeZone()]);
  const params = await searchParams;
  const notice = param(params, "notice");
  const tagId = param(params, "tag");
  const reason = param(params, "reason");

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <BackLink href="/dashboard/tags">Your tags</BackLink>
      <PageHeading title="Tag transfers">Tags offered to you, and tags you offered to others.</PageHeading>
      {notice === "accepted" ? (
        <FormAlert tone="success" title="The tag is yours now.">
          {tagId && /^[0-9a-f-]{36}$/.test(tagId) ? (
            <Link href={`/dashboard/tags/${tagId}`} className="font-semibold underline">
              Open the tag
            </Link>
          ) : null}
        </FormAlert>
      ) : null}
      {notice === "declined" ? <FormAlert tone="success" title="The transfer was declined." /> : null}
      {notice === "failed" ? <FormAlert tone="error" title={transferFailureMessage(reason)} /> : null}

      <Panel id="incoming" title="Offered to you">
        {/* The service lists no incoming offers before the address is confirmed: say why, and how to see them. */}
        {!me.emailVerified ? (
          <div>
            <p className="text-ink">
              Confirm your e-mail address to see tags offered to it: open the link we sent to{" "}
              <span className="font-semibold break-all">{me.email}</span>. Offers made to that address then show up here.
            </p>
            <ResendVerificationForm />
          </div>
        ) : incoming.length === 0 ? (
          <p className="text-muted">Nobody has offered you a tag.</p>
        ) : (
          <ul aria-label="Incoming transfers" className="flex flex-col divide-y divide-line">
            {incoming.map((transfer) => (
              <li key={transfer.id} className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between">
                <div>
                  <p className="font-semibold text-ink">{transfer.itemName ?? "Unnamed tag"}</p>
                  <p className="text-sm text-muted">
                    {statusText[transfer.status]}
                    {transfer.status === "PENDING" ? (
                      <>
                        , until <DateTime iso={transfer.expiresAt} timeZone={timeZone} />
                      </>
                    ) : null}
                  </p>
                </div>
                {transfer.status === "PENDING" ? (
                  <div className="flex flex-wrap gap-3">
                    <form action={acceptTransferAction}>
                      <input type="hidden" name="transferId" value={transfer.id} />
                      <SubmitButton pendingLabel="Accepting…">
                        Accept<span className="sr-only"> {transfer.itemName ?? "the tag"}</span>
                      </SubmitButton>
                    </form>
                    <form action={declineTransferAction}>
                      <input type="hidden" name="transferId" value={transfer.id} />
                      <SubmitButton variant="secondary" pendingLabel="Declining…">
                        Decline<span className="sr-only"> {transfer.itemName ?? "the tag"}</span>
                      </SubmitButton>
                    </form>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Panel>

      <Panel id="outgoing" title="Offered by you">
        {outgoing.length === 0 ? (
          <p className="text-muted">You have not offered any tags.</p>
        ) : (
          <ul aria-label="Outgoing transfers" className="flex flex-col divide-y divide-line text-sm">
            {outgoing.map((transfer) => (
              <li key={transfer.id} className="flex flex-wrap justify-between gap-2 py-3">
                <span className="font-semibold text-ink">
                  {transfer.itemName ?? "Unnamed tag"} → <span className="break-all">{transfer.toEmail}</span>
                </span>
                <span className="text-muted">{statusText[transfer.status]}</span>
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </div>
  );
}
