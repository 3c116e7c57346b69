"use client";

import { useActionState, useId, useRef } from "react";
import { positionTypeLabels } from "@/components/careers/labels";
import { MarkdownField } from "@/components/content/markdown-field";
import { SelectField, TextAreaField, TextField } from "@/components/forms/field";
import { FormResultAlerts } from "@/components/forms/form-alert";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFocusOnResult } from "@/components/forms/use-focus-on-result";
import { fieldError, idleFormState, type FormState } from "@/lib/forms/form-state";
import type { PositionType } from "@/lib/services/content";
import { createPositionAction, updatePositionAction } from "./actions";

export interface EditablePosition {
  id: string;
  title: string;
  department: string;
  location: string;
  type: PositionType;
  description: string;
  requirements: string[];
  benefits: string[];
  applyUrl: string;
  open: boolean;
}

const FIELDS = ["title", "department", "location", "type", "description", "requirements", "benefits", "applyUrl", "open"];
const TYPES = Object.keys(positionTypeLabels) as PositionType[];

/** The position editor, for a new position or an existing one, with a live preview of the description. */
export function PositionEditor({ position }: { position?: EditablePosition }) {
  const [state, formAction] = useActionState<FormState, FormData>(position ? updatePositionAction : createPositionAction, idleFormState);
  const formRef = useRef<HTMLFormElement>(null);
  const id = useId();
  useFocusOnResult(formRef, state);
  const values = state.values;
  const text = (name: string, fallback: string) => values?.[name] ?? fallback;
  const initialDescription = text("description", position?.description ?? "");
  const otherErrors = Object.entries(state.fieldErrors ?? {})
    .filter(([name]) => !FIELDS.includes(name))
    .flatMap(([, messages]) => messages ?? []);
  const typeErrors = fieldError(state, "type");

  return (
    <form ref={formRef} action={formAction} aria-label={position ? `Edit ${position.title}` : "New position"} className="flex flex-col gap-5" noValidate>
      <FormResultAlerts state={state} otherErrors={otherErrors} />
      {position ? <input type="hidden" name="positionId" value={position.id} /> : null}
      <TextField id={`${id}-title`} name="title" label="Title" maxLength={100} defaultValue={text("title", position?.title ?? "")} errors={fieldError(state, "title")} />
      <div className="grid gap-5 sm:grid-cols-3">
        <TextField id={`${id}-department`} name="department" label="Department" maxLength={100} defaultValue={text("department", position?.department ?? "")} errors={fieldError(state, "department")} />
        <TextField id={`${id}-location`} name="location" label="Location" maxLength={100} defaultValue={text("location", position?.location ?? "")} errors={fieldError(state, "location")} />
        <SelectField
          id={`${id}-type`}
          name="type"
          label="Type"
          defaultValue={text("type", position?.type ?? "FULL_TIME")}
          options={TYPES.map((type) => ({ value: type, label: positionTypeLabels[type] }))}
          errors={typeErrors}
        />
      </div>
      <MarkdownField
        id={`${id}-description`}
        name="description"
        label="Description"
        hint="Markdown: ## Heading, - list item, **bold**, [link](https://…). At most 2000 characters."
        errors={fieldError(state, "description")}
        rows={12}
        maxLength={2000}
        defaultValue={initialDescription}
        placeholder="The rendered description appears here as you type."
        previewTestId="position-preview"
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextAreaField
          id={`${id}-requirements`}
          name="requirements"
          label="Requirements"
          hint="One per line; up to 20."
          rows={5}
          errors={fieldError(state, "requirements")}
          defaultValue={text("requirements", position?.requirements.join("\n") ?? "")}
        />
        <TextAreaField id={`${id}-benefits`} name="benefits" label="Benefits" hint="One per line; up to 20." rows={5} errors={fieldError(state, "benefits")} defaultValue={text("benefits", position?.benefits.join("\n") ?? "")} />
      </div>
      <TextField
        id={`${id}-apply`}
        name="applyUrl"
        label="Where to apply"
        hint="An https address of an application form, or mailto:jobs@… for e-mail."
        maxLength={500}
        spellCheck={false}
        autoCapitalize="none"
        defaultValue={text("applyUrl", position?.applyUrl ?? "")}
        errors={fieldError(state, "applyUrl")}
      />
      <label className="flex items-center gap-2 text-sm font-semibold text-ink">
        <input type="checkbox" name="open" defaultChecked={values ? values.open === "on" : (position?.open ?? true)} className="h-5 w-5" />
        Open (shown on the careers page)
      </label>
      <div>
        <SubmitButton pendingLabel="Saving…" className="w-full sm:w-auto">
          {position ? "Save the position" : "Create the position"}
        </SubmitButton>
      </div>
    </form>
  );
}
