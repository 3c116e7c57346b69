"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { rowAction } from "@/lib/forms/action";
import { reportEndpoints } from "@/lib/http/endpoints/reports";
import { vehicleEndpoints } from "@/lib/http/endpoints/vehicles";
import { errorNotice } from "@/lib/http/page-input";
import type { DomainError } from "@/lib/services/errors";
import { applyReportAction, updateReport } from "@/lib/services/reports";
import { clearStolenFlag, clearStolenInput } from "@/lib/services/vehicles";
import { backToQueue, QUEUE_PATH } from "./queue-path";

const fields = { id: "reportId" } as const;
const notices = errorNotice({ FORBIDDEN: "forbidden", UNPROCESSABLE_ENTITY: "no-subject", CONFLICT: "closed", NOT_FOUND: "missing" });

/** What went wrong, as a notice the queue page explains; an unexpected error goes to the error page. */
function failureNotice(error: DomainError, formData: FormData): string | undefined {
  const notice = notices(error);
  return notice ? backToQueue(formData, notice) : undefined;
}

/** POST /admin/reports/:id/action. */
export const applyReportActionAction: (formData: FormData) => Promise<void> = rowAction.for(
  reportEndpoints.adminAction,
  { fields, returnTo: QUEUE_PATH, onError: failureNotice, revalidate: () => revalidatePath(QUEUE_PATH) },
  async ({ ctx, params, input, formData }) => {
    await applyReportAction(ctx, params.id, input);
    return backToQueue(formData, `done-${input.action}`);
  },
);

/** PATCH /admin/reports/:id. */
export const updateReportStatusAction: (formData: FormData) => Promise<void> = rowAction.for(
  reportEndpoints.adminUpdate,
  { fields, returnTo: QUEUE_PATH, onError: failureNotice, revalidate: () => revalidatePath(QUEUE_PATH) },
  async ({ ctx, params, input, formData }) => {
    await updateReport(ctx, params.id, input);
    return backToQueue(formData, "status-saved");
  },
);

/** POST /admin/tags/:tagId/clear-stolen, from a report about the tag. */
export const clearStolenAction: (formData: FormData) => Promise<void> = rowAction.for(
  vehicleEndpoints.adminClearStolen,
  {
    // The endpoint's body, plus the report the queue returns to (a malformed one names nothing, as before).
    input: clearStolenInput.extend({ reportId: z.uuid() }),
    returnTo: QUEUE_PATH,
    onError: (error, formData) => {
      const notice = errorNotice({ CONFLICT: "not-stolen", NOT_FOUND: "missing" })(error);
      return notice ? backToQueue(formData, notice) : undefined;
    },
    revalidate: () => revalidatePath(QUEUE_PATH),
  },
  async ({ ctx, params, input, formData }) => {
    await clearStolenFlag(ctx, params.tagId, { note: input.note });
    return backToQueue(formData, "stolen-cleared");
  },
);
