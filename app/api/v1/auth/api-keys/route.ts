import { route } from "@/lib/http";
import { apiKeyEndpoints } from "@/lib/http/endpoints";
import { createApiKey, listApiKeys } from "@/lib/services/auth";

export const GET = route(apiKeyEndpoints.listApiKeys, async ({ ctx }) => listApiKeys(ctx));
export const POST = route(apiKeyEndpoints.createApiKey, async ({ body, ctx }) =>
  createApiKey(ctx, { name: body.name, expiresAt: body.expiresAt ? new Date(body.expiresAt) : undefined }),
);
export { preflight as OPTIONS } from "@/lib/http";
