import { StatusBadge } from "@/components/dashboard/status-badge";
import type { RewardRecord } from "@/lib/services/rewards";

type RewardStatus = RewardRecord["status"];

export const rewardStatusLabels: Record<RewardStatus, string> = { ACTIVE: "Offered", RETURNED: "Returned, to pay", PAID: "Paid", DISPUTED: "Disputed" };

const tones: Record<RewardStatus, string> = {
  ACTIVE: "border-reward-800 bg-reward-50 text-reward-800",
  RETURNED: "border-brand-700 bg-brand-50 text-brand-900",
  PAID: "border-green-700 bg-green-50 text-green-900",
  DISPUTED: "border-danger-700 bg-danger-50 text-danger-700",
};

/** A reward's status as a badge. */
export function RewardStatusBadge({ status }: { status: RewardStatus }) {
  return <StatusBadge status={status} label={rewardStatusLabels[status]} tone={tones[status]} kind="Reward status" />;
}

/** "Verified handover" when the owner confirmed the return with the finder's code. */
export function HandoverMark({ verified }: { verified: boolean }) {
  return verified ? (
    <span className="inline-flex items-center gap-1 text-sm font-semibold text-green-900">
      <span aria-hidden="true">✓</span> Verified handover
    </span>
  ) : (
    <span className="text-sm text-muted">Confirmed without the finder&apos;s code</span>
  );
}
