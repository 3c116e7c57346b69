import { otherMethods, route } from "@/lib/http";
import { finderThreadEndpoints } from "@/lib/http/endpoints";
import { setFinderEmail } from "@/lib/services/messages";

export const PUT = route(finderThreadEndpoints.email, async ({ params, body, ctx }) => setFinderEmail(ctx, params.token, body));
export const { GET, POST, PATCH, DELETE } = otherMethods(finderThreadEndpoints.email);
export { preflight as OPTIONS } from "@/lib/http";
