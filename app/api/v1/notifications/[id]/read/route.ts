import { otherMethods, route } from "@/lib/http";
import { notificationEndpoints } from "@/lib/http/endpoints";
import { markNotificationRead } from "@/lib/services/notifications";

export const PATCH = route(notificationEndpoints.markRead, async ({ params, ctx }) => markNotificationRead(ctx, params.id));
export const { GET, POST, PUT, DELETE } = otherMethods(notificationEndpoints.markRead);
export { preflight as OPTIONS } from "@/lib/http";
