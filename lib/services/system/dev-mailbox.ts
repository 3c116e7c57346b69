import { devMailboxEnabled } from "@/lib/env";
import { listMailbox, type ListMailboxInput, type MailboxMessage } from "@/lib/email/mailbox";
import type { ServiceContext } from "@/lib/services/context";
import { NotFoundError } from "@/lib/services/errors";

/** GET /api/v1/dev/mailbox: the e-mails the outbox transport kept, newest first; 404 where the mailbox is off. */
export async function readDevMailbox(ctx: ServiceContext, input: ListMailboxInput): Promise<MailboxMessage[]> {
  if (!devMailboxEnabled()) throw new NotFoundError();
  return listMailbox(input, ctx.db);
}
