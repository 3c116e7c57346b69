import { StatusBadge } from "@/components/dashboard/status-badge";
import type { TagStatus } from "@/lib/services/tags";
import { tagStatusLabels } from "./labels";

const tones: Record<TagStatus, string> = {
  PENDING_SETUP: "border-slate-400 bg-slate-100 text-slate-800",
  ACTIVE: "border-green-700 bg-green-50 text-green-900",
  LOST: "border-reward-800 bg-reward-50 text-reward-800",
  FOUND: "border-brand-700 bg-brand-50 text-brand-900",
  STOLEN: "border-danger-700 bg-danger-50 text-danger-700",
  DEACTIVATED: "border-slate-500 bg-white text-slate-700",
  EXPIRED: "border-slate-500 bg-slate-100 text-slate-700",
};

/** A tag's status as a badge. */
export function TagStatusBadge({ status, className }: { status: TagStatus; className?: string }) {
  return <StatusBadge status={status} label={tagStatusLabels[status]} tone={tones[status]} kind="Status" className={className} />;
}
