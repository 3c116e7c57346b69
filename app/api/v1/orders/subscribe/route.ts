import { otherMethods, route } from "@/lib/http";
import { subscriptionEndpoints } from "@/lib/http/endpoints";
import { cancelSubscription, subscribeToPro } from "@/lib/services/subscriptions";

export const POST = route(subscriptionEndpoints.subscribe, async ({ body, ctx }) => subscribeToPro(ctx, body));
export const DELETE = route(subscriptionEndpoints.cancel, async ({ ctx }) => cancelSubscription(ctx));
export const { GET, PUT, PATCH } = otherMethods(subscriptionEndpoints.subscribe, subscriptionEndpoints.cancel);
export { preflight as OPTIONS } from "@/lib/http";
