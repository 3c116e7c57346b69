"use server";

import { revalidatePath } from "next/cache";
import { formSuccess } from "@/lib/forms/action-result";
import type { FormState } from "@/lib/forms/form-state";
import { action, rowAction, whenNotFound } from "@/lib/forms/action";
import { insuranceEndpoints } from "@/lib/http/endpoints/insurance";
import { deleteInsurance, insuranceInputSchema, saveInsurance } from "@/lib/services/tags";
import { tagPath } from "./tag-form";

/** POST /tags/:id/insurance: creates or replaces the record. */
export const saveInsuranceAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  insuranceEndpoints.saveInsurance,
  { fields: { id: "tagId" }, returnTo: tagPath, values: Object.keys(insuranceInputSchema.shape) },
  async ({ ctx, params, input, values, formData }) => {
    await saveInsurance(ctx, params.id, input);
    revalidatePath(tagPath(formData));
    return formSuccess("The insurance details are saved.", values);
  },
);

/** DELETE /tags/:id/insurance. */
export const deleteInsuranceAction: (formData: FormData) => Promise<void> = rowAction.for(
  insuranceEndpoints.deleteInsurance,
  {
    fields: { id: "tagId" },
    returnTo: tagPath,
    onError: whenNotFound((formData) => `${tagPath(formData)}?notice=insurance-missing#insurance-heading`),
    revalidate: (formData) => revalidatePath(tagPath(formData)),
  },
  async ({ ctx, params, formData }) => {
    await deleteInsurance(ctx, params.id);
    return `${tagPath(formData)}?notice=insurance-deleted#insurance-heading`;
  },
);
