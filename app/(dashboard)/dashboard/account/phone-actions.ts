"use server";

import { revalidatePath } from "next/cache";
import { formSuccess, waitMessage } from "@/lib/forms/action-result";
import type { FormState } from "@/lib/forms/form-state";
import { action } from "@/lib/forms/action";
import { relayEndpoints } from "@/lib/http/endpoints/relay";
import { requestPhoneCode, verifyPhoneCode } from "@/lib/services/relay";

type FormAction = (previous: FormState, formData: FormData) => Promise<FormState>;

/** The account page, where the phone section is; its code step appears once a code is pending. */
const ACCOUNT = "/dashboard/account";

/** Too many codes asked for: the API's 429 (phoneCodeSends per account; phoneCodeSendsByNumber, counted by the service, says the same). */
const tooManyCodes = (retryAfter: number) => waitMessage(retryAfter).replace("Too many attempts.", "Too many codes asked for.");

/**
 * POST /auth/phone from the account page: texts a 6-digit code (docs/relay.md). Same contract, so the same
 * body schema and limits as the API; an invalid number is answered beside the field.
 */
export const requestPhoneCodeAction: FormAction = action.for(
  relayEndpoints.requestPhoneCode,
  { returnTo: ACCOUNT, values: ["phone", "country"], rateLimitedMessage: tooManyCodes },
  async ({ ctx, input }) => {
    const sent = await requestPhoneCode(ctx, input);
    revalidatePath(ACCOUNT);
    return formSuccess(`We texted a 6-digit code to your number ending in ${sent.lastDigits}. Enter it below within 10 minutes.`);
  },
);

/** POST /auth/phone/verify from the account page: a wrong, expired or used-up code is answered beside the field. */
export const verifyPhoneCodeAction: FormAction = action.for(
  relayEndpoints.verifyPhoneCode,
  { returnTo: ACCOUNT, rateLimitedMessage: (retryAfter) => waitMessage(retryAfter).replace("Too many attempts.", "Too many codes tried.") },
  async ({ ctx, input }) => {
    const verified = await verifyPhoneCode(ctx, input);
    revalidatePath(ACCOUNT);
    revalidatePath("/dashboard/tags", "layout");
    return formSuccess(`Your number ending in ${verified.lastDigits} is verified. You can now let finders call or text you through the relay, tag by tag.`);
  },
);
