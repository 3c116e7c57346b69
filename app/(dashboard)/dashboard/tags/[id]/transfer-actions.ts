"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { formError } from "@/lib/forms/action-result";
import type { FormState } from "@/lib/forms/form-state";
import { action, rowAction, whenNotFound } from "@/lib/forms/action";
import { transferEndpoints } from "@/lib/http/endpoints/transfers";
import { RateLimitError } from "@/lib/services/errors";
import { cancelTransfer, createTransfer } from "@/lib/services/tags";
import { tagPath } from "./tag-form";

function transferCapMessage(retryAfterSeconds: number): string {
  const hours = Math.ceil(retryAfterSeconds / 3600);
  const wait = hours <= 1 ? "in an hour" : `in ${hours} hours`;
  return `Too many transfer offers today, from you or to this address. Please try again ${wait}.`;
}

/** POST /tags/:id/transfer: offers the tag to an e-mail address for 7 days. */
export const sendTransferAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  transferEndpoints.createTransfer,
  {
    fields: { id: "tagId" },
    returnTo: tagPath,
    values: ["email"],
    // The daily caps wait hours, not the minutes the generic "too many attempts" text counts in.
    onError: (error, values) => (error instanceof RateLimitError ? formError(transferCapMessage(error.retryAfterSeconds), values) : undefined),
  },
  async ({ ctx, params, input, formData }) => {
    await createTransfer(ctx, params.id, input);
    revalidatePath(tagPath(formData));
    redirect(`${tagPath(formData)}?notice=transfer-sent#transfer-heading`);
  },
);

/** DELETE /tags/:id/transfer. */
export const cancelTransferAction: (formData: FormData) => Promise<void> = rowAction.for(
  transferEndpoints.cancelTransfer,
  {
    fields: { id: "tagId" },
    returnTo: tagPath,
    onError: whenNotFound((formData) => `${tagPath(formData)}?notice=transfer-missing#transfer-heading`),
    revalidate: (formData) => revalidatePath(tagPath(formData)),
  },
  async ({ ctx, params, formData }) => {
    await cancelTransfer(ctx, params.id);
    return `${tagPath(formData)}?notice=transfer-cancelled#transfer-heading`;
  },
);
