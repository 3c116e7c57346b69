"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { formText, type FormState } from "@/lib/forms/form-state";
import { action, rowAction, whenNotFound } from "@/lib/forms/action";
import { createApiKey, createApiKeyInput, revokeApiKey } from "@/lib/services/auth";

const PATH = "/dashboard/account/api-keys";

export type CreateKeyState = FormState & { created?: { name: string; key: string; expiresAt: string | null } };

/** POST /auth/api-keys's name; the form asks for a day (`expiresOn`) instead of an instant. */
const createForm = createApiKeyInput.pick({ name: true }).extend({
  expiresOn: z.union([z.literal(""), z.iso.date("Enter a date, or leave it empty.")]),
});

/** POST /auth/api-keys. An expiry date means the key works until the end of that day (UTC). */
export const createApiKeyAction: (previous: CreateKeyState, formData: FormData) => Promise<CreateKeyState> = action(
  { auth: "user", returnTo: PATH, input: createForm, values: (formData) => ({ name: formText(formData, "name"), expiresOn: formText(formData, "expiresOn").trim() }), fieldMap: { expiresAt: "expiresOn" } },
  async ({ ctx, input }) => {
    const expiresAt = input.expiresOn ? new Date(`${input.expiresOn}T23:59:59.999Z`) : undefined;
    const created = await createApiKey(ctx, { name: input.name, expiresAt });
    revalidatePath(PATH);
    return { status: "success", message: `The key “${created.name}” is ready.`, created: { name: created.name, key: created.key, expiresAt: created.expiresAt } };
  },
);

/** DELETE /auth/api-keys/:id, then back to the list (post/redirect/get). */
export const revokeApiKeyAction: (formData: FormData) => Promise<void> = rowAction(
  { auth: "user", returnTo: PATH, params: z.object({ keyId: z.uuid() }), onError: whenNotFound(`${PATH}?notice=missing`) },
  async ({ ctx, params }) => {
    await revokeApiKey(ctx, params.keyId);
    return `${PATH}?notice=revoked`;
  },
);
