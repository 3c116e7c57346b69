import { route } from "@/lib/http";
import { systemEndpoints } from "@/lib/http/endpoints";
import { checkHealth } from "@/lib/services/system";

export const GET = route(systemEndpoints.health, async ({ ctx }) => {
  const health = await checkHealth(ctx);
  return Response.json(health, { status: health.db === "ok" ? 200 : 503 });
});
