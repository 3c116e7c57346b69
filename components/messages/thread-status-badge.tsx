import type { ThreadStatus } from "@/lib/services/messages/schemas";

export const threadStatusLabels: Record<ThreadStatus, string> = { ACTIVE: "Open", CLOSED: "Closed", BLOCKED: "Blocked" };

const tones: Record<ThreadStatus, string> = {
  ACTIVE: "border-green-700 bg-green-50 text-green-900",
  CLOSED: "border-slate-500 bg-slate-100 text-slate-800",
  BLOCKED: "border-danger-700 bg-danger-50 text-danger-700",
};

/** A conversation's status as words in a badge; the raw value in data-status. */
export function ThreadStatusBadge({ status }: { status: ThreadStatus }) {
  return (
    <span data-status={status} className={`inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${tones[status]}`}>
      <span className="sr-only">Conversation status: </span>
      {threadStatusLabels[status]}
    </span>
  );
}
