"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { formText } from "@/components/forms/form-state";
import { requireUserContext } from "@/lib/auth/page-context";
import { revokeOtherSessions, revokeSession } from "@/lib/services/auth/sessions";
import { NotFoundError } from "@/lib/services/errors";

const PATH = "/dashboard/account/sessions";

/**
 * Row actions answer with a redirect back to the list (post/redirect/get), which then shows what
 * happened; that also works without JavaScript and leaves no stale row behind.
 */
export async function revokeSessionAction(formData: FormData): Promise<void> {
  const ctx = await requireUserContext(PATH);
  const id = z.uuid().safeParse(formText(formData, "sessionId"));
  let notice = "revoked";
  try {
    if (!id.success) throw new NotFoundError();
    await revokeSession(ctx, id.data);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    notice = "missing";
  }
  redirect(`${PATH}?notice=${notice}`);
}

export async function revokeOtherSessionsAction(): Promise<void> {
  const ctx = await requireUserContext(PATH);
  const { count } = await revokeOtherSessions(ctx);
  redirect(`${PATH}?notice=others-revoked&count=${count}`);
}
