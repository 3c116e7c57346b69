import { formText } from "@/lib/forms/form-state";

/** Tags as the editor takes them: one text, comma-separated. */
export function tagList(text: string): string[] {
  return text
    .split(",")
    .map((tag) => tag.trim())
    .filter(Boolean);
}

/**
 * The editor's fields as the post schemas take them (create and update alike). A blank slug is
 * `slugWhenBlank(title)` (create: undefined, so the service derives it); a blank cover is none.
 */
export function postFormInput(formData: FormData, slugWhenBlank: (title: string) => string | undefined): Record<string, unknown> {
  const title = formText(formData, "title").trim();
  const slug = formText(formData, "slug").trim();
  const input: Record<string, unknown> = {
    title,
    slug: slug || slugWhenBlank(title),
    excerpt: formText(formData, "excerpt"),
    content: formText(formData, "content"),
    coverImage: formText(formData, "coverImage").trim() || null,
    tags: tagList(formText(formData, "tags")),
    published: formText(formData, "published") === "on",
  };
  if (input.slug === undefined) delete input.slug;
  return input;
}

/** Every text the form sent, to put back after a refusal. */
export function postFormValues(formData: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of ["title", "slug", "excerpt", "content", "coverImage", "tags"]) values[name] = formText(formData, name);
  values.published = formText(formData, "published") === "on" ? "on" : "";
  return values;
}
