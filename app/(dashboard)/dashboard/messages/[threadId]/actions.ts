"use server";

import { revalidatePath } from "next/cache";
import { formSuccess } from "@/lib/forms/action-result";
import type { FormState } from "@/lib/forms/form-state";
import { action, rowAction, whenNotFound } from "@/lib/forms/action";
import { ownerReplyInput, replyAsOwner, setThreadStatus, threadStatusInput } from "@/lib/services/messages";
import { threadParams, threadPath } from "./thread-form";

/** POST /messages/:threadId/reply from the conversation page. */
export const replyAction: (previous: FormState, formData: FormData) => Promise<FormState> = action(
  { auth: "user", returnTo: threadPath, params: threadParams, input: ownerReplyInput, values: ["content"] },
  async ({ ctx, params, input, formData }) => {
    await replyAsOwner(ctx, params.threadId, input);
    revalidatePath(threadPath(formData));
    revalidatePath("/dashboard/messages");
    // No values: the text area empties for the next reply.
    return formSuccess("Your reply was sent.");
  },
);

/** PATCH /messages/:threadId { status }: close, block or reopen, answered as a notice on the page. */
export const setThreadStatusAction: (formData: FormData) => Promise<void> = rowAction(
  {
    auth: "user",
    returnTo: threadPath,
    params: threadParams,
    input: threadStatusInput,
    onError: whenNotFound("/dashboard/messages?notice=missing"),
    revalidate: (formData) => {
      revalidatePath(threadPath(formData));
      revalidatePath("/dashboard/messages");
    },
  },
  async ({ ctx, params, input, formData }) => {
    await setThreadStatus(ctx, params.threadId, input.status);
    return `${threadPath(formData)}?notice=${input.status.toLowerCase()}`;
  },
);
