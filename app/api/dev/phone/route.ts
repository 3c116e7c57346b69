import { route } from "@/lib/http";
import { devEndpoints } from "@/lib/http/endpoints/dev";
import { readDevPhone } from "@/lib/services/relay";

export const GET = route(devEndpoints.phone, async ({ query, ctx }) => readDevPhone(ctx, { number: query.number, limit: query.limit }));
