"use server";

import { signOut } from "@/lib/http/next-auth";

/** Ends this browser's session (the session row is revoked by next-auth's signOut event). */
export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/login?notice=signed-out" });
}
