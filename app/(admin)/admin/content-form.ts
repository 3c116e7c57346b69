import { formText } from "@/lib/forms/form-state";

/** What the content editors (components/admin/content-editor.tsx) share in reading their forms. */

/** A list typed as one text: the items between `separator`s, trimmed, blanks dropped. */
export function listField(text: string, separator: string | RegExp): string[] {
  return text
    .split(separator)
    .map((item) => item.trim())
    .filter(Boolean);
}

/** Whether the form's box `name` is ticked. */
export const ticked = (formData: FormData, name: string): boolean => formText(formData, name) === "on";

/** Every text the form sent and its visibility box ("on" or ""), to put back after a refusal. */
export function editorValues(formData: FormData, texts: readonly string[], box: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of texts) values[name] = formText(formData, name);
  values[box] = ticked(formData, box) ? "on" : "";
  return values;
}
