import { StatusBadge } from "@/components/dashboard/status-badge";
import type { ThreadStatus } from "@/lib/services/messages";

export const threadStatusLabels: Record<ThreadStatus, string> = { ACTIVE: "Open", CLOSED: "Closed", BLOCKED: "Blocked" };

const tones: Record<ThreadStatus, string> = {
  ACTIVE: "border-green-700 bg-green-50 text-green-900",
  CLOSED: "border-slate-500 bg-slate-100 text-slate-800",
  BLOCKED: "border-danger-700 bg-danger-50 text-danger-700",
};

/** A conversation's status as a badge. */
export function ThreadStatusBadge({ status }: { status: ThreadStatus }) {
  return <StatusBadge status={status} label={threadStatusLabels[status]} tone={tones[status]} kind="Conversation status" />;
}
