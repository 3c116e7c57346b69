import { otherMethods, route } from "@/lib/http";
import { careerEndpoints } from "@/lib/http/endpoints";
import { deletePosition, getOpenPosition, updatePosition } from "@/lib/services/content";

export const GET = route(careerEndpoints.get, async ({ params, ctx }) => getOpenPosition(ctx, params.id));
export const PATCH = route(careerEndpoints.update, async ({ params, body, ctx }) => updatePosition(ctx, params.id, body));
export const DELETE = route(careerEndpoints.remove, async ({ params, ctx }) => deletePosition(ctx, params.id));
export const { POST, PUT } = otherMethods(careerEndpoints.get, careerEndpoints.update, careerEndpoints.remove);
export { preflight as OPTIONS } from "@/lib/http";
