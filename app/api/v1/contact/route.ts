import { otherMethods, route } from "@/lib/http";
import { contactEndpoints } from "@/lib/http/endpoints";
import { sendContactMessage } from "@/lib/services/contact";

export const POST = route(contactEndpoints.send, async ({ body, ctx }) => sendContactMessage(ctx, body));
export const { GET, PUT, PATCH, DELETE } = otherMethods(contactEndpoints.send);
export { preflight as OPTIONS } from "@/lib/http";
