import { otherMethods, route } from "@/lib/http";
import { notificationEndpoints } from "@/lib/http/endpoints";
import { getNotificationPreferences, updateNotificationPreferences } from "@/lib/services/notifications";

export const GET = route(notificationEndpoints.getPreferences, async ({ ctx }) => getNotificationPreferences(ctx));
export const PUT = route(notificationEndpoints.putPreferences, async ({ body, ctx }) => updateNotificationPreferences(ctx, body));
export const { POST, PATCH, DELETE } = otherMethods(notificationEndpoints.getPreferences, notificationEndpoints.putPreferences);
export { preflight as OPTIONS } from "@/lib/http";
