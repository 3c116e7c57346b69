import { otherMethods, route } from "@/lib/http";
import { accountEndpoints } from "@/lib/http/endpoints";
import { changePassword } from "@/lib/services/auth";

export const POST = route(accountEndpoints.changePassword, async ({ body, ctx }) => changePassword(ctx, body));
export const { GET, PUT, PATCH, DELETE } = otherMethods(accountEndpoints.changePassword);
export { preflight as OPTIONS } from "@/lib/http";
