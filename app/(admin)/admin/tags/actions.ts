"use server";

import { formText, type FormState } from "@/lib/forms/form-state";
import { action } from "@/lib/forms/action";
import { tagEndpoints } from "@/lib/http/endpoints/tags";
import { mintTags, type MintedTag } from "@/lib/services/tags";

export interface MintState extends FormState {
  minted?: MintedTag[];
}

/** POST /admin/tags/batch: a batch of unowned tags, returned so the page can offer it as CSV. */
export const mintTagsAction: (previous: MintState, formData: FormData) => Promise<MintState> = action.for(
  tagEndpoints.mint,
  {
    returnTo: "/admin/tags",
    values: (formData) => ({ count: formText(formData, "count"), tagType: formText(formData, "tagType") || "GENERAL" }),
  },
  async ({ ctx, input, values }) => {
    const minted = await mintTags(ctx, { count: input.count, tagType: input.tagType ?? "GENERAL" });
    return { status: "success", message: `${minted.length} ${minted.length === 1 ? "tag was" : "tags were"} minted.`, values, minted };
  },
);
