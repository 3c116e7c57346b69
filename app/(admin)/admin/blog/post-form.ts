import { formText } from "@/lib/forms/form-state";
import { editorValues, listField, ticked } from "../content-form";

/** The editor's text fields, besides the Published box. */
export const POST_TEXT_FIELDS = ["title", "slug", "excerpt", "content", "coverImage", "tags"] as const;

/** Tags as the editor takes them: one text, comma-separated. */
export const tagList = (text: string): string[] => listField(text, ",");

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
    published: ticked(formData, "published"),
  };
  if (input.slug === undefined) delete input.slug;
  return input;
}

/** Every text the form sent, to put back after a refusal. */
export const postFormValues = (formData: FormData): Record<string, string> => editorValues(formData, POST_TEXT_FIELDS, "published");
