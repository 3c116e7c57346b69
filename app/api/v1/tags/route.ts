import { otherMethods, paginated, route } from "@/lib/http";
import { tagEndpoints } from "@/lib/http/endpoints";
import { listTags } from "@/lib/services/tags";

export const GET = route(tagEndpoints.list, async ({ query, ctx }) => {
  return paginated(await listTags(ctx, query));
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(tagEndpoints.list);
export { preflight as OPTIONS } from "@/lib/http";
