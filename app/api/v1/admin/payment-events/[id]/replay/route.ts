import { otherMethods, route } from "@/lib/http";
import { paymentEndpoints } from "@/lib/http/endpoints";
import { replayPaymentEvent } from "@/lib/services/payment-events";

export const POST = route(paymentEndpoints.adminReplay, async ({ params, ctx }) => replayPaymentEvent(ctx, params.id));
export const { GET, PUT, PATCH, DELETE } = otherMethods(paymentEndpoints.adminReplay);
export { preflight as OPTIONS } from "@/lib/http";
