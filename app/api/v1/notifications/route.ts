import { otherMethods, paginated, route } from "@/lib/http";
import { notificationEndpoints } from "@/lib/http/endpoints";
import { listNotifications } from "@/lib/services/notifications";

export const GET = route(notificationEndpoints.list, async ({ query, ctx }) => {
  const { items, total } = await listNotifications(ctx, query);
  return paginated(items, { total, page: query.page, limit: query.limit });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(notificationEndpoints.list);
export { preflight as OPTIONS } from "@/lib/http";
