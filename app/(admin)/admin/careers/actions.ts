"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { action, rowAction, whenNotFound } from "@/lib/forms/action";
import { careerEndpoints } from "@/lib/http/endpoints/content";
import type { FormState } from "@/lib/forms/form-state";
import { createPosition, deletePosition, updatePosition } from "@/lib/services/content";
import { positionFormInput, positionFormValues } from "./position-form";

const CAREERS_PATH = "/admin/careers";

function refreshCareers(id?: string) {
  revalidatePath(CAREERS_PATH);
  revalidatePath("/careers");
  if (id) revalidatePath(`/careers/${id}`);
}

/** POST /careers. */
export const createPositionAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  careerEndpoints.create,
  { returnTo: `${CAREERS_PATH}/new`, read: positionFormInput, values: positionFormValues },
  async ({ ctx, input }) => {
    const position = await createPosition(ctx, input);
    refreshCareers(position.id);
    redirect(`${CAREERS_PATH}/${position.id}?notice=created`);
  },
);

/** PATCH /careers/:id with every field of the editor. */
export const updatePositionAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  careerEndpoints.update,
  { fields: { id: "positionId" }, returnTo: CAREERS_PATH, read: positionFormInput, values: positionFormValues },
  async ({ ctx, params, input }) => {
    const position = await updatePosition(ctx, params.id, input);
    refreshCareers(position.id);
    redirect(`${CAREERS_PATH}/${position.id}?notice=saved`);
  },
);

/** DELETE /careers/:id, confirmed on the editor's page; back to the list. */
export const deletePositionAction: (formData: FormData) => Promise<void> = rowAction.for(
  careerEndpoints.remove,
  { fields: { id: "positionId" }, returnTo: CAREERS_PATH, onError: whenNotFound(`${CAREERS_PATH}?notice=missing`), revalidate: () => refreshCareers() },
  async ({ ctx, params }) => {
    await deletePosition(ctx, params.id);
    return `${CAREERS_PATH}?notice=deleted`;
  },
);
