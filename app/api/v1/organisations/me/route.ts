import { otherMethods, route } from "@/lib/http";
import { organisationEndpoints } from "@/lib/http/endpoints";
import { getMyOrganisation, updateMyOrganisation } from "@/lib/services/organisations";

export const GET = route(organisationEndpoints.me, async ({ ctx }) => getMyOrganisation(ctx));
export const PATCH = route(organisationEndpoints.updateMe, async ({ body, ctx }) => updateMyOrganisation(ctx, body));
export const { POST, PUT, DELETE } = otherMethods(organisationEndpoints.me, organisationEndpoints.updateMe);
export { preflight as OPTIONS } from "@/lib/http";
