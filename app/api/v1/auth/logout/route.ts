import { respond, route } from "@/lib/http";
import { authEndpoints } from "@/lib/http/endpoints";
import { clearSessionCookieHeader } from "@/lib/auth/session-cookie";
import { logout } from "@/lib/services/auth";

export const POST = route(authEndpoints.logout, async ({ ctx }) => respond(await logout(ctx), { headers: [["Set-Cookie", clearSessionCookieHeader()]] }));
export { preflight as OPTIONS } from "@/lib/http";
