"use server";

import { headers } from "next/headers";
import { errorState, formError, formSuccess, waitMessage } from "@/components/forms/action-result";
import type { FormState } from "@/components/forms/form-state";
import { requireUserContext } from "@/lib/auth/page-context";
import { clientIp } from "@/lib/http/client-ip";
import { checkRateLimits } from "@/lib/ratelimit";
import { sendVerification } from "@/lib/services/auth/verification";

/** POST /auth/send-verification from the dashboard notice; the same limit as the API. */
export async function resendVerificationAction(): Promise<FormState> {
  const ctx = await requireUserContext("/dashboard");
  const limit = await checkRateLimits(["auth"], { ip: clientIp(await headers()) });
  if (!limit.allowed) return formError(waitMessage(limit.retryAfter));
  try {
    const { message } = await sendVerification(ctx);
    return formSuccess(message);
  } catch (error) {
    return errorState(error);
  }
}
