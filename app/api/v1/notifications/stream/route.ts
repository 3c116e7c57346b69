import { otherMethods, route } from "@/lib/http";
import { callerStillValid } from "@/lib/http/auth";
import { notificationEndpoints } from "@/lib/http/endpoints";
import { UnauthorizedError } from "@/lib/services/errors";
import { getNotificationHub, openNotificationStream } from "@/lib/realtime";

export const GET = route(notificationEndpoints.stream, async ({ req, caller }) => {
  if (caller.kind !== "user") throw new UnauthorizedError();
  // EventSource sends Last-Event-ID itself only on reconnect; a first connect resuming a session passes it in the query.
  const lastEventId = req.headers.get("last-event-id") ?? new URL(req.url).searchParams.get("lastEventId");
  const hub = getNotificationHub();
  return openNotificationStream({
    hub,
    db: hub.handle.db,
    userId: caller.userId,
    sessionId: caller.sessionId,
    apiKeyId: caller.apiKeyId,
    stillAuthorized: () => callerStillValid(hub.handle.db, caller),
    lastEventId,
    signal: req.signal,
  });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(notificationEndpoints.stream);
export { preflight as OPTIONS } from "@/lib/http";
