import { otherMethods, route } from "@/lib/http";
import { subscriptionEndpoints } from "@/lib/http/endpoints";
import { getBilling } from "@/lib/services/subscriptions";

export const GET = route(subscriptionEndpoints.billing, async ({ ctx }) => getBilling(ctx));
export const { POST, PUT, PATCH, DELETE } = otherMethods(subscriptionEndpoints.billing);
export { preflight as OPTIONS } from "@/lib/http";
