import { otherMethods, route } from "@/lib/http";
import { notificationEndpoints } from "@/lib/http/endpoints";
import { unsubscribePush } from "@/lib/services/notifications";

export const POST = route(notificationEndpoints.unsubscribe, async ({ body, ctx }) => unsubscribePush(ctx, body.endpoint));
export const { GET, PUT, PATCH, DELETE } = otherMethods(notificationEndpoints.unsubscribe);
export { preflight as OPTIONS } from "@/lib/http";
