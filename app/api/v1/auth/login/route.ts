import { respond, route } from "@/lib/http";
import { clientInfo } from "@/lib/http/client-info";
import { authEndpoints } from "@/lib/http/endpoints";
import { encodeSessionCookie, sessionCookieHeader } from "@/lib/auth/session-cookie";
import { login } from "@/lib/services/auth/login";

export const POST = route(authEndpoints.login, async ({ req, ip, body, ctx }) => {
  const { user, session, tokens } = await login(ctx, body, { kind: "API", client: clientInfo(req, ip) });
  const cookie = await encodeSessionCookie({ userId: user.id, sessionId: session.id, email: user.email, name: `${user.firstName} ${user.lastName}` });
  const { id, email, firstName, lastName, role, twoFactorEnabled } = user;
  return respond({ user: { id, email, firstName, lastName, role, twoFactorEnabled }, ...tokens! }, { headers: [["Set-Cookie", sessionCookieHeader(cookie)]] });
});
export { preflight as OPTIONS } from "@/lib/http";
