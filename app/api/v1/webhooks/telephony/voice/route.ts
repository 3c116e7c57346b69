import { otherMethods, route } from "@/lib/http";
import { readBodyText } from "@/lib/http/body";
import { telephonyEndpoints } from "@/lib/http/endpoints";
import { publicRequestUrl } from "@/lib/http/public-url";
import { receiveTelephonyWebhook } from "@/lib/services/relay";

// The body is read raw: the signature covers every parameter, so it is checked before anything is read from it (docs/relay.md).
export const POST = route(telephonyEndpoints.voice, async ({ req, ctx }) => {
  const twiml = await receiveTelephonyWebhook(ctx, "voice", {
    url: publicRequestUrl(req),
    signature: req.headers.get("x-twilio-signature"),
    rawBody: await readBodyText(req, telephonyEndpoints.voice.bodyLimitBytes),
  });
  return new Response(twiml, { status: 200, headers: { "Content-Type": "text/xml; charset=utf-8" } });
});
export const { GET, PUT, PATCH, DELETE } = otherMethods(telephonyEndpoints.voice);
export { preflight as OPTIONS } from "@/lib/http";
