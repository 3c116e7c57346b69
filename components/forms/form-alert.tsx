import type { ReactNode } from "react";
import type { FormState } from "@/lib/forms/form-state";

const tones = {
  error: { role: "alert", className: "border-danger-700 bg-danger-50 text-danger-700" },
  success: { role: "status", className: "border-green-700 bg-green-50 text-green-900" },
  info: { role: "status", className: "border-brand-700 bg-brand-50 text-brand-900" },
} as const;

/**
 * A message for a whole form or page. Errors are announced at once (role="alert"), success and
 * information politely (role="status"). `tabIndex={-1}` lets a form move focus here after a failure.
 */
export function FormAlert({ tone, title, children, id, className }: { tone: keyof typeof tones; title?: ReactNode; children?: ReactNode; id?: string; className?: string }) {
  const { role, className: toneClass } = tones[tone];
  return (
    <div id={id} role={role} tabIndex={-1} data-form-alert={tone} className={`rounded-lg border-l-4 px-4 py-3 text-sm ${toneClass} ${className ?? ""}`}>
      {title ? <p className="font-semibold">{title}</p> : null}
      {children ? <div className={title ? "mt-1" : undefined}>{children}</div> : null}
    </div>
  );
}

/** What a form shows after its action answered: the error (with errors that belong to no field) or the success message. */
export function FormResultAlerts({ state, otherErrors }: { state: FormState; otherErrors: string[] }) {
  if (state.status === "error") {
    return (
      <FormAlert tone="error" title={state.message ?? "That did not work."}>
        {otherErrors.length > 0 ? (
          <ul className="list-disc pl-5">
            {otherErrors.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        ) : null}
      </FormAlert>
    );
  }
  return state.status === "success" && state.message ? <FormAlert tone="success" title={state.message} /> : null;
}
