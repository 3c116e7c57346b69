import { formText } from "@/lib/forms/form-state";

/** Requirements and benefits as the editor takes them: one per line, blank lines ignored. */
export function lines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

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
    open: formText(formData, "open") === "on",
  };
}

/** Every text the form sent, to put back after a refusal. */
export function positionFormValues(formData: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of ["title", "department", "location", "type", "description", "requirements", "benefits", "applyUrl"]) values[name] = formText(formData, name);
  values.open = formText(formData, "open") === "on" ? "on" : "";
  return values;
}
