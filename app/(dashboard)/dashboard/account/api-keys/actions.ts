"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { formText, type FormState } from "@/lib/forms/form-state";
import { action, rowAction, whenNotFound } from "@/lib/forms/action";
import { apiKeyEndpoints } from "@/lib/http/endpoints/api-keys";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { endOfLocalDay } from "@/lib/i18n/time-zones";
import { createApiKey, createApiKeyInput, revokeApiKey } from "@/lib/services/auth";

const PATH = "/dashboard/account/api-keys";

export type CreateKeyState = FormState & { created?: { name: string; key: string; expiresAt: string | null } };

/** POST /auth/api-keys's name; the form asks for a day (`expiresOn`) instead of an instant. */
const createForm = createApiKeyInput.pick({ name: true }).extend({
  expiresOn: z.union([z.literal(""), z.iso.date("Enter a date, or leave it empty.")]),
});

/**
 * POST /auth/api-keys. An expiry date means the key works until the end of that day in the owner's time
 * zone (the one the page shows times in); the API itself takes the instant, `expiresAt`.
 */
export const createApiKeyAction: (previous: CreateKeyState, formData: FormData) => Promise<CreateKeyState> = action.for(
  apiKeyEndpoints.createApiKey,
  { returnTo: PATH, input: createForm, values: (formData) => ({ name: formText(formData, "name"), expiresOn: formText(formData, "expiresOn").trim() }), fieldMap: { expiresAt: "expiresOn" } },
  async ({ ctx, input }) => {
    const expiresAt = input.expiresOn ? endOfLocalDay(input.expiresOn, await viewerTimeZone()) : undefined;
    const created = await createApiKey(ctx, { name: input.name, expiresAt });
    revalidatePath(PATH);
    return { status: "success", message: `The key “${created.name}” is ready.`, created: { name: created.name, key: created.key, expiresAt: created.expiresAt } };
  },
);

/** DELETE /auth/api-keys/:id, then back to the list (post/redirect/get). */
export const revokeApiKeyAction: (formData: FormData) => Promise<void> = rowAction.for(
  apiKeyEndpoints.revokeApiKey,
  { fields: { id: "keyId" }, returnTo: PATH, onError: whenNotFound(`${PATH}?notice=missing`) },
  async ({ ctx, params }) => {
    await revokeApiKey(ctx, params.id);
    return `${PATH}?notice=revoked`;
  },
);
