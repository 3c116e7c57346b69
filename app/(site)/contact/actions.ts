"use server";

import { formSuccess } from "@/lib/forms/action-result";
import type { FormState } from "@/lib/forms/form-state";
import { action } from "@/lib/forms/action";
import { contactEndpoints } from "@/lib/http/endpoints/contact";
import { CONTACT_RECEIVED, sendContactMessage } from "@/lib/services/contact";

/** POST /contact from the contact page: the same schema, service and `contactForm` limit (3 an hour per IP). */
export const sendContactAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  contactEndpoints.send,
  { values: ["name", "email", "subject", "message"] },
  async ({ ctx, input }) => {
    await sendContactMessage(ctx, input);
    return formSuccess(CONTACT_RECEIVED);
  },
);
