import { otherMethods, route } from "@/lib/http";
import { relayEndpoints } from "@/lib/http/endpoints";
import { requestPhoneCode } from "@/lib/services/relay";

export const POST = route(relayEndpoints.requestPhoneCode, async ({ body, ctx }) => requestPhoneCode(ctx, body));
export const { GET, PUT, PATCH, DELETE } = otherMethods(relayEndpoints.requestPhoneCode);
export { preflight as OPTIONS } from "@/lib/http";
