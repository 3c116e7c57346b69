"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { formError } from "@/lib/forms/action-result";
import { formText, type FormState } from "@/lib/forms/form-state";
import { action, rowAction } from "@/lib/forms/action";
import { rewardEndpoints } from "@/lib/http/endpoints/rewards";
import { ConflictError, NotFoundError, UnprocessableError } from "@/lib/services/errors";
import { confirmReturn, deleteReward, disputeReward, payReward } from "@/lib/services/rewards";
import { tagPath } from "./tag-form";

type FormAction = (previous: FormState, formData: FormData) => Promise<FormState>;

/** The forms on a reward send its id as `rewardId`, and its tag's (`tagId`), read by tagPath for where to come back to. */
const rewardFields = { id: "rewardId" } as const;

function rewardDone(formData: FormData, notice: string): never {
  const path = tagPath(formData);
  revalidatePath(path);
  revalidatePath("/dashboard/rewards");
  redirect(`${path}?notice=${notice}#reward-heading`);
}

/**
 * POST /rewards/confirm-return/:tagId, with the finder's handover code when the owner typed one, or the
 * finder's conversation when the owner chose one. The code is read forgivingly ("482 915", "482-915"); a
 * wrong or locked code, or a refused conversation, is answered beside its field.
 */
export const confirmReturnAction: FormAction = action.for(
  rewardEndpoints.confirmReturn,
  {
    returnTo: tagPath,
    read: (formData) => ({ handoverCode: formText(formData, "handoverCode").replace(/[\s-]/g, "") || undefined, threadId: formText(formData, "threadId") || undefined }),
    values: ["handoverCode", "threadId"],
    onError: (error, values) => {
      if (!(error instanceof UnprocessableError)) return undefined;
      // A refused conversation is answered beside the conversation choice, a refused code beside the code.
      if ((error.details as { threadId?: string } | undefined)?.threadId) return formError(error.message, values, { threadId: [error.message] });
      return formError(error.message, values, { handoverCode: [handoverCodeMessage(error)] });
    },
  },
  async ({ ctx, params, input, formData }) => {
    const result = await confirmReturn(ctx, params.tagId, input);
    rewardDone(formData, { HANDOVER_CODE: "reward-returned-verified", OWNER_CHOSE_FINDER: "reward-returned-finder", OWNER: "reward-returned" }[result.confirmation]);
  },
);

function handoverCodeMessage(error: UnprocessableError): string {
  const details = error.details as { attemptsLeft?: number; locked?: boolean } | undefined;
  if (details?.locked) return "Too many wrong codes: the check is locked. Leave the code empty to confirm the return without it.";
  const left = details?.attemptsLeft ?? 0;
  return `This is not the finder's code. ${left} ${left === 1 ? "try" : "tries"} left.`;
}

/** POST /rewards/:id/pay. */
export const payRewardAction: FormAction = action.for(
  rewardEndpoints.pay,
  { fields: rewardFields, returnTo: tagPath, values: ["paymentRef"] },
  async ({ ctx, params, input, formData }) => {
    await payReward(ctx, params.id, input);
    rewardDone(formData, "reward-paid");
  },
);

/** POST /rewards/:id/dispute. */
export const disputeRewardAction: FormAction = action.for(
  rewardEndpoints.dispute,
  { fields: rewardFields, returnTo: tagPath, values: ["reason"] },
  async ({ ctx, params, input, formData }) => {
    await disputeReward(ctx, params.id, input);
    rewardDone(formData, "reward-disputed");
  },
);

/** DELETE /rewards/:id (an ACTIVE offer withdrawn, or a DISPUTED one closed). */
export const withdrawRewardAction: (formData: FormData) => Promise<void> = rowAction.for(
  rewardEndpoints.remove,
  {
    fields: rewardFields,
    returnTo: tagPath,
    // Gone (or never ours) / moved on in another tab (e.g. returned meanwhile): say so on the tag's page.
    onError: (error, formData) =>
      error instanceof NotFoundError ? `${tagPath(formData)}?notice=reward-missing#reward-heading` : error instanceof ConflictError ? `${tagPath(formData)}?notice=reward-changed#reward-heading` : undefined,
    revalidate: (formData) => {
      revalidatePath(tagPath(formData));
      revalidatePath("/dashboard/rewards");
    },
  },
  async ({ ctx, params, formData }) => {
    await deleteReward(ctx, params.id);
    return `${tagPath(formData)}?notice=reward-withdrawn#reward-heading`;
  },
);
