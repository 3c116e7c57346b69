import { created, otherMethods, route } from "@/lib/http";
import { alertEndpoints } from "@/lib/http/endpoints";
import { raiseLostAlert } from "@/lib/services/alerts";

export const POST = route(alertEndpoints.raise, async ({ params, body, ctx }) => created(await raiseLostAlert(ctx, params.id, body)));
export const { GET, PUT, PATCH, DELETE } = otherMethods(alertEndpoints.raise);
export { preflight as OPTIONS } from "@/lib/http";
