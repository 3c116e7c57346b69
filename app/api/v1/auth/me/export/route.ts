import { otherMethods, route } from "@/lib/http";
import { accountEndpoints } from "@/lib/http/endpoints";
import { exportMe } from "@/lib/services/account";

export const GET = route(accountEndpoints.exportMe, async ({ ctx }) => exportMe(ctx));
export const { POST, PUT, PATCH, DELETE } = otherMethods(accountEndpoints.exportMe);
export { preflight as OPTIONS } from "@/lib/http";
