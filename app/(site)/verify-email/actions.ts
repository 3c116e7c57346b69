"use server";

import { headers } from "next/headers";
import { errorState, formError, formSuccess, waitMessage } from "@/components/forms/action-result";
import { formText, type FormState } from "@/components/forms/form-state";
import { clientIp } from "@/lib/http/client-ip";
import { checkRateLimits } from "@/lib/ratelimit";
import { confirmEmailFromLink } from "@/lib/services/auth/verification";
import { systemContext } from "@/lib/services/context";
import { ValidationError } from "@/lib/services/errors";

/**
 * Consumes the token on an explicit POST only, so mail scanners that open links cannot use it up. A link
 * opened again after the address was confirmed says so instead of failing.
 */
export async function verifyEmailAction(previous: FormState, formData: FormData): Promise<FormState> {
  const token = formText(formData, "token").trim();
  if (!token || token.length > 200) return formError("This confirmation link is incomplete. Open the link from the e-mail again.");

  const limit = await checkRateLimits(["auth"], { ip: clientIp(await headers()) });
  if (!limit.allowed) return formError(waitMessage(limit.retryAfter));

  try {
    const { message } = await confirmEmailFromLink(systemContext(), { token });
    return formSuccess(message);
  } catch (error) {
    if (error instanceof ValidationError) {
      return formError("This confirmation link is invalid, has expired or was already used. If your address is not confirmed yet, ask for a new link from your dashboard.");
    }
    return errorState(error);
  }
}
