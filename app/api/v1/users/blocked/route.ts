import { otherMethods, route } from "@/lib/http";
import { blockEndpoints } from "@/lib/http/endpoints";
import { listBlockedUsers } from "@/lib/services/blocks";

export const GET = route(blockEndpoints.list, async ({ ctx }) => listBlockedUsers(ctx));
export const { POST, PUT, PATCH, DELETE } = otherMethods(blockEndpoints.list);
export { preflight as OPTIONS } from "@/lib/http";
