"use server";

import { rowAction } from "@/lib/forms/action";
import { signOut } from "@/lib/http/next-auth";

const SIGNED_OUT = "/login?notice=signed-out";

/**
 * Ends this browser's session (the session row is revoked by next-auth's signOut event). Plain rowAction(),
 * not rowAction.for(authEndpoints.logout): that endpoint needs a signed-in caller, while a press here after
 * the session already ended must still land on the signed-out page, not on sign-in.
 */
export const signOutAction = rowAction({ auth: "system", returnTo: SIGNED_OUT }, async () => {
  // signOut clears the cookie and redirects itself; the wrapper lets that redirect through.
  await signOut({ redirectTo: SIGNED_OUT });
  return SIGNED_OUT;
});
