import { otherMethods, route } from "@/lib/http";
import { notificationEndpoints } from "@/lib/http/endpoints";
import { unreadCount } from "@/lib/services/notifications";

export const GET = route(notificationEndpoints.unreadCount, async ({ ctx }) => unreadCount(ctx));
export const { POST, PUT, PATCH, DELETE } = otherMethods(notificationEndpoints.unreadCount);
export { preflight as OPTIONS } from "@/lib/http";
