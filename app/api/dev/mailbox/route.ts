import { devMailboxEnabled } from "@/lib/env";
import { listMailbox } from "@/lib/email/mailbox";
import { route } from "@/lib/http";
import { devEndpoints } from "@/lib/http/endpoints/dev";
import { NotFoundError } from "@/lib/services/errors";

export const GET = route(devEndpoints.mailbox, async ({ query, ctx }) => {
  if (!devMailboxEnabled()) throw new NotFoundError();
  return listMailbox({ to: query.to, limit: query.limit }, ctx.db);
});
