"use server";

import { rowAction, whenNotFound } from "@/lib/forms/action";
import { sessionEndpoints } from "@/lib/http/endpoints/sessions";
import { revokeOtherSessions, revokeSession } from "@/lib/services/auth";

const PATH = "/dashboard/account/sessions";

/**
 * Row actions answer with a redirect back to the list (post/redirect/get), which then shows what
 * happened; that also works without JavaScript and leaves no stale row behind.
 */
export const revokeSessionAction: (formData: FormData) => Promise<void> = rowAction.for(
  sessionEndpoints.revokeSession,
  { fields: { id: "sessionId" }, returnTo: PATH, onError: whenNotFound(`${PATH}?notice=missing`) },
  async ({ ctx, params }) => {
    await revokeSession(ctx, params.id);
    return `${PATH}?notice=revoked`;
  },
);

export const revokeOtherSessionsAction: (formData: FormData) => Promise<void> = rowAction.for(sessionEndpoints.revokeOtherSessions, { returnTo: PATH }, async ({ ctx }) => {
  const { count } = await revokeOtherSessions(ctx);
  return `${PATH}?notice=others-revoked&count=${count}`;
});
