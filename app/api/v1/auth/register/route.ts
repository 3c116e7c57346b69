import { respond, route } from "@/lib/http";
import { clientInfo } from "@/lib/http/client-info";
import { authEndpoints } from "@/lib/http/endpoints";
import { encodeSessionCookie, sessionCookieHeader } from "@/lib/auth/session-cookie";
import { register } from "@/lib/services/auth/register";

export const POST = route(authEndpoints.register, async ({ req, ip, body, ctx }) => {
  const { user, session, tokens } = await register(ctx, body, clientInfo(req, ip));
  const cookie = await encodeSessionCookie({ userId: user.id, sessionId: session.id, email: user.email, name: `${user.firstName} ${user.lastName}` });
  const { id, email, firstName, lastName, emailVerified } = user;
  return respond({ user: { id, email, firstName, lastName, emailVerified }, ...tokens }, { status: 201, headers: [["Set-Cookie", sessionCookieHeader(cookie)]] });
});
export { preflight as OPTIONS } from "@/lib/http";
