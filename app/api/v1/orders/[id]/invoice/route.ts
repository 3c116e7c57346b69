import { otherMethods, route } from "@/lib/http";
import { orderEndpoints } from "@/lib/http/endpoints";
import { orderInvoice } from "@/lib/services/orders";

// A document of its own: inline styles only, nothing loaded from elsewhere, no scripts.
export const GET = route(
  orderEndpoints.invoice,
  async ({ params, ctx }) =>
    new Response(await orderInvoice(ctx, params.id), {
      headers: {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'",
        "Cache-Control": "private, no-store",
      },
    }),
);
export const { POST, PUT, PATCH, DELETE } = otherMethods(orderEndpoints.invoice);
export { preflight as OPTIONS } from "@/lib/http";
