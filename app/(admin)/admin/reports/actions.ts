"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { rowAction } from "@/lib/forms/action";
import type { DomainError } from "@/lib/services/errors";
import { applyReportAction, reportActionInput, updateReport, updateReportInput } from "@/lib/services/reports";
import { clearStolenFlag, clearStolenInput } from "@/lib/services/vehicles";
import { backToQueue, QUEUE_PATH } from "./queue-path";

const reportParams = z.object({ reportId: z.uuid() });

/** What went wrong, as a notice the queue page explains; an unexpected error goes to the error page. */
function failureNotice(error: DomainError, formData: FormData): string | undefined {
  const notice = { FORBIDDEN: "forbidden", UNPROCESSABLE_ENTITY: "no-subject", CONFLICT: "closed", NOT_FOUND: "missing" }[error.code as string];
  return notice ? backToQueue(formData, notice) : undefined;
}

/** POST /admin/reports/:id/action. */
export const applyReportActionAction: (formData: FormData) => Promise<void> = rowAction(
  { auth: "admin", returnTo: QUEUE_PATH, params: reportParams, input: reportActionInput, onError: failureNotice, revalidate: () => revalidatePath(QUEUE_PATH) },
  async ({ ctx, params, input, formData }) => {
    await applyReportAction(ctx, params.reportId, input);
    return backToQueue(formData, `done-${input.action}`);
  },
);

/** PATCH /admin/reports/:id. */
export const updateReportStatusAction: (formData: FormData) => Promise<void> = rowAction(
  { auth: "admin", returnTo: QUEUE_PATH, params: reportParams, input: updateReportInput, onError: failureNotice, revalidate: () => revalidatePath(QUEUE_PATH) },
  async ({ ctx, params, input, formData }) => {
    await updateReport(ctx, params.reportId, input);
    return backToQueue(formData, "status-saved");
  },
);

/** POST /admin/tags/:tagId/clear-stolen, from a report about the tag. */
export const clearStolenAction: (formData: FormData) => Promise<void> = rowAction(
  {
    auth: "admin",
    returnTo: QUEUE_PATH,
    params: reportParams.extend({ tagId: z.uuid() }),
    input: clearStolenInput,
    onError: (error, formData) => ({ CONFLICT: backToQueue(formData, "not-stolen"), NOT_FOUND: backToQueue(formData, "missing") })[error.code as string],
    revalidate: () => revalidatePath(QUEUE_PATH),
  },
  async ({ ctx, params, input, formData }) => {
    await clearStolenFlag(ctx, params.tagId, input);
    return backToQueue(formData, "stolen-cleared");
  },
);
