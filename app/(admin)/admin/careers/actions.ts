"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { action, rowAction, whenNotFound } from "@/lib/forms/action";
import type { FormState } from "@/lib/forms/form-state";
import { createPosition, createPositionInput, deletePosition, updatePosition, updatePositionInput } from "@/lib/services/content";
import { positionFormInput, positionFormValues } from "./position-form";

const CAREERS_PATH = "/admin/careers";

function refreshCareers(id?: string) {
  revalidatePath(CAREERS_PATH);
  revalidatePath("/careers");
  if (id) revalidatePath(`/careers/${id}`);
}

/** POST /careers. */
export const createPositionAction: (previous: FormState, formData: FormData) => Promise<FormState> = action(
  { auth: "admin", returnTo: `${CAREERS_PATH}/new`, input: createPositionInput, read: positionFormInput, values: positionFormValues },
  async ({ ctx, input }) => {
    const position = await createPosition(ctx, input);
    refreshCareers(position.id);
    redirect(`${CAREERS_PATH}/${position.id}?notice=created`);
  },
);

/** PATCH /careers/:id with every field of the editor. */
export const updatePositionAction: (previous: FormState, formData: FormData) => Promise<FormState> = action(
  { auth: "admin", returnTo: CAREERS_PATH, params: z.object({ positionId: z.uuid() }), input: updatePositionInput, read: positionFormInput, values: positionFormValues },
  async ({ ctx, params, input }) => {
    const position = await updatePosition(ctx, params.positionId, input);
    refreshCareers(position.id);
    redirect(`${CAREERS_PATH}/${position.id}?notice=saved`);
  },
);

/** DELETE /careers/:id, confirmed on the editor's page; back to the list. */
export const deletePositionAction: (formData: FormData) => Promise<void> = rowAction(
  { auth: "admin", returnTo: CAREERS_PATH, params: z.object({ positionId: z.uuid() }), onError: whenNotFound(`${CAREERS_PATH}?notice=missing`), revalidate: () => refreshCareers() },
  async ({ ctx, params }) => {
    await deletePosition(ctx, params.positionId);
    return `${CAREERS_PATH}?notice=deleted`;
  },
);
