import { created, otherMethods, paginated, route } from "@/lib/http";
import { organisationEndpoints } from "@/lib/http/endpoints";
import { fileFoundReport, listMyFoundReports } from "@/lib/services/organisations";

export const POST = route(organisationEndpoints.fileFound, async ({ body, ctx }) => created(await fileFoundReport(ctx, body)));
export const GET = route(organisationEndpoints.listFound, async ({ query, ctx }) => {
  return paginated(await listMyFoundReports(ctx, query));
});
export const { PUT, PATCH, DELETE } = otherMethods(organisationEndpoints.fileFound, organisationEndpoints.listFound);
export { preflight as OPTIONS } from "@/lib/http";
