import { eq } from "drizzle-orm";
import { schema } from "@/db/client";
import { getNotificationHub, openThreadStream } from "@/lib/realtime";
import type { ServiceContext } from "@/lib/services/context";
import { ForbiddenError } from "@/lib/services/errors";
import { threadByToken } from "./queries";

/**
 * GET /scan/thread/:token/stream: the finder's live view of a conversation, by its token. Unknown token
 * 404; a CLOSED or BLOCKED conversation 403 (nothing more will arrive, and a refusal stops EventSource's
 * reconnects); closing, blocking or deleting it later ends the stream after an `event: closed` frame.
 */
export async function streamFinderThread(ctx: ServiceContext, token: string, input: { signal?: AbortSignal } = {}): Promise<Response> {
  const thread = await threadByToken(ctx.db, token);
  if (thread.status !== "ACTIVE") throw new ForbiddenError(`This conversation is ${thread.status === "CLOSED" ? "closed" : "blocked"}.`);
  return openThreadStream({
    hub: getNotificationHub(),
    threadId: thread.id,
    currentStatus: async () => {
      const [row] = await ctx.db.select({ status: schema.threads.status }).from(schema.threads).where(eq(schema.threads.id, thread.id));
      return row?.status ?? null;
    },
    signal: input.signal,
  });
}
