"use server";

import { formError, formSuccess } from "@/lib/forms/action-result";
import type { FormState } from "@/lib/forms/form-state";
import { action } from "@/lib/forms/action";
import { confirmEmailFromLink } from "@/lib/services/auth";
import { ValidationError } from "@/lib/services/errors";
import { authEndpoints } from "@/lib/http/endpoints";

/**
 * Consumes the token on an explicit POST only, so mail scanners that open links cannot use it up. A link
 * opened again after the address was confirmed says so instead of failing.
 */
export const verifyEmailAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  authEndpoints.verifyEmail,
  {
    auth: "system",
    onInvalid: () => formError("This confirmation link is incomplete. Open the link from the e-mail again."),
    onError: (error) =>
      error instanceof ValidationError
        ? formError("This confirmation link is invalid, has expired or was already used. If your address is not confirmed yet, ask for a new link from your dashboard.")
        : undefined,
  },
  async ({ ctx, input }) => {
    const { message } = await confirmEmailFromLink(ctx, input);
    return formSuccess(message);
  },
);
