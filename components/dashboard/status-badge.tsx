/**
 * A status as words in a pill: the words carry the meaning (colour only helps), a screen reader hears
 * what kind of status it is, and the raw value is in data-status for tests and scripts.
 */
export function StatusBadge({ status, label, tone, kind, className }: { status: string; label: string; tone: string; kind: string; className?: string }) {
  return (
    <span data-status={status} className={`inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${tone} ${className ?? ""}`}>
      <span className="sr-only">{kind}: </span>
      {label}
    </span>
  );
}
