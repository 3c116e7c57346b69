import { otherMethods, route } from "@/lib/http";
import { readBodyText } from "@/lib/http/body";
import { paymentEndpoints } from "@/lib/http/endpoints";
import { receivePaymentEvent } from "@/lib/services/payment-events";

// The specification's second path for the payment webhook: the same contract and service as /api/v1/webhooks/payment.
export const POST = route(paymentEndpoints.webhookAlias, async ({ req, ctx }) =>
  receivePaymentEvent(ctx, { rawBody: await readBodyText(req, paymentEndpoints.webhookAlias.bodyLimitBytes), signature: req.headers.get("payment-signature") }),
);
export const { GET, PUT, PATCH, DELETE } = otherMethods(paymentEndpoints.webhookAlias);
