import { otherMethods, route } from "@/lib/http";
import { contactEndpoints } from "@/lib/http/endpoints";
import { unsubscribeFromNewsletter } from "@/lib/services/contact";

// RFC 8058: the token in the query is the whole authority; the body (List-Unsubscribe=One-Click) is not needed.
export const POST = route(contactEndpoints.unsubscribe, async ({ query, ctx }) => unsubscribeFromNewsletter(ctx, query.token));
export const { GET, PUT, PATCH, DELETE } = otherMethods(contactEndpoints.unsubscribe);
export { preflight as OPTIONS } from "@/lib/http";
