import { route } from "@/lib/http";
import { apiKeyEndpoints } from "@/lib/http/endpoints";
import { revokeApiKey } from "@/lib/services/auth";

export const DELETE = route(apiKeyEndpoints.revokeApiKey, async ({ params, ctx }) => revokeApiKey(ctx, params.id));
export { preflight as OPTIONS } from "@/lib/http";
