import { otherMethods, respond, route } from "@/lib/http";
import { accountEndpoints } from "@/lib/http/endpoints";
import { clearSessionCookieHeader } from "@/lib/auth/session-cookie";
import { deleteMe, getMe, updateMe } from "@/lib/services/auth";

export const GET = route(accountEndpoints.me, async ({ ctx }) => getMe(ctx));
export const PATCH = route(accountEndpoints.updateMe, async ({ body, ctx }) => updateMe(ctx, body));
// The account is gone, so the browser's session cookie goes too.
export const DELETE = route(accountEndpoints.deleteMe, async ({ body, ctx }) => respond(await deleteMe(ctx, body), { headers: [["Set-Cookie", clearSessionCookieHeader()]] }));
export const { POST, PUT } = otherMethods(accountEndpoints.me, accountEndpoints.updateMe, accountEndpoints.deleteMe);
export { preflight as OPTIONS } from "@/lib/http";
