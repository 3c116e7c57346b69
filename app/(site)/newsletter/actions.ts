"use server";

import { formSuccess } from "@/lib/forms/action-result";
import type { FormState } from "@/lib/forms/form-state";
import { action } from "@/lib/forms/action";
import { contactEndpoints } from "@/lib/http/endpoints/contact";
import { NEWSLETTER_REQUESTED, NEWSLETTER_UNSUBSCRIBED, subscribeToNewsletter, unsubscribeFromNewsletter } from "@/lib/services/contact";

/** The footer's sign-up: POST /contact/newsletter's schema, service and limit. */
export const subscribeNewsletterAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  contactEndpoints.subscribe,
  { auth: "system", values: ["email"] },
  async ({ ctx, input }) => {
    await subscribeToNewsletter(ctx, input);
    return formSuccess(NEWSLETTER_REQUESTED);
  },
);

/** The unsubscribe page's button (a GET never unsubscribes: link scanners follow GETs); the endpoint's token is in its query. */
export const unsubscribeNewsletterAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  contactEndpoints.unsubscribe,
  { auth: "system", input: contactEndpoints.unsubscribe.query },
  async ({ ctx, input }) => {
    await unsubscribeFromNewsletter(ctx, input.token);
    return formSuccess(NEWSLETTER_UNSUBSCRIBED);
  },
);
