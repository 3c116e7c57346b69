import Link from "next/link";
import { DateTime } from "@/components/dashboard/date-time";
import { Panel } from "@/components/dashboard/panel";
import { SubmitButton } from "@/components/forms/submit-button";
import { HandoverMark, RewardStatusBadge } from "@/components/rewards/reward-status-badge";
import { FieldsForm } from "@/components/tags/fields-form";
import { formatMoney } from "@/lib/i18n/money";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import type { ServiceContext } from "@/lib/services/context";
import { HANDOVER_CODE_MAX_FAILURES, listRewards, MAX_REWARD_AMOUNT, returnCandidates, type ReturnCandidate, type RewardRecord } from "@/lib/services/rewards";
import { confirmReturnAction, disputeRewardAction, offerRewardAction, payRewardAction, withdrawRewardAction } from "./reward-actions";

export const rewardNotices = {
  "reward-offered": { tone: "success", text: "The reward is offered. Finders see it on the tag's page, and their conversation shows them a handover code." },
  "reward-returned-verified": { tone: "success", text: "Return confirmed with the finder's handover code. You can now pay the reward." },
  "reward-returned-finder": { tone: "success", text: "Return confirmed for the finder you chose. You can now pay the reward." },
  "reward-returned": { tone: "success", text: "Return confirmed. You can now pay the reward." },
  "reward-paid": { tone: "success", text: "The reward is recorded as paid. Thank you for rewarding the finder." },
  "reward-disputed": { tone: "success", text: "The reward is marked as disputed." },
  "reward-withdrawn": { tone: "success", text: "The reward was removed." },
  "reward-missing": { tone: "error", text: "That reward no longer exists." },
  "reward-changed": { tone: "error", text: "That reward changed in the meantime: here is where it stands now." },
} as const;

/** Currencies offered first in the reward form; the API takes any ISO 4217 code. */
const currencies = ["USD", "EUR", "GBP", "CAD", "AUD", "NZD", "CHF", "SEK", "NOK", "DKK", "PLN", "JPY", "INR", "MXN", "BRL", "ZAR"];

const REWARDS_SHOWN = 20;

/**
 * The tag's rewards with only the moves decisions.md's state table allows from each one's status:
 * ACTIVE → confirm the return (with the finder's handover code) or withdraw; RETURNED → record the payment
 * or dispute; PAID → dispute; DISPUTED → remove. A new offer only when none is ACTIVE or RETURNED. It is a
 * part of lost mode (lost-mode.tsx); `standalone`, for a tag out of lost mode (found, say, with the reward
 * still to pay), it is a card of its own, shown only when the tag has rewards.
 */
export async function RewardPanel({ ctx, tagId, standalone = false }: { ctx: ServiceContext; tagId: string; standalone?: boolean }) {
  const [{ items }, timeZone, candidates] = await Promise.all([listRewards(ctx, { page: 1, limit: REWARDS_SHOWN, tagId }), viewerTimeZone(), returnCandidates(ctx, tagId)]);
  if (standalone && items.length === 0) return null;
  const open = items.find((reward) => reward.status === "ACTIVE" || reward.status === "RETURNED");
  const others = items.filter((reward) => reward !== open);
  const lastCurrency = items[0]?.currency ?? "USD";

  return (
    <Panel
      id="reward"
      nested={!standalone}
      title="Reward"
      description="A reward is shown to finders on the tag's page and in their conversation. You pay it yourself, only once the item is back in your hands: we never hold or move money."
    >
      <div className="flex flex-col gap-6">
        {open ? <RewardCard reward={open} tagId={tagId} timeZone={timeZone} candidates={candidates} /> : <OfferForm tagId={tagId} currency={lastCurrency} />}
        {others.length > 0 ? (
          <div>
            <p className="mb-3 text-base font-semibold text-ink">{open ? "Earlier rewards" : "Rewards so far"}</p>
            <ul className="flex flex-col gap-4">
              {others.map((reward) => (
                <li key={reward.id}>
                  <RewardCard reward={reward} tagId={tagId} timeZone={timeZone} />
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
    </Panel>
  );
}

function OfferForm({ tagId, currency }: { tagId: string; currency: string }) {
  const options = (currencies.includes(currency) ? currencies : [currency, ...currencies]).map((code) => ({ value: code, label: code }));
  return (
    <FieldsForm
      action={offerRewardAction}
      formLabel="Offer a reward"
      hidden={{ tagId }}
      columns={2}
      fields={[
        { name: "amount", label: "Amount", inputMode: "decimal", hint: `More than 0, at most ${MAX_REWARD_AMOUNT.toLocaleString("en-GB")}.` },
        { name: "currency", label: "Currency", kind: "select", options, defaultValue: currency },
        { name: "description", label: "Note to the finder", kind: "textarea", optional: true, maxLength: 2000, hint: "Shown with the reward, like “Thank you so much, he is our family.”" },
      ]}
      submitLabel="Offer the reward"
      pendingLabel="Offering…"
    />
  );
}

function RewardSummary({ reward, timeZone }: { reward: RewardRecord; timeZone: string }) {
  return (
    <div className="flex flex-col gap-1">
      <p className="flex flex-wrap items-center gap-2">
        <span className="text-2xl font-bold text-ink" data-testid="reward-amount">
          {formatMoney(reward.amount, reward.currency)}
        </span>
        <RewardStatusBadge status={reward.status} />
      </p>
      {reward.description ? <p className="whitespace-pre-line break-words text-ink">“{reward.description}”</p> : null}
      <p className="text-sm text-muted">
        Offered <DateTime iso={reward.createdAt} timeZone={timeZone} />
        {reward.returnedAt ? (
          <>
            {" · returned "}
            <DateTime iso={reward.returnedAt} timeZone={timeZone} />
          </>
        ) : null}
        {reward.paidAt ? (
          <>
            {" · paid "}
            <DateTime iso={reward.paidAt} timeZone={timeZone} />
          </>
        ) : null}
        {reward.paymentRef ? ` · payment reference ${reward.paymentRef}` : ""}
      </p>
      {reward.returnedAt ? <HandoverMark verified={reward.verifiedHandover} /> : null}
      {reward.disputeReason ? <p className="text-sm text-danger-700">Disputed: {reward.disputeReason}</p> : null}
      {reward.certificateId ? (
        <p>
          <Link href={`/certificates/${reward.certificateId}`} className="text-sm font-semibold text-brand-700 underline">
            Certificate of return
          </Link>
        </p>
      ) : null}
    </div>
  );
}

function RewardCard({ reward, tagId, timeZone, candidates = [] }: { reward: RewardRecord; tagId: string; timeZone: string; candidates?: ReturnCandidate[] }) {
  const hidden = { tagId, rewardId: reward.id };
  return (
    <article aria-label={`Reward of ${formatMoney(reward.amount, reward.currency)}`} className="flex flex-col gap-5 rounded-lg border border-line p-4" data-reward-status={reward.status}>
      <RewardSummary reward={reward} timeZone={timeZone} />
      {reward.status === "ACTIVE" ? <ConfirmReturn reward={reward} tagId={tagId} candidates={candidates} timeZone={timeZone} /> : null}
      {reward.status === "RETURNED" ? (
        <FieldsForm
          action={payRewardAction}
          formLabel="Record the payment"
          hidden={hidden}
          intro={<p className="text-sm text-muted">Pay the finder the way you agreed (cash at the meeting, a bank transfer…), then record it here.</p>}
          fields={[{ name: "paymentRef", label: "Payment reference", optional: true, maxLength: 500, hint: "A transfer or receipt number, for your records." }]}
          submitLabel="Record the payment"
          pendingLabel="Saving…"
        />
      ) : null}
      {reward.status === "RETURNED" || reward.status === "PAID" ? (
        <details className="rounded-lg border border-line px-4 py-3">
          <summary className="min-h-10 cursor-pointer content-center font-semibold text-ink">Something went wrong? Dispute the reward</summary>
          <FieldsForm
            action={disputeRewardAction}
            formLabel="Dispute the reward"
            hidden={hidden}
            variant="secondary"
            className="mt-4"
            fields={[{ name: "reason", label: "What went wrong", kind: "textarea", maxLength: 2000 }]}
            submitLabel="Dispute the reward"
            pendingLabel="Saving…"
          />
        </details>
      ) : null}
      {reward.status === "ACTIVE" || reward.status === "DISPUTED" ? (
        <form action={withdrawRewardAction}>
          <input type="hidden" name="tagId" value={tagId} />
          <input type="hidden" name="rewardId" value={reward.id} />
          <SubmitButton variant="secondary" pendingLabel="Removing…">
            {reward.status === "ACTIVE" ? "Withdraw the offer" : "Remove this reward"}
          </SubmitButton>
        </form>
      ) : null}
    </article>
  );
}

const candidateDate = (iso: string, timeZone: string) => new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short", timeZone }).format(new Date(iso));

function ConfirmReturn({ reward, tagId, candidates, timeZone }: { reward: RewardRecord; tagId: string; candidates: ReturnCandidate[]; timeZone: string }) {
  const locked = reward.handoverAttemptsLeft === 0;
  // Without a code (no phone, met in person) the owner may still name the finder; "nobody" names no one.
  const chooser = {
    name: "threadId",
    kind: "select" as const,
    label: "Or: who gave it back? (without a code)",
    optional: true,
    hint: "Only that finder is thanked and gets the certificate; the other conversations are closed and told the item is home.",
    options: [
      { value: "", label: "Nobody named: just confirm the return" },
      ...candidates.map((candidate) => ({ value: candidate.threadId, label: `${candidate.finderName ?? "A finder"}, wrote ${candidateDate(candidate.createdAt, timeZone)}` })),
    ],
  };
  return (
    <div className="flex flex-col gap-3 rounded-lg bg-canvas p-4">
      <h4 className="text-base font-semibold text-ink">Got it back? Confirm the return</h4>
      <ol className="list-decimal space-y-1 pl-5 text-sm text-ink">
        <li>Each finder&apos;s conversation shows them their own 6-digit handover code. You never see it here.</li>
        <li>At the meeting, once the item is in your hands, ask the finder for the code and type it below.</li>
        <li>Pay the reward only after that. Nobody who really has your item needs money first.</li>
      </ol>
      {locked ? (
        <p className="text-sm font-semibold text-danger-700">Too many wrong codes were typed: the code check is locked. You can still confirm the return without a code.</p>
      ) : reward.handoverAttemptsLeft < HANDOVER_CODE_MAX_FAILURES ? (
        <p className="text-sm text-muted">
          {reward.handoverAttemptsLeft} wrong {reward.handoverAttemptsLeft === 1 ? "code" : "codes"} left before the check locks.
        </p>
      ) : null}
      <FieldsForm
        action={confirmReturnAction}
        formLabel="Confirm the return"
        hidden={{ tagId }}
        fields={
          locked
            ? [chooser]
            : [{ name: "handoverCode", label: "Finder's handover code", optional: true, inputMode: "numeric", autoComplete: "off", maxLength: 7, hint: "Six digits: it names the finder who returned it. Leave it empty to confirm without the code." }, chooser]
        }
        submitLabel="Confirm the return"
        pendingLabel="Confirming…"
      />
    </div>
  );
}
