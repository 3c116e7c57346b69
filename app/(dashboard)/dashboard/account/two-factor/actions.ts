"use server";

import { redirect } from "next/navigation";
import { errorState, formError } from "@/components/forms/action-result";
import { formText, type FormState } from "@/components/forms/form-state";
import { requireUserContext } from "@/lib/auth/page-context";
import { disableTwoFactor, enableTwoFactor, verifyTwoFactor } from "@/lib/services/auth/two-factor";
import { UnauthorizedError } from "@/lib/services/errors";

const PATH = "/dashboard/account/two-factor";

export type SetupState = FormState & { setup?: { qrCodeUrl: string; secret: string } };
export type ConfirmState = FormState & { backupCodes?: string[] };

/** POST /auth/enable-2fa: a new pending secret and its QR code. */
export async function startTwoFactorAction(): Promise<SetupState> {
  const ctx = await requireUserContext(PATH);
  try {
    const setup = await enableTwoFactor(ctx);
    return { status: "success", setup };
  } catch (error) {
    return errorState(error);
  }
}

/**
 * POST /auth/verify-2fa: turns two-factor on and returns the backup codes, shown once. The page is
 * deliberately not revalidated here, so the codes stay on screen until the user moves on.
 */
export async function confirmTwoFactorAction(previous: ConfirmState, formData: FormData): Promise<ConfirmState> {
  const ctx = await requireUserContext(PATH);
  const code = formText(formData, "code").replace(/\s+/g, "");
  if (!/^\d{6}$/.test(code)) return formError("Check the field marked below.", undefined, { code: ["Enter the 6-digit code your app shows."] });
  try {
    const { message, backupCodes } = await verifyTwoFactor(ctx, { code });
    return { status: "success", message, backupCodes };
  } catch (error) {
    if (error instanceof UnauthorizedError) return formError("Check the field marked below.", undefined, { code: [error.message] });
    return errorState(error);
  }
}

/** POST /auth/disable-2fa: needs a current code or a backup code. */
export async function disableTwoFactorAction(previous: FormState, formData: FormData): Promise<FormState> {
  const ctx = await requireUserContext(PATH);
  const code = formText(formData, "code").trim();
  if (code.length < 6 || code.length > 20) return formError("Check the field marked below.", undefined, { code: ["Enter the 6-digit code from your app, or a backup code."] });
  try {
    await disableTwoFactor(ctx, { code });
  } catch (error) {
    if (error instanceof UnauthorizedError) return formError("Check the field marked below.", undefined, { code: [error.message] });
    return errorState(error);
  }
  redirect(`${PATH}?notice=disabled`);
}
