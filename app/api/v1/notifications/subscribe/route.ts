import { otherMethods, route } from "@/lib/http";
import { notificationEndpoints } from "@/lib/http/endpoints";
import { subscribePush } from "@/lib/services/notifications";

export const POST = route(notificationEndpoints.subscribe, async ({ ctx, body, req }) => subscribePush(ctx, body.subscription, req.headers.get("user-agent")));
export const { GET, PUT, PATCH, DELETE } = otherMethods(notificationEndpoints.subscribe);
export { preflight as OPTIONS } from "@/lib/http";
