import Link from "next/link";
import { DateTime } from "@/components/dashboard/date-time";
import { formatDateTime } from "@/components/dashboard/dates";
import { Panel } from "@/components/dashboard/panel";
import { SubmitButton } from "@/components/forms/submit-button";
import { HandoverMark, RewardStatusBadge } from "@/components/rewards/reward-status-badge";
import { FieldsForm, type FieldGroup, type TagFieldSpec } from "@/components/tags/fields-form";
import { formatMoney } from "@/lib/i18n/money";
import type { ServiceContext } from "@/lib/services/context";
import { HANDOVER_CODE_MAX_FAILURES, listRewards, MAX_REWARD_AMOUNT, returnCandidates, type ReturnCandidate, type RewardRecord } from "@/lib/services/rewards";
import { confirmReturnAction, disputeRewardAction, payRewardAction, withdrawRewardAction } from "./reward-actions";

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

/** Currencies offered first in the reward fields; the API takes any ISO 4217 code. */
const currencies = ["USD", "EUR", "GBP", "CAD", "AUD", "NZD", "CHF", "SEK", "NOK", "DKK", "PLN", "JPY", "INR", "MXN", "BRL", "ZAR"];

const REWARDS_SHOWN = 20;

/** The tag's rewards as the page shows them: the open one (ACTIVE or RETURNED) apart from the rest. */
export interface TagRewards {
  items: RewardRecord[];
  open: RewardRecord | undefined;
  earlier: RewardRecord[];
  /** The conversations confirm-return may name, while a reward is ACTIVE. */
  candidates: ReturnCandidate[];
}

export async function loadTagRewards(ctx: ServiceContext, tagId: string): Promise<TagRewards> {
  const { items } = await listRewards(ctx, { page: 1, limit: REWARDS_SHOWN, tagId });
  const open = items.find((reward) => reward.status === "ACTIVE" || reward.status === "RETURNED");
  const candidates = open?.status === "ACTIVE" ? await returnCandidates(ctx, tagId) : [];
  return { items, open, earlier: items.filter((reward) => reward !== open), candidates };
}

/**
 * The reward's fields in lost mode's one form (saved with the message by saveLostModeAction), as one group:
 * empty for a new offer, the ACTIVE reward's values to change it (folded away while lost mode is on, where
 * its card below already shows it). None while a returned reward is still to pay: a new offer waits for it.
 */
export function lostModeRewardFields(rewards: TagRewards, { fold }: { fold: boolean }): { fields: TagFieldSpec[]; group: FieldGroup } | null {
  const { open, items } = rewards;
  if (open?.status === "RETURNED") return null;
  const currency = open?.currency ?? items[0]?.currency ?? "USD";
  const options = (currencies.includes(currency) ? currencies : [currency, ...currencies]).map((code) => ({ value: code, label: code }));
  const fields: TagFieldSpec[] = [
    { name: "amount", label: "Amount", inputMode: "decimal", autoComplete: "off", defaultValue: open ? String(open.amount) : "" },
    { name: "currency", label: "Currency", kind: "select", options, defaultValue: currency },
    { name: "description", label: "Note to the finder", kind: "textarea", rows: 2, optional: true, maxLength: 2000, defaultValue: open?.description ?? "", hint: "Shown with the reward, like “Thank you so much, he is our family.”" },
  ];
  const limits = `An amount is more than 0 and at most ${MAX_REWARD_AMOUNT.toLocaleString("en-GB")}.`;
  const group: FieldGroup = open
    ? {
        names: ["amount", "currency", "description"],
        legend: `Change the reward (${formatMoney(open.amount, open.currency)})`,
        hint: `${limits} Finders who left an e-mail address are told it changed; their handover codes stay the same. To take it back, use “Withdraw the offer”.`,
        folded: fold,
      }
    : {
        names: ["amount", "currency", "description"],
        legend: "Reward (optional)",
        hint: `Leave the amount empty for no reward. ${limits} You pay it yourself, once the item is back in your hands: we never hold or move money.`,
      };
  return { fields, group };
}

/**
 * The tag's rewards with only the moves the reward state table (docs/decisions/0022-reward-state-machine.md) allows from each one's status:
 * ACTIVE → confirm the return (with the finder's handover code) or withdraw; RETURNED → record the payment
 * or dispute; PAID → dispute; DISPUTED → remove. The open reward (ACTIVE or RETURNED) leads; the rest are
 * folded under "Earlier rewards" (opened by `earlierOpen`, an answer about one of them). Rewards are offered
 * in lost mode's one form, never here. `nested`: a part of lost mode; else a card of its own (a tag out of
 * lost mode with a reward still to pay or to look back on). Nothing when the tag has no rewards.
 */
export function RewardPanel({ tagId, rewards, timeZone, nested = false, earlierOpen = false }: { tagId: string; rewards: TagRewards; timeZone: string; nested?: boolean; earlierOpen?: boolean }) {
  const { open, earlier, candidates } = rewards;
  if (!open && earlier.length === 0) return null;
  return (
    <Panel
      id="reward"
      nested={nested}
      title="Reward"
      description={open?.status === "RETURNED" ? "The item is back: pay the finder the way you agreed, then record it here." : undefined}
    >
      <div className="flex flex-col gap-5">
        {open ? <RewardCard reward={open} tagId={tagId} timeZone={timeZone} candidates={candidates} /> : null}
        {earlier.length > 0 ? (
          <details open={earlierOpen || undefined} className="rounded-lg border border-line px-4 py-2">
            <summary className="min-h-10 cursor-pointer content-center font-semibold text-ink">
              {open ? "Earlier rewards" : "Rewards so far"} ({earlier.length})
            </summary>
            <ul className="mt-2 mb-2 flex flex-col gap-4">
              {earlier.map((reward) => (
                <li key={reward.id}>
                  <RewardCard reward={reward} tagId={tagId} timeZone={timeZone} />
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </div>
    </Panel>
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

function ConfirmReturn({ reward, tagId, candidates, timeZone }: { reward: RewardRecord; tagId: string; candidates: ReturnCandidate[]; timeZone: string }) {
  const locked = reward.handoverAttemptsLeft === 0;
  // Without a code (no phone, met in person) the owner may still name the finder; "nobody" names no one.
  const chooser = {
    name: "threadId",
    kind: "select" as const,
    label: "Or, without a code: who gave it back?",
    optional: true,
    hint: "Only that finder is thanked; the other conversations are told the item is home.",
    options: [
      { value: "", label: "Nobody named: just confirm the return" },
      ...candidates.map((candidate) => ({ value: candidate.threadId, label: `${candidate.finderName ?? "A finder"}, wrote ${formatDateTime(candidate.createdAt, timeZone)}` })),
    ],
  };
  return (
    <div className="flex flex-col gap-3 rounded-lg bg-canvas p-4">
      <h4 className="text-base font-semibold text-ink">Got it back? Confirm the return</h4>
      <p className="text-sm text-ink">
        Once the item is in your hands, ask the finder for the 6-digit code their conversation shows them (you never see it here). Pay only after that.
      </p>
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
            : [{ name: "handoverCode", label: "Finder's handover code", optional: true, inputMode: "numeric", autoComplete: "off", maxLength: 7, hint: "Six digits: it names the finder who returned it." }, chooser]
        }
        submitLabel="Confirm the return"
        pendingLabel="Confirming…"
      />
    </div>
  );
}
