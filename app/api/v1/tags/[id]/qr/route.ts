import { otherMethods, route } from "@/lib/http";
import { tagExtraEndpoints } from "@/lib/http/endpoints/tag-extras";
import { tagQrCode } from "@/lib/services/tags";

// The image itself, outside the JSON envelope; errors still answer the envelope.
export const GET = route(tagExtraEndpoints.qrCode, async ({ params, query, ctx }) => {
  const image = await tagQrCode(ctx, params.id, query.format);
  return new Response(image.body as BodyInit, {
    status: 200,
    headers: { "Content-Type": image.contentType, "Content-Disposition": `inline; filename="${image.filename}"`, "Cache-Control": "private, no-store" },
  });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(tagExtraEndpoints.qrCode);
export { preflight as OPTIONS } from "@/lib/http";
