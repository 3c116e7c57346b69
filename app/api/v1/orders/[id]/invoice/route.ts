import { otherMethods, route } from "@/lib/http";
import { orderEndpoints } from "@/lib/http/endpoints";
import { INVOICE_CONTENT_SECURITY_POLICY, orderInvoice } from "@/lib/services/orders";

// A document of its own: its one inline stylesheet allowed by hash, nothing loaded from elsewhere, no scripts.
export const GET = route(
  orderEndpoints.invoice,
  async ({ params, ctx }) =>
    new Response(await orderInvoice(ctx, params.id), {
      headers: {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Security-Policy": INVOICE_CONTENT_SECURITY_POLICY,
        "Cache-Control": "private, no-store",
      },
    }),
);
export const { POST, PUT, PATCH, DELETE } = otherMethods(orderEndpoints.invoice);
export { preflight as OPTIONS } from "@/lib/http";
