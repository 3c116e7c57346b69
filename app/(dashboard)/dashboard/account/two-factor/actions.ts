"use server";

import { redirect } from "next/navigation";
import { formError } from "@/lib/forms/action-result";
import { formText, type FormState } from "@/lib/forms/form-state";
import { action } from "@/lib/forms/action";
import { authEndpoints } from "@/lib/http/endpoints/auth";
import { disableTwoFactor, enableTwoFactor, verifyTwoFactor } from "@/lib/services/auth";
import { UnauthorizedError, type DomainError } from "@/lib/services/errors";

const PATH = "/dashboard/account/two-factor";

export type SetupState = FormState & { setup?: { qrCodeUrl: string; secret: string; otpauthUrl: string } };
export type ConfirmState = FormState & { backupCodes?: string[] };

const CHECK_FIELD = "Check the field marked below.";
/** A wrong code belongs under the code field. */
const wrongCode = (error: DomainError) => (error instanceof UnauthorizedError ? formError(CHECK_FIELD, undefined, { code: [error.message] }) : undefined);

const start = action.for(authEndpoints.enableTwoFactor, { returnTo: PATH }, async ({ ctx }): Promise<SetupState> => {
  const setup = await enableTwoFactor(ctx);
  return { status: "success", setup };
});

/** POST /auth/enable-2fa: a new pending secret and its QR code. */
export async function startTwoFactorAction(): Promise<SetupState> {
  return start({ status: "idle" }, new FormData());
}

/**
 * POST /auth/verify-2fa: turns two-factor on and returns the backup codes, shown once. The page is
 * deliberately not revalidated here, so the codes stay on screen until the user moves on. Spaces
 * inside the code (as apps show it) are dropped.
 */
export const confirmTwoFactorAction: (previous: ConfirmState, formData: FormData) => Promise<ConfirmState> = action.for(
  authEndpoints.verifyTwoFactor,
  {
    returnTo: PATH,
    read: (formData) => ({ code: formText(formData, "code").replace(/\s+/g, "") }),
    invalidMessage: CHECK_FIELD,
    onError: wrongCode,
  },
  async ({ ctx, input }) => {
    const { message, backupCodes } = await verifyTwoFactor(ctx, input);
    return { status: "success", message, backupCodes };
  },
);

/** POST /auth/disable-2fa: needs a current code or a backup code. */
export const disableTwoFactorAction: (previous: FormState, formData: FormData) => Promise<FormState> = action.for(
  authEndpoints.disableTwoFactor,
  { returnTo: PATH, invalidMessage: CHECK_FIELD, onError: wrongCode },
  async ({ ctx, input }) => {
    await disableTwoFactor(ctx, input);
    redirect(`${PATH}?notice=disabled`);
  },
);
