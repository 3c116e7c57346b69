import { formParams } from "@/lib/forms/action";
import { formText } from "@/lib/forms/form-state";
import { messageEndpoints } from "@/lib/http/endpoints/messages";
import { pageQuery } from "@/lib/http/page-input";

/** The conversation id every form of the thread page sends, as the API's `{threadId}` (a malformed one reads as missing). */
export const threadParams = formParams(messageEndpoints.get);

/** The conversation's page, where sign-in and every answer come back to; the inbox when the id is malformed. */
export function threadPath(formData: FormData): string {
  const { threadId } = pageQuery(threadParams.shape, (name) => formText(formData, name));
  return threadId ? `/dashboard/messages/${threadId}` : "/dashboard/messages";
}
