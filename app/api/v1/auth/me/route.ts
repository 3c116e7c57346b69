import { otherMethods, respond, route } from "@/lib/http";
import { authEndpoints } from "@/lib/http/endpoints";
import { clearSessionCookieHeader } from "@/lib/auth/session-cookie";
import { deleteMe, getMe, updateMe } from "@/lib/services/auth";

export const GET = route(authEndpoints.me, async ({ ctx }) => getMe(ctx));
export const PATCH = route(authEndpoints.updateMe, async ({ body, ctx }) => updateMe(ctx, body));
// The account is gone, so the browser's session cookie goes too.
export const DELETE = route(authEndpoints.deleteMe, async ({ body, ctx }) => respond(await deleteMe(ctx, body), { headers: [["Set-Cookie", clearSessionCookieHeader()]] }));
export const { POST, PUT } = otherMethods(authEndpoints.me, authEndpoints.updateMe, authEndpoints.deleteMe);
export { preflight as OPTIONS } from "@/lib/http";
