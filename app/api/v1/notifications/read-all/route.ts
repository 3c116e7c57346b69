import { otherMethods, route } from "@/lib/http";
import { notificationEndpoints } from "@/lib/http/endpoints";
import { markAllNotificationsRead } from "@/lib/services/notifications";

export const POST = route(notificationEndpoints.readAll, async ({ ctx }) => markAllNotificationsRead(ctx));
export const { GET, PUT, PATCH, DELETE } = otherMethods(notificationEndpoints.readAll);
export { preflight as OPTIONS } from "@/lib/http";
