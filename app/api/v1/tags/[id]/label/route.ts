import { downloadResponse, otherMethods, route } from "@/lib/http";
import { tagLabelEndpoints } from "@/lib/http/endpoints";
import { tagLabel } from "@/lib/services/tags";

// The file itself, as a download outside the JSON envelope; errors still answer the envelope.
export const GET = route(tagLabelEndpoints.label, async ({ params, query, ctx }) => downloadResponse(await tagLabel(ctx, params.id, query)));
export const { POST, PUT, PATCH, DELETE } = otherMethods(tagLabelEndpoints.label);
export { preflight as OPTIONS } from "@/lib/http";
