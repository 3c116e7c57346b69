import { created, otherMethods, route } from "@/lib/http";
import { organisationEndpoints } from "@/lib/http/endpoints";
import { applyForOrganisation } from "@/lib/services/organisations";

export const POST = route(organisationEndpoints.apply, async ({ body, ctx }) => created(await applyForOrganisation(ctx, body)));
export const { GET, PUT, PATCH, DELETE } = otherMethods(organisationEndpoints.apply);
export { preflight as OPTIONS } from "@/lib/http";
