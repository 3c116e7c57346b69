import { created, otherMethods, route } from "@/lib/http";
import { finderThreadEndpoints } from "@/lib/http/endpoints";
import { visitorFrom } from "@/lib/http/visitor";
import { contactOwner } from "@/lib/services/messages";

export const POST = route(finderThreadEndpoints.contact, async ({ req, params, body, ctx, ip }) =>
  created(await contactOwner(ctx, params.encryptedId, body, visitorFrom(req.headers, req.method, ip))),
);
export const { GET, PUT, PATCH, DELETE } = otherMethods(finderThreadEndpoints.contact);
export { preflight as OPTIONS } from "@/lib/http";
