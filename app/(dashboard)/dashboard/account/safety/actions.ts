"use server";

import { revalidatePath } from "next/cache";
import { formSuccess } from "@/lib/forms/action-result";
import type { FormState } from "@/lib/forms/form-state";
import { action, rowAction } from "@/lib/forms/action";
import { blockEndpoints } from "@/lib/http/endpoints/blocks";
import { reportEndpoints } from "@/lib/http/endpoints/reports";
import { blockUser, unblockUser } from "@/lib/services/blocks";
import { createReport, REPORT_RECEIVED } from "@/lib/services/reports";

const PATH = "/dashboard/account/safety";

/** POST /reports, from the safety page (with the ids a "Report" link carried, as hidden fields). */
export const createReportAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  reportEndpoints.create,
  { returnTo: PATH, values: ["type", "description"] },
  async ({ ctx, input }) => {
    await createReport(ctx, input);
    revalidatePath(PATH);
    return formSuccess(REPORT_RECEIVED);
  },
);

/** POST /users/block/:userId (a thread's "Block" button can use it too). */
export const blockUserAction: (formData: FormData) => Promise<void> = rowAction.for(
  blockEndpoints.block,
  { returnTo: PATH, onError: () => `${PATH}?notice=block-failed#blocked-heading`, revalidate: () => revalidatePath(PATH) },
  async ({ ctx, params }) => {
    await blockUser(ctx, params.userId);
    return `${PATH}?notice=blocked#blocked-heading`;
  },
);

/** DELETE /users/block/:userId. */
export const unblockUserAction: (formData: FormData) => Promise<void> = rowAction.for(
  blockEndpoints.unblock,
  { returnTo: PATH, onError: () => `${PATH}?notice=unblock-failed#blocked-heading`, revalidate: () => revalidatePath(PATH) },
  async ({ ctx, params }) => {
    await unblockUser(ctx, params.userId);
    return `${PATH}?notice=unblocked#blocked-heading`;
  },
);
