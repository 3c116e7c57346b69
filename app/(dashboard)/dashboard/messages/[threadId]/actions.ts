"use server";

import { revalidatePath } from "next/cache";
import { formSuccess } from "@/lib/forms/action-result";
import type { FormState } from "@/lib/forms/form-state";
import { action, rowAction, whenNotFound } from "@/lib/forms/action";
import { CONFIRM_CONTACT_DETAILS, ownerReplyInput, replyAsOwner, setThreadStatus, threadStatusInput } from "@/lib/services/messages";
import { ConflictError } from "@/lib/services/errors";
import { threadParams, threadPath } from "./thread-form";

/** POST /messages/:threadId/reply from the conversation page. */
export const replyAction: (previous: FormState, formData: FormData) => Promise<FormState> = action(
  {
    auth: "user",
    returnTo: threadPath,
    params: threadParams,
    input: ownerReplyInput,
    values: ["content"],
    // The confirm step: the reply stays in the box and the box to tick is pointed at.
    onError: (error, values): FormState | undefined =>
      error instanceof ConflictError && (error.details as { reason?: string } | undefined)?.reason === CONFIRM_CONTACT_DETAILS
        ? {
            status: "error",
            message: "Your reply contains contact details and this conversation looks like a scam. Tick the box to send it anyway, or remove them.",
            fieldErrors: { confirmContactDetails: ["Tick this to send your contact details to this finder."] },
            values,
          }
        : undefined,
  },
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
