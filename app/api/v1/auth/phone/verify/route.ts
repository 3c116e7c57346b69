import { otherMethods, route } from "@/lib/http";
import { relayEndpoints } from "@/lib/http/endpoints";
import { verifyPhoneCode } from "@/lib/services/relay";

export const POST = route(relayEndpoints.verifyPhoneCode, async ({ body, ctx }) => verifyPhoneCode(ctx, body));
export const { GET, PUT, PATCH, DELETE } = otherMethods(relayEndpoints.verifyPhoneCode);
export { preflight as OPTIONS } from "@/lib/http";
