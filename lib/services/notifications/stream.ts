import { getNotificationHub, openNotificationStream } from "@/lib/realtime";
import { credentialStillValid } from "@/lib/services/auth";
import { requireUser, type ServiceContext } from "@/lib/services/context";

/**
 * GET /notifications/stream: the acting user's notifications as server-sent events, missed ones after
 * `lastEventId` first. The stream is tied to the session or API key it was opened with: it ends when
 * that is revoked, on any instance.
 */
export async function streamNotifications(ctx: ServiceContext, input: { lastEventId?: string | null; signal?: AbortSignal }): Promise<Response> {
  const actor = requireUser(ctx);
  const hub = getNotificationHub();
  return openNotificationStream({
    hub,
    db: ctx.db,
    userId: actor.userId,
    sessionId: actor.sessionId,
    apiKeyId: actor.apiKeyId,
    stillAuthorized: () => credentialStillValid(ctx),
    lastEventId: input.lastEventId,
    signal: input.signal,
  });
}
