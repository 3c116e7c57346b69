"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { errorState, formError, formSuccess, invalidFields } from "@/components/forms/action-result";
import { formText, type FormState } from "@/components/forms/form-state";
import { requireUserContext } from "@/lib/auth/page-context";
import { activateTag, bulkActivateTags } from "@/lib/services/tags/inventory";
import { tagTypeSchema } from "@/lib/services/tags/records";

const PATH = "/dashboard/tags/activate";

const codeSchema = z
  .string()
  .trim()
  .min(1, "Enter the code printed on the tag.")
  .refine((code) => /^[0-9A-Za-z]{5}-?[0-9A-Za-z]{5}$/.test(code.replace(/\s+/g, "")), "A tag code is 10 letters and digits, like 7K3QX-M9P2T.");

const activateForm = z.object({
  code: codeSchema,
  tagType: tagTypeSchema,
  itemName: z.string().trim().max(100, "At most 100 characters."),
});

/** POST /tags/activate, then on to the new tag's page to fill in its profile. */
export async function activateTagAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const ctx = await requireUserContext(PATH);
  const values = { code: formText(formData, "code"), tagType: formText(formData, "tagType") || "GENERAL", itemName: formText(formData, "itemName") };
  const parsed = activateForm.safeParse(values);
  if (!parsed.success) return invalidFields(parsed.error, values);
  let id: string;
  try {
    const tag = await activateTag(ctx, { code: parsed.data.code.replace(/\s+/g, ""), tagType: parsed.data.tagType, itemName: parsed.data.itemName || undefined });
    id = tag.id;
  } catch (error) {
    return errorState(error, values);
  }
  revalidatePath("/dashboard/tags");
  redirect(`/dashboard/tags/${id}?notice=activated`);
}

const bulkForm = z.object({
  codes: z
    .array(z.string())
    .min(1, "Enter at least one code.")
    .max(100, "At most 100 codes at a time."),
  tagType: tagTypeSchema,
});

/** POST /tags/bulk-activate: one code per line (or separated by commas); each is reported on its own. */
export async function bulkActivateAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const ctx = await requireUserContext(PATH);
  const values = { codes: formText(formData, "codes"), tagType: formText(formData, "tagType") || "GENERAL" };
  const codes = [...new Set(values.codes.split(/[\s,;]+/).map((code) => code.trim()).filter(Boolean))];
  const parsed = bulkForm.safeParse({ codes, tagType: values.tagType });
  if (!parsed.success) return invalidFields(parsed.error, values);
  try {
    const result = await bulkActivateTags(ctx, parsed.data);
    revalidatePath("/dashboard/tags");
    const activated = `${result.activated.length} ${result.activated.length === 1 ? "tag was" : "tags were"} activated.`;
    if (result.failed.length === 0) return formSuccess(`${activated} Open each one from your tag list to write its profile.`, { codes: "", tagType: values.tagType });
    return formError(
      `${activated} ${result.failed.length === 1 ? "One code could not be activated; it is" : `${result.failed.length} codes could not be activated; they are`} left in the box.`,
      { codes: result.failed.map((failure) => failure.code).join("\n"), tagType: values.tagType },
      { codes: result.failed.map((failure) => `${failure.code}: ${failure.error.message}`) },
    );
  } catch (error) {
    return errorState(error, values);
  }
}
