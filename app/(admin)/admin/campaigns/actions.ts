"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { FormState } from "@/lib/forms/form-state";
import { action } from "@/lib/forms/action";
import { contactEndpoints } from "@/lib/http/endpoints/contact";
import { createCampaign, createCampaignInput } from "@/lib/services/campaigns";

const PATH = "/admin/campaigns";

/** The composer's fields: POST /admin/campaigns's schema plus the "send now" confirmation box. */
const composeInput = createCampaignInput.extend({
  confirmSend: z.literal(true, "Tick the box to confirm sending to every confirmed subscriber."),
});

/** POST /admin/campaigns from the admin page; on success back to the list, where its progress shows. */
export const createCampaignAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  contactEndpoints.adminCreateCampaign,
  { returnTo: PATH, input: composeInput, values: ["subject", "content"] },
  async ({ ctx, input }) => {
    const campaign = await createCampaign(ctx, { subject: input.subject, content: input.content });
    revalidatePath(PATH);
    redirect(`${PATH}?notice=sending&campaign=${campaign.id}#campaigns-heading`);
  },
);
