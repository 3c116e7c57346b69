import { otherMethods, route } from "@/lib/http";
import { organisationEndpoints } from "@/lib/http/endpoints";
import { getFoundReport } from "@/lib/services/organisations";

export const GET = route(organisationEndpoints.getFound, async ({ params, ctx }) => getFoundReport(ctx, params.id));
export const { POST, PUT, PATCH, DELETE } = otherMethods(organisationEndpoints.getFound);
export { preflight as OPTIONS } from "@/lib/http";
