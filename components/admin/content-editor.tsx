"use client";

import { useActionState, useId, useRef, type ReactNode } from "react";
import { FormResultAlerts } from "@/components/forms/form-alert";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFocusOnResult } from "@/components/forms/use-focus-on-result";
import { idleFormState, type FormState } from "@/lib/forms/form-state";

type FormAction = (previous: FormState, formData: FormData) => Promise<FormState>;

/** What an editor's own fields get: ids to prefix, the state (its field errors) and the text to show. */
export interface ContentEditorFields {
  id: string;
  state: FormState;
  /** What was typed before a refused save, else the entry's value. */
  text: (name: string, fallback: string) => string;
}

/**
 * The editor of an admin-written content entry (a blog post, a career position), new or existing: the
 * form posting to the create or update action, the result alerts (errors of fields the form does not show
 * go there), the hidden field naming the entry, the kind's own fields, the visibility box and the save
 * button. Works without JavaScript; a refused save keeps what was typed.
 */
export function ContentEditor({
  kind,
  entry,
  actions,
  idField,
  fields,
  visibility,
  children,
}: {
  /** "post", "position": in the form's label and its button. */
  kind: string;
  entry?: { id: string; title: string };
  actions: { create: FormAction; update: FormAction };
  /** The hidden field carrying the entry's id to the update action. */
  idField: string;
  /** The fields shown beside their inputs. */
  fields: readonly string[];
  /** The box that makes the entry public: its field name, label and value for an entry not saved yet. */
  visibility: { name: string; label: string; initially: boolean };
  children: (form: ContentEditorFields) => ReactNode;
}) {
  const [state, formAction] = useActionState<FormState, FormData>(entry ? actions.update : actions.create, idleFormState);
  const formRef = useRef<HTMLFormElement>(null);
  const id = useId();
  useFocusOnResult(formRef, state);
  const values = state.values;
  const text = (name: string, fallback: string) => values?.[name] ?? fallback;
  const otherErrors = Object.entries(state.fieldErrors ?? {})
    .filter(([name]) => !fields.includes(name) && name !== visibility.name)
    .flatMap(([, messages]) => messages ?? []);

  return (
    <form ref={formRef} action={formAction} aria-label={entry ? `Edit ${entry.title}` : `New ${kind}`} className="flex flex-col gap-5" noValidate>
      <FormResultAlerts state={state} otherErrors={otherErrors} />
      {entry ? <input type="hidden" name={idField} value={entry.id} /> : null}
      {children({ id, state, text })}
      <label className="flex items-center gap-2 text-sm font-semibold text-ink">
        <input type="checkbox" name={visibility.name} defaultChecked={values ? values[visibility.name] === "on" : visibility.initially} className="h-5 w-5" />
        {visibility.label}
      </label>
      <div>
        <SubmitButton pendingLabel="Saving…" className="w-full sm:w-auto">
          {entry ? `Save the ${kind}` : `Create the ${kind}`}
        </SubmitButton>
      </div>
    </form>
  );
}
