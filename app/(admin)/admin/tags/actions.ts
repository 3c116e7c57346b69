"use server";

import { z } from "zod";
import { errorState, invalidFields } from "@/components/forms/action-result";
import { formText, type FormState } from "@/components/forms/form-state";
import { mintTags, type MintedTag } from "@/lib/services/tags/inventory";
import { tagTypeSchema } from "@/lib/services/tags/records";
import { requireAdminContext } from "../admin-context";

export interface MintState extends FormState {
  minted?: MintedTag[];
}

const mintForm = z.object({
  count: z.string().trim().regex(/^\d+$/, "Enter a whole number from 1 to 1000.").transform(Number).pipe(z.int().min(1, "At least 1.").max(1000, "At most 1000 at a time.")),
  tagType: tagTypeSchema,
});

/** POST /admin/tags/batch: a batch of unowned tags, returned so the page can offer it as CSV. */
export async function mintTagsAction(_previous: MintState, formData: FormData): Promise<MintState> {
  const ctx = await requireAdminContext("/admin/tags");
  const values = { count: formText(formData, "count"), tagType: formText(formData, "tagType") || "GENERAL" };
  const parsed = mintForm.safeParse(values);
  if (!parsed.success) return invalidFields(parsed.error, values);
  try {
    const minted = await mintTags(ctx, parsed.data);
    return { status: "success", message: `${minted.length} ${minted.length === 1 ? "tag was" : "tags were"} minted.`, values, minted };
  } catch (error) {
    return errorState(error, values);
  }
}
