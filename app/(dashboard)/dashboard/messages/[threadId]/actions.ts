"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { formError, formSuccess } from "@/lib/forms/action-result";
import type { FormState } from "@/lib/forms/form-state";
import { action, rowAction, whenNotFound } from "@/lib/forms/action";
import { endpointRateLimits } from "@/lib/http/endpoint";
import { messageEndpoints } from "@/lib/http/endpoints/messages";
import { rewardEndpoints } from "@/lib/http/endpoints/rewards";
import { CONFIRM_CONTACT_DETAILS, getThread, replyAsOwner, setThreadStatus } from "@/lib/services/messages";
import { confirmReturn } from "@/lib/services/rewards";
import { ConflictError, UnprocessableError } from "@/lib/services/errors";
import { threadParams, threadPath } from "./thread-form";

/** POST /messages/:threadId/reply from the conversation page. */
export const replyAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  messageEndpoints.reply,
  {
    returnTo: threadPath,
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
    const sent = await replyAsOwner(ctx, params.threadId, input);
    revalidatePath(threadPath(formData));
    revalidatePath("/dashboard/messages");
    // No values: the text area empties for the next reply.
    return formSuccess(
      sent.textedToFinder === null
        ? "Your reply was sent."
        : sent.textedToFinder
          ? "Your reply was sent and is being texted to the finder."
          : "Your reply was saved. This finder can no longer be reached by text.",
    );
  },
);

/** PATCH /messages/:threadId { status }: close, block or reopen, answered as a notice on the page. */
export const setThreadStatusAction: (formData: FormData) => Promise<void> = rowAction.for(
  messageEndpoints.setStatus,
  {
    returnTo: threadPath,
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

/** The confirmation step of "Confirm the return for this finder": a box to tick, so one press cannot do it by accident. */
const confirmForFinderInput = z.object({
  confirmed: z.literal(true, { error: "Tick the box to confirm that this finder gave your item back." }),
});

/**
 * POST /rewards/confirm-return/:tagId { threadId } from the conversation: the owner names this
 * conversation's finder as the one who returned the item (met in person, no code at hand). The tag is
 * the conversation's own, read on the server, never taken from the form. The reward's thanks, payment
 * news and certificate then go to this finder alone; the tag's other conversations are closed and told
 * the item is home. Answered with a notice on the conversation; a refusal (the conversation is not a
 * finder's, no open reward any more) beside the form.
 * Plain action(), not action.for(): the endpoint takes the tag from its path, this form must not (it sends
 * only the conversation); it still spends the endpoint's rate-limit budget.
 */
export const confirmReturnForThreadAction: (previous: FormState, formData: FormData) => Promise<FormState> = action(
  {
    auth: "user",
    returnTo: threadPath,
    params: threadParams,
    input: confirmForFinderInput,
    rateLimit: endpointRateLimits(rewardEndpoints.confirmReturn),
    onError: (error, values): FormState | undefined => (error instanceof UnprocessableError || error instanceof ConflictError ? formError(error.message, values) : undefined),
  },
  async ({ ctx, params, formData }) => {
    const thread = await getThread(ctx, params.threadId);
    await confirmReturn(ctx, thread.tagId, { threadId: thread.threadId });
    revalidatePath(threadPath(formData));
    revalidatePath("/dashboard/messages");
    revalidatePath("/dashboard/rewards");
    revalidatePath(`/dashboard/tags/${thread.tagId}`);
    redirect(`${threadPath(formData)}?notice=reward-returned-finder`);
  },
);
