import { z } from "zod";
import { formText } from "@/lib/forms/form-state";

/** The tag id every form of the tag page sends (a malformed one reads as a missing tag). */
export const tagParams = z.object({ tagId: z.uuid() });

/** The tag's page, where sign-in and every answer come back to; the tag list when the id is malformed. */
export function tagPath(formData: FormData): string {
  const id = tagParams.shape.tagId.safeParse(formText(formData, "tagId"));
  return id.success ? `/dashboard/tags/${id.data}` : "/dashboard/tags";
}
