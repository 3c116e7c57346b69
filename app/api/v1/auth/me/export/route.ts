import { otherMethods, route } from "@/lib/http";
import { authEndpoints } from "@/lib/http/endpoints";
import { exportMe } from "@/lib/services/auth";

export const GET = route(authEndpoints.exportMe, async ({ ctx }) => exportMe(ctx));
export const { POST, PUT, PATCH, DELETE } = otherMethods(authEndpoints.exportMe);
export { preflight as OPTIONS } from "@/lib/http";
