"use client";

import { ContentEditor } from "@/components/admin/content-editor";
import { positionTypeLabels } from "@/components/careers/labels";
import { MarkdownField } from "@/components/content/markdown-field";
import { SelectField, TextAreaField, TextField } from "@/components/forms/field";
import { fieldError } from "@/lib/forms/form-state";
import type { PositionType } from "@/lib/services/content";
import { createPositionAction, updatePositionAction } from "./actions";
import { POSITION_TEXT_FIELDS } from "./position-form";

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

const TYPES = Object.keys(positionTypeLabels) as PositionType[];

/** The position editor, for a new position or an existing one, with a live preview of the description. */
export function PositionEditor({ position }: { position?: EditablePosition }) {
  return (
    <ContentEditor
      kind="position"
      entry={position}
      actions={{ create: createPositionAction, update: updatePositionAction }}
      idField="positionId"
      fields={POSITION_TEXT_FIELDS}
      visibility={{ name: "open", label: "Open (shown on the careers page)", initially: position?.open ?? true }}
    >
      {({ id, state, text }) => (
        <>
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
              errors={fieldError(state, "type")}
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
            defaultValue={text("description", position?.description ?? "")}
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
        </>
      )}
    </ContentEditor>
  );
}
