import { route } from "@/lib/http";
import { devEndpoints } from "@/lib/http/endpoints/dev";
import { readDevMailbox } from "@/lib/services/system";

export const GET = route(devEndpoints.mailbox, async ({ query, ctx }) => readDevMailbox(ctx, { to: query.to, limit: query.limit }));
