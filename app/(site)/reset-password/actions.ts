"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { errorState, formError, invalidFields, waitMessage } from "@/components/forms/action-result";
import { formText, type FormState } from "@/components/forms/form-state";
import { clientIp } from "@/lib/http/client-ip";
import { checkRateLimits } from "@/lib/ratelimit";
import { resetPassword } from "@/lib/services/auth/password";
import { passwordSchema } from "@/lib/services/auth/schemas";
import { systemContext } from "@/lib/services/context";
import { ValidationError } from "@/lib/services/errors";

const resetForm = z
  .object({ token: z.string().trim().min(1).max(200), password: passwordSchema, confirmPassword: z.string() })
  .refine((form) => form.password === form.confirmPassword, { path: ["confirmPassword"], message: "The two passwords do not match." });

export async function resetPasswordAction(previous: FormState, formData: FormData): Promise<FormState> {
  const raw = { token: formText(formData, "token"), password: formText(formData, "password"), confirmPassword: formText(formData, "confirmPassword") };
  const parsed = resetForm.safeParse(raw);
  if (!parsed.success) {
    if (parsed.error.issues.some((issue) => issue.path[0] === "token")) return formError("This reset link is incomplete. Open the link from the e-mail again.");
    return invalidFields(parsed.error);
  }

  const limit = await checkRateLimits(["auth"], { ip: clientIp(await headers()) });
  if (!limit.allowed) return formError(waitMessage(limit.retryAfter));

  try {
    await resetPassword(systemContext(), { token: parsed.data.token, password: parsed.data.password });
  } catch (error) {
    if (error instanceof ValidationError && (error.details as { fieldErrors?: Record<string, unknown> }).fieldErrors?.token) {
      return formError("This reset link is invalid, has expired or was already used. Ask for a new one below.");
    }
    return errorState(error);
  }
  redirect("/login?notice=password-reset");
}
