import { otherMethods, paginated, route } from "@/lib/http";
import { notificationEndpoints } from "@/lib/http/endpoints";
import { listNotifications } from "@/lib/services/notifications";

export const GET = route(notificationEndpoints.list, async ({ query, ctx }) => {
  return paginated(await listNotifications(ctx, query));
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(notificationEndpoints.list);
export { preflight as OPTIONS } from "@/lib/http";
