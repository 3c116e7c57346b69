import { otherMethods, route } from "@/lib/http";
import { careerEndpoints } from "@/lib/http/endpoints";
import { createPosition, listOpenPositions } from "@/lib/services/content";

export const GET = route(careerEndpoints.list, async ({ ctx }) => listOpenPositions(ctx));
export const POST = route(careerEndpoints.create, async ({ body, ctx }) => createPosition(ctx, body));
export const { PUT, PATCH, DELETE } = otherMethods(careerEndpoints.list, careerEndpoints.create);
export { preflight as OPTIONS } from "@/lib/http";
