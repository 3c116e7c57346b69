import { ActionForm } from "@/components/forms/action-form";
import { resendVerificationAction } from "./actions";

/** The "Send a new link" button wherever the dashboard asks for a confirmed address. */
export function ResendVerificationForm() {
  return (
    <ActionForm
      action={resendVerificationAction}
      submitLabel="Send a new link"
      pendingLabel="Sending…"
      variant="secondary"
      formLabel="Send a new confirmation link"
      className="mt-4"
    />
  );
}
