import { otherMethods, route } from "@/lib/http";
import { tagQrCode } from "@/lib/services/tags";
import { tagScanEndpoints } from "@/lib/http/endpoints";

// The image itself, outside the JSON envelope; errors still answer the envelope.
export const GET = route(tagScanEndpoints.qrCode, async ({ params, query, ctx }) => {
  const image = await tagQrCode(ctx, params.id, query.format);
  return new Response(image.body as BodyInit, {
    status: 200,
    headers: { "Content-Type": image.contentType, "Content-Disposition": `inline; filename="${image.filename}"`, "Cache-Control": "private, no-store" },
  });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(tagScanEndpoints.qrCode);
export { preflight as OPTIONS } from "@/lib/http";
