"use server";

import { headers } from "next/headers";
import { z } from "zod";
import { errorState, formError, formSuccess, invalidFields, waitMessage } from "@/components/forms/action-result";
import { formText, type FormState } from "@/components/forms/form-state";
import { clientIp } from "@/lib/http/client-ip";
import { checkRateLimits } from "@/lib/ratelimit";
import { forgotPassword } from "@/lib/services/auth/password";
import { emailSchema } from "@/lib/services/auth/schemas";
import { systemContext } from "@/lib/services/context";

const forgotForm = z.object({ email: z.string().trim().pipe(emailSchema) });

/** The same answer whether or not the address has an account, as POST /auth/forgot-password. */
export async function forgotPasswordAction(previous: FormState, formData: FormData): Promise<FormState> {
  const values = { email: formText(formData, "email") };
  const parsed = forgotForm.safeParse(values);
  if (!parsed.success) return invalidFields(parsed.error, values);

  const limit = await checkRateLimits(["auth", "passwordReset"], { ip: clientIp(await headers()) });
  if (!limit.allowed) return formError(waitMessage(limit.retryAfter), values);

  try {
    const { message } = await forgotPassword(systemContext(), parsed.data);
    return formSuccess(message, values);
  } catch (error) {
    return errorState(error, values);
  }
}
