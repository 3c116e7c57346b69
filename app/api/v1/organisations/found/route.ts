import { created, otherMethods, paginated, route } from "@/lib/http";
import { organisationEndpoints } from "@/lib/http/endpoints";
import { fileFoundReport, listMyFoundReports } from "@/lib/services/organisations";

export const POST = route(organisationEndpoints.fileFound, async ({ body, ctx }) => created(await fileFoundReport(ctx, body)));
export const GET = route(organisationEndpoints.listFound, async ({ query, ctx }) => {
  const { items, total } = await listMyFoundReports(ctx, query);
  return paginated(items, { total, page: query.page, limit: query.limit });
});
export const { PUT, PATCH, DELETE } = otherMethods(organisationEndpoints.fileFound, organisationEndpoints.listFound);
export { preflight as OPTIONS } from "@/lib/http";
