import { respond, route } from "@/lib/http";
import { clientInfo } from "@/lib/http/client-info";
import { authEndpoints } from "@/lib/http/endpoints";
import { signInCookieHeaders } from "@/lib/http/sign-in-cookie";
import { register } from "@/lib/services/auth";

export const POST = route(authEndpoints.register, async ({ req, ip, body, ctx }) => {
  const { user, session, tokens } = await register(ctx, body, clientInfo(req, ip));
  const { id, email, firstName, lastName, emailVerified } = user;
  return respond({ user: { id, email, firstName, lastName, emailVerified }, ...tokens }, { status: 201, headers: await signInCookieHeaders(req, user, session.id) });
});
export { preflight as OPTIONS } from "@/lib/http";
