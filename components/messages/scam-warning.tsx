import { type ScamSignal, scamWarningHeading, scamWarningText } from "@/lib/services/messages";

/**
 * The warning shown beside a message whose text carries scam signals, in the reader's language. A note
 * (role="note"), not an alert: it is part of the message, read with it, and must not interrupt.
 */
export function ScamWarning({ warnings, locale = "en", id }: { warnings: readonly ScamSignal[]; locale?: string; id?: string }) {
  if (warnings.length === 0) return null;
  return (
    <div id={id} role="note" data-scam-warning={warnings.join(" ")} className="rounded-lg border-l-4 border-reward-800 bg-reward-50 px-3 py-2 text-sm text-reward-800">
      <p className="flex items-center gap-1.5 font-semibold">
        <svg viewBox="0 0 20 20" className="h-4 w-4 shrink-0" aria-hidden="true" focusable="false" fill="currentColor">
          <path d="M10 2 1 18h18L10 2zm-.9 5h1.8l-.2 6h-1.4l-.2-6zm.9 9a1.1 1.1 0 1 1 0-2.2 1.1 1.1 0 0 1 0 2.2z" />
        </svg>
        {scamWarningHeading(locale)}
      </p>
      {warnings.map((code) => (
        <p key={code} className="mt-1">
          {scamWarningText(code, locale)}
        </p>
      ))}
    </div>
  );
}
