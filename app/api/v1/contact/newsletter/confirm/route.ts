import { otherMethods, route } from "@/lib/http";
import { contactEndpoints } from "@/lib/http/endpoints";
import { confirmNewsletterSubscription } from "@/lib/services/contact";

export const GET = route(contactEndpoints.confirm, async ({ query, ctx }) => confirmNewsletterSubscription(ctx, query.token));
export const { POST, PUT, PATCH, DELETE } = otherMethods(contactEndpoints.confirm);
export { preflight as OPTIONS } from "@/lib/http";
