import { encodeSessionCookie, sessionCookieHeader } from "@/lib/auth/session-cookie";
import { appOrigin } from "@/lib/env";

/**
 * Whether a sign-in answer may set the browser session cookie: only for a request from our own pages
 * (Origin equal to APP_URL's) or one no browser page made (no Origin: curl, server-to-server). A
 * foreign page that gets a browser to post its own credentials (login CSRF) would otherwise sign the
 * victim into the attacker's account; third-party callers still get their tokens in the body.
 */
export function maySetSessionCookie(req: Request): boolean {
  const fetchSite = req.headers.get("sec-fetch-site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") return false;
  const origin = req.headers.get("origin");
  return origin === null || origin === appOrigin();
}

/** The Set-Cookie header of a new sign-in, or none when the request may not receive it. */
export async function signInCookieHeaders(
  req: Request,
  user: { id: string; email: string; firstName: string; lastName: string },
  sessionId: string,
): Promise<[string, string][]> {
  if (!maySetSessionCookie(req)) return [];
  const cookie = await encodeSessionCookie({ userId: user.id, sessionId, email: user.email, name: `${user.firstName} ${user.lastName}` });
  return [["Set-Cookie", sessionCookieHeader(cookie)]];
}
