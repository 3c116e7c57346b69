import { otherMethods, respond, route } from "@/lib/http";
import { tagExtraEndpoints } from "@/lib/http/endpoints/tag-extras";
import { deleteInsurance, getInsurance, saveInsurance } from "@/lib/services/tags";

export const GET = route(tagExtraEndpoints.getInsurance, async ({ params, ctx }) => getInsurance(ctx, params.id));
export const POST = route(tagExtraEndpoints.saveInsurance, async ({ params, body, ctx }) => {
  const { record, created } = await saveInsurance(ctx, params.id, body);
  return respond(record, { status: created ? 201 : 200 });
});
export const DELETE = route(tagExtraEndpoints.deleteInsurance, async ({ params, ctx }) => deleteInsurance(ctx, params.id));
export const { PUT, PATCH } = otherMethods(tagExtraEndpoints.getInsurance, tagExtraEndpoints.saveInsurance, tagExtraEndpoints.deleteInsurance);
export { preflight as OPTIONS } from "@/lib/http";
