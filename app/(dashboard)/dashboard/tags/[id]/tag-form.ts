import { formParams } from "@/lib/forms/action";
import { formText } from "@/lib/forms/form-state";
import { tagEndpoints } from "@/lib/http/endpoints/tags";
import { pageQuery } from "@/lib/http/page-input";

/** The tag id every form of the tag page sends, as the API's `{id}` (a malformed one reads as a missing tag). */
export const tagParams = formParams(tagEndpoints.get, { id: "tagId" });

/** The tag's page, where sign-in and every answer come back to; the tag list when the id is malformed. */
export function tagPath(formData: FormData): string {
  const { tagId } = pageQuery(tagParams.shape, (name) => formText(formData, name));
  return tagId ? `/dashboard/tags/${tagId}` : "/dashboard/tags";
}
