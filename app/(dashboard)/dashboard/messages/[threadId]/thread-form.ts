import { z } from "zod";
import { formText } from "@/lib/forms/form-state";

/** The conversation id every form of the thread page sends (a malformed one reads as missing). */
export const threadParams = z.object({ threadId: z.uuid() });

/** The conversation's page, where sign-in and every answer come back to; the inbox when the id is malformed. */
export function threadPath(formData: FormData): string {
  const id = threadParams.shape.threadId.safeParse(formText(formData, "threadId"));
  return id.success ? `/dashboard/messages/${id.data}` : "/dashboard/messages";
}
