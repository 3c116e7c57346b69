"use server";

import { revalidatePath } from "next/cache";
import type { FormAction } from "@/components/forms/action-form";
import { action } from "@/lib/forms/action";
import { formSuccess } from "@/lib/forms/action-result";
import { lastSeenInput, setLastSeen } from "@/lib/services/finder";
import { tagParams, tagPath } from "../tag-form";

/** The poster's "last seen" lines, set from the poster page while the tag is lost or stolen. Plain action(): no endpoint sets them. */
export const setLastSeenAction: FormAction = action(
  { auth: "user", returnTo: tagPath, params: tagParams, input: lastSeenInput, values: ["lastSeenPlace", "lastSeenWhen"] },
  async ({ ctx, params, input }) => {
    await setLastSeen(ctx, params.tagId, input);
    revalidatePath(`/dashboard/tags/${params.tagId}/poster`);
    return formSuccess("Saved: the poster shows where and when it was last seen.");
  },
);
