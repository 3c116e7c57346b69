import { otherMethods, route } from "@/lib/http";
import { contactEndpoints } from "@/lib/http/endpoints";
import { subscribeToNewsletter } from "@/lib/services/contact";

export const POST = route(contactEndpoints.subscribe, async ({ body, ctx }) => subscribeToNewsletter(ctx, body));
export const { GET, PUT, PATCH, DELETE } = otherMethods(contactEndpoints.subscribe);
export { preflight as OPTIONS } from "@/lib/http";
