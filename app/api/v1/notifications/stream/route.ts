import { otherMethods, route } from "@/lib/http";
import { notificationEndpoints } from "@/lib/http/endpoints";
import { streamNotifications } from "@/lib/services/notifications";

export const GET = route(notificationEndpoints.stream, async ({ req, ctx }) =>
  // EventSource sends Last-Event-ID itself only on reconnect; a first connect resuming a session passes it in the query.
  streamNotifications(ctx, { lastEventId: req.headers.get("last-event-id") ?? new URL(req.url).searchParams.get("lastEventId"), signal: req.signal }),
);
export const { POST, PUT, PATCH, DELETE } = otherMethods(notificationEndpoints.stream);
export { preflight as OPTIONS } from "@/lib/http";
