"use server";

import { z } from "zod";
import { formSuccess } from "@/lib/forms/action-result";
import type { FormState } from "@/lib/forms/form-state";
import { action } from "@/lib/forms/action";
import { contactEndpoints } from "@/lib/http/endpoints/contact";
import { NEWSLETTER_REQUESTED, NEWSLETTER_UNSUBSCRIBED, newsletterInput, subscribeToNewsletter, unsubscribeFromNewsletter } from "@/lib/services/contact";

/** The footer's sign-up: POST /contact/newsletter's schema, service and limit. */
export const subscribeNewsletterAction: (previous: FormState, formData: FormData) => Promise<FormState> = action(
  { auth: "system", input: newsletterInput, rateLimit: contactEndpoints.subscribe.rateLimit, values: ["email"] },
  async ({ ctx, input }) => {
    await subscribeToNewsletter(ctx, input);
    return formSuccess(NEWSLETTER_REQUESTED);
  },
);

/** The unsubscribe page's button (a GET never unsubscribes: link scanners follow GETs). */
export const unsubscribeNewsletterAction: (previous: FormState, formData: FormData) => Promise<FormState> = action(
  { auth: "system", input: z.object({ token: z.string().trim().min(1).max(200) }), rateLimit: contactEndpoints.unsubscribe.rateLimit },
  async ({ ctx, input }) => {
    await unsubscribeFromNewsletter(ctx, input.token);
    return formSuccess(NEWSLETTER_UNSUBSCRIBED);
  },
);
