import { otherMethods, route } from "@/lib/http";
import { readBodyText } from "@/lib/http/body";
import { paymentEndpoints } from "@/lib/http/endpoints";
import { receivePaymentEvent } from "@/lib/services/payment-events";

// The body is read raw: the signature covers its exact bytes, so nothing parses it before the check.
export const POST = route(paymentEndpoints.webhook, async ({ req, ctx }) =>
  receivePaymentEvent(ctx, { rawBody: await readBodyText(req, paymentEndpoints.webhook.bodyLimitBytes), signature: req.headers.get("payment-signature") }),
);
export const { GET, PUT, PATCH, DELETE } = otherMethods(paymentEndpoints.webhook);
export { preflight as OPTIONS } from "@/lib/http";
