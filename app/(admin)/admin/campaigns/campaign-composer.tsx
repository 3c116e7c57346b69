"use client";

import { useActionState, useId, useRef } from "react";
import { MarkdownField } from "@/components/content/markdown-field";
import { FieldErrorList, TextField } from "@/components/forms/field";
import { FormResultAlerts } from "@/components/forms/form-alert";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFocusOnResult } from "@/components/forms/use-focus-on-result";
import { errorsOutsideFields, fieldError, idleFormState, type FormState } from "@/lib/forms/form-state";
import { createCampaignAction } from "./actions";

const SUBJECT_MAX = 150;
const CONTENT_MAX = 100_000;

/**
 * Subject and Markdown content with a live preview (the same sanitising renderer the e-mail uses), and a
 * box to tick before sending: nothing goes out by a slip of the keyboard. Without JavaScript the form still
 * posts; the preview then shows what was last submitted.
 */
export function CampaignComposer({ recipients }: { recipients: number }) {
  const [state, formAction] = useActionState<FormState, FormData>(createCampaignAction, idleFormState);
  const formRef = useRef<HTMLFormElement>(null);
  const id = useId();
  useFocusOnResult(formRef, state);
  const contentErrors = fieldError(state, "content");
  const confirmErrors = fieldError(state, "confirmSend");
  const other = errorsOutsideFields(state, ["subject", "content", "confirmSend"]);
  const audience = recipients === 1 ? "1 confirmed subscriber" : `${recipients} confirmed subscribers`;

  return (
    <form ref={formRef} action={formAction} aria-label="New campaign" className="flex flex-col gap-5" noValidate>
      <FormResultAlerts state={state} otherErrors={other} />
      <TextField id={`${id}-subject`} name="subject" label="Subject" maxLength={SUBJECT_MAX} defaultValue={state.values?.subject} errors={fieldError(state, "subject")} hint={`One line, at most ${SUBJECT_MAX} characters.`} />
      <MarkdownField
        id={`${id}-content`}
        name="content"
        label="Content (Markdown)"
        hint="Headings (##), **bold**, lists and [links](https://example.com). HTML is left out. Every e-mail adds an unsubscribe link."
        errors={contentErrors}
        rows={14}
        maxLength={CONTENT_MAX}
        defaultValue={state.values?.content ?? ""}
        placeholder="The preview appears as you type."
        previewTestId="campaign-preview"
      />
      <div className="flex flex-col gap-1.5">
        <FieldErrorList id={`${id}-confirm-error`} errors={confirmErrors} />
        <label className="flex items-start gap-3 text-ink">
          <input
            type="checkbox"
            name="confirmSend"
            className="mt-1 h-5 w-5 shrink-0"
            aria-invalid={confirmErrors ? true : undefined}
            aria-describedby={confirmErrors ? `${id}-confirm-error` : undefined}
          />
          <span>
            Send this campaign now to <strong>{audience}</strong>. It cannot be stopped once started.
          </span>
        </label>
      </div>
      <div>
        <SubmitButton pendingLabel="Starting…" className="w-full sm:w-auto" disabled={recipients === 0}>
          Send campaign
        </SubmitButton>
        {recipients === 0 ? <p className="mt-2 text-sm text-muted">No one has confirmed a subscription yet, so there is no one to send to.</p> : null}
      </div>
    </form>
  );
}
