import { otherMethods, respond, route } from "@/lib/http";
import { deleteInsurance, getInsurance, saveInsurance } from "@/lib/services/tags";
import { insuranceEndpoints } from "@/lib/http/endpoints";

export const GET = route(insuranceEndpoints.getInsurance, async ({ params, ctx }) => getInsurance(ctx, params.id));
export const POST = route(insuranceEndpoints.saveInsurance, async ({ params, body, ctx }) => {
  const { record, created } = await saveInsurance(ctx, params.id, body);
  return respond(record, { status: created ? 201 : 200 });
});
export const DELETE = route(insuranceEndpoints.deleteInsurance, async ({ params, ctx }) => deleteInsurance(ctx, params.id));
export const { PUT, PATCH } = otherMethods(insuranceEndpoints.getInsurance, insuranceEndpoints.saveInsurance, insuranceEndpoints.deleteInsurance);
export { preflight as OPTIONS } from "@/lib/http";
