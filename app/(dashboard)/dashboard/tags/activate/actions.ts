"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { formError, formSuccess } from "@/lib/forms/action-result";
import { formText, type FormState } from "@/lib/forms/form-state";
import { action } from "@/lib/forms/action";
import { tagEndpoints } from "@/lib/http/endpoints/tags";
import { activateTag, activateTagInput, bulkActivateTags, tagCodeInput } from "@/lib/services/tags";

const PATH = "/dashboard/tags/activate";

/** POST /tags/activate's body; the form also checks the code's shape before looking it up. */
const activateForm = activateTagInput.extend({
  code: tagCodeInput.refine((code) => /^[0-9A-Za-z]{5}-?[0-9A-Za-z]{5}$/.test(code.replace(/\s+/g, "")), "A tag code is 10 letters and digits, like 7K3QX-M9P2T."),
});

const tagTypeOf = (formData: FormData) => formText(formData, "tagType") || "GENERAL";

/** POST /tags/activate, then on to the new tag's page to fill in its profile. */
export const activateTagAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  tagEndpoints.activate,
  {
    returnTo: PATH,
    input: activateForm,
    values: (formData) => ({ code: formText(formData, "code"), tagType: tagTypeOf(formData), itemName: formText(formData, "itemName") }),
  },
  async ({ ctx, input }) => {
    const tag = await activateTag(ctx, { ...input, code: input.code.replace(/\s+/g, "") });
    revalidatePath("/dashboard/tags");
    redirect(`/dashboard/tags/${tag.id}?notice=activated`);
  },
);

/** POST /tags/bulk-activate: one code per line (or separated by commas); each is reported on its own. */
export const bulkActivateAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  tagEndpoints.bulkActivate,
  {
    returnTo: PATH,
    read: (formData) => ({
      codes: [...new Set(formText(formData, "codes").split(/[\s,;]+/).map((code) => code.trim()).filter(Boolean))],
      tagType: tagTypeOf(formData),
    }),
    values: (formData) => ({ codes: formText(formData, "codes"), tagType: tagTypeOf(formData) }),
  },
  async ({ ctx, input, values }) => {
    const result = await bulkActivateTags(ctx, input);
    revalidatePath("/dashboard/tags");
    const tagType = values?.tagType ?? "GENERAL";
    const activated = `${result.activated.length} ${result.activated.length === 1 ? "tag was" : "tags were"} activated.`;
    if (result.failed.length === 0) return formSuccess(`${activated} Open each one from your tag list to write its profile.`, { codes: "", tagType });
    return formError(
      `${activated} ${result.failed.length === 1 ? "One code could not be activated; it is" : `${result.failed.length} codes could not be activated; they are`} left in the box.`,
      { codes: result.failed.map((failure) => failure.code).join("\n"), tagType },
      { codes: result.failed.map((failure) => `${failure.code}: ${failure.error.message}`) },
    );
  },
);
