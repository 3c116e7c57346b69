"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { errorState, invalidFields } from "@/components/forms/action-result";
import { formText, type FormState } from "@/components/forms/form-state";
import { requireUserContext } from "@/lib/auth/page-context";
import { createApiKey, revokeApiKey } from "@/lib/services/auth/api-keys";
import { NotFoundError } from "@/lib/services/errors";

const PATH = "/dashboard/account/api-keys";

export type CreateKeyState = FormState & { created?: { name: string; key: string; expiresAt: string | null } };

const createForm = z.object({
  name: z.string().trim().min(1, "Give the key a name.").max(100, "At most 100 characters."),
  expiresOn: z.union([z.literal(""), z.iso.date("Enter a date, or leave it empty.")]),
});

/** POST /auth/api-keys. An expiry date means the key works until the end of that day (UTC). */
export async function createApiKeyAction(previous: CreateKeyState, formData: FormData): Promise<CreateKeyState> {
  const ctx = await requireUserContext(PATH);
  const values = { name: formText(formData, "name"), expiresOn: formText(formData, "expiresOn").trim() };
  const parsed = createForm.safeParse(values);
  if (!parsed.success) return invalidFields(parsed.error, values);
  const expiresAt = parsed.data.expiresOn ? new Date(`${parsed.data.expiresOn}T23:59:59.999Z`) : undefined;
  try {
    const created = await createApiKey(ctx, { name: parsed.data.name, expiresAt });
    revalidatePath(PATH);
    return { status: "success", message: `The key “${created.name}” is ready.`, created: { name: created.name, key: created.key, expiresAt: created.expiresAt } };
  } catch (error) {
    return errorState(error, values, { expiresAt: "expiresOn" });
  }
}

/** DELETE /auth/api-keys/:id, then back to the list (post/redirect/get). */
export async function revokeApiKeyAction(formData: FormData): Promise<void> {
  const ctx = await requireUserContext(PATH);
  const id = z.uuid().safeParse(formText(formData, "keyId"));
  let notice = "revoked";
  try {
    if (!id.success) throw new NotFoundError();
    await revokeApiKey(ctx, id.data);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    notice = "missing";
  }
  redirect(`${PATH}?notice=${notice}`);
}
