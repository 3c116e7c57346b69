import { otherMethods, route } from "@/lib/http";
import { notificationEndpoints } from "@/lib/http/endpoints";
import { vapidPublicKey } from "@/lib/services/notifications";

export const GET = route(notificationEndpoints.vapidPublicKey, async () => vapidPublicKey());
export const { POST, PUT, PATCH, DELETE } = otherMethods(notificationEndpoints.vapidPublicKey);
export { preflight as OPTIONS } from "@/lib/http";
