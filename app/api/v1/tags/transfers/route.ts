import { otherMethods, route } from "@/lib/http";
import { listTransfers } from "@/lib/services/tags";
import { transferEndpoints } from "@/lib/http/endpoints";

export const GET = route(transferEndpoints.listTransfers, async ({ ctx }) => listTransfers(ctx));
export const { POST, PUT, PATCH, DELETE } = otherMethods(transferEndpoints.listTransfers);
export { preflight as OPTIONS } from "@/lib/http";
