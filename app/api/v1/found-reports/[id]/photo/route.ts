import { otherMethods, route } from "@/lib/http";
import { organisationEndpoints } from "@/lib/http/endpoints";
import { getFoundReportPhoto } from "@/lib/services/organisations";

// The image itself, outside the JSON envelope (errors still answer the envelope); private, as the report is.
export const GET = route(organisationEndpoints.foundPhoto, async ({ params, ctx }) => {
  const photo = await getFoundReportPhoto(ctx, params.id);
  return new Response(new Uint8Array(photo.data), {
    status: 200,
    headers: { "Content-Type": photo.contentType, "Content-Length": String(photo.data.length), "Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff", "Content-Security-Policy": "default-src 'none'" },
  });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(organisationEndpoints.foundPhoto);
export { preflight as OPTIONS } from "@/lib/http";
