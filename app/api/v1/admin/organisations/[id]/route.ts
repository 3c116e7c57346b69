import { otherMethods, route } from "@/lib/http";
import { organisationEndpoints } from "@/lib/http/endpoints";
import { setOrganisationVerified } from "@/lib/services/organisations";

export const PATCH = route(organisationEndpoints.adminSetVerified, async ({ params, body, ctx }) => setOrganisationVerified(ctx, params.id, body));
export const { GET, POST, PUT, DELETE } = otherMethods(organisationEndpoints.adminSetVerified);
export { preflight as OPTIONS } from "@/lib/http";
