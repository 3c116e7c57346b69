import { formText } from "@/lib/forms/form-state";
import { editorValues, listField, ticked } from "../content-form";

/** The editor's text fields, besides the Open box. */
export const POSITION_TEXT_FIELDS = ["title", "department", "location", "type", "description", "requirements", "benefits", "applyUrl"] as const;

/** Requirements and benefits as the editor takes them: one per line, blank lines ignored. */
export const lines = (text: string): string[] => listField(text, /\r?\n/);

/** The editor's fields as the position schemas take them (create and update alike). */
export function positionFormInput(formData: FormData): Record<string, unknown> {
  return {
    title: formText(formData, "title"),
    department: formText(formData, "department"),
    location: formText(formData, "location"),
    type: formText(formData, "type") || undefined,
    description: formText(formData, "description"),
    requirements: lines(formText(formData, "requirements")),
    benefits: lines(formText(formData, "benefits")),
    applyUrl: formText(formData, "applyUrl"),
    open: ticked(formData, "open"),
  };
}

/** Every text the form sent, to put back after a refusal. */
export const positionFormValues = (formData: FormData): Record<string, string> => editorValues(formData, POSITION_TEXT_FIELDS, "open");
