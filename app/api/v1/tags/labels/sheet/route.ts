import { downloadResponse, otherMethods, route } from "@/lib/http";
import { tagLabelEndpoints } from "@/lib/http/endpoints";
import { tagLabelSheet } from "@/lib/services/tags";

// The PDF itself, as a download outside the JSON envelope; errors still answer the envelope.
export const GET = route(tagLabelEndpoints.sheet, async ({ query, ctx }) =>
  downloadResponse(await tagLabelSheet(ctx, { tagIds: query.tagId, size: query.size, paper: query.paper, lang: query.lang })),
);
export const { POST, PUT, PATCH, DELETE } = otherMethods(tagLabelEndpoints.sheet);
export { preflight as OPTIONS } from "@/lib/http";
