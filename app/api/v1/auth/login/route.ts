import { respond, route } from "@/lib/http";
import { clientInfo } from "@/lib/http/client-info";
import { authEndpoints } from "@/lib/http/endpoints";
import { signInCookieHeaders } from "@/lib/http/sign-in-cookie";
import { login } from "@/lib/services/auth";

export const POST = route(authEndpoints.login, async ({ req, ip, body, ctx }) => {
  const { user, session, tokens } = await login(ctx, body, { kind: "API", client: clientInfo(req, ip) });
  const { id, email, firstName, lastName, role, twoFactorEnabled } = user;
  return respond({ user: { id, email, firstName, lastName, role, twoFactorEnabled }, ...tokens! }, { headers: await signInCookieHeaders(req, user, session.id) });
});
export { preflight as OPTIONS } from "@/lib/http";
