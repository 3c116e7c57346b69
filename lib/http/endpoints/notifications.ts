import { z } from "zod";
import { messageSchema } from "@/lib/services/auth";
import { notificationItemSchema, notificationPreferencesSchema, notificationPreferencesUpdateSchema } from "@/lib/services/notifications";
import { defineEndpoint } from "../endpoint";
import { cursorPaginationQuery } from "../pagination";
import { idParams } from "../params";

const tags = ["Notifications"];

/** A browser's PushSubscription as `subscription.toJSON()` gives it. */
export const pushSubscriptionInput = z.object({
  endpoint: z.url("Must be a URL.").max(2048).meta({ description: "The push service URL of this browser", example: "https://fcm.googleapis.com/fcm/send/abc123" }),
  keys: z.object({
    p256dh: z.string().trim().min(1, "Required.").max(512).meta({ description: "The browser's P-256 public key, base64url" }),
    auth: z.string().trim().min(1, "Required.").max(512).meta({ description: "The auth secret, base64url" }),
  }),
});

export const notificationEndpoints = {
  list: defineEndpoint({
    operationId: "listNotifications",
    method: "GET",
    path: "/api/v1/notifications",
    summary: "List my notifications",
    description: "Newest first.",
    tags,
    auth: "user",
    query: cursorPaginationQuery,
    response: notificationItemSchema,
    responseKind: "paginated",
  }),
  unreadCount: defineEndpoint({
    operationId: "countUnreadNotifications",
    method: "GET",
    path: "/api/v1/notifications/unread-count",
    summary: "Count my unread notifications",
    tags,
    auth: "user",
    response: z.object({ count: z.int().min(0) }),
  }),
  markRead: defineEndpoint({
    operationId: "markNotificationRead",
    method: "PATCH",
    path: "/api/v1/notifications/{id}/read",
    summary: "Mark one notification as read",
    description: "Marking an already read notification again is accepted. Another user's notification is 404.",
    tags,
    auth: "user",
    params: idParams,
    response: messageSchema,
  }),
  readAll: defineEndpoint({
    operationId: "markAllNotificationsRead",
    method: "POST",
    path: "/api/v1/notifications/read-all",
    summary: "Mark all my notifications as read",
    description: "`count` is how many were unread.",
    tags,
    auth: "user",
    response: messageSchema.extend({ count: z.int().min(0) }),
  }),
  subscribe: defineEndpoint({
    operationId: "subscribePush",
    method: "POST",
    path: "/api/v1/notifications/subscribe",
    summary: "Register this device for web push",
    description: "Stores the browser's push subscription for the current device; subscribing the same endpoint again replaces it.",
    tags,
    auth: "user",
    body: z.object({ subscription: pushSubscriptionInput }),
    response: messageSchema,
  }),
  unsubscribe: defineEndpoint({
    operationId: "unsubscribePush",
    method: "POST",
    path: "/api/v1/notifications/unsubscribe",
    summary: "Remove this device's push subscription",
    description: "Without a body, removes the subscriptions made with the current session; with `{ endpoint }`, that subscription (if it is yours).",
    tags,
    auth: "user",
    body: z.object({ endpoint: z.url().max(2048).optional() }),
    response: messageSchema,
  }),
  vapidPublicKey: defineEndpoint({
    operationId: "getVapidPublicKey",
    method: "GET",
    path: "/api/v1/notifications/vapid-public-key",
    summary: "The VAPID public key for PushManager.subscribe",
    tags,
    auth: "user",
    response: z.object({ publicKey: z.string().meta({ description: "base64url application server key" }) }),
  }),
  stream: defineEndpoint({
    operationId: "streamNotifications",
    method: "GET",
    path: "/api/v1/notifications/stream",
    summary: "Live notifications (server-sent events)",
    description:
      "A long-lived `text/event-stream`. Each notification is a frame `id: <notification id>`, `event: notification`, `data: {id,type,title,body,createdAt}`; a `: ping` comment every 25 s. Send `Last-Event-ID` on reconnect to replay what was missed. At most 5 streams per user are open: opening a sixth ends the oldest, which first gets `event: superseded` (data `{reason}`); a client should then stay disconnected until it is in use again rather than reconnect at once.",
    tags,
    auth: "user",
    responseKind: "event-stream",
  }),
  getPreferences: defineEndpoint({
    operationId: "getNotificationPreferences",
    method: "GET",
    path: "/api/v1/notifications/preferences",
    summary: "My notification preferences",
    tags,
    auth: "user",
    response: notificationPreferencesSchema,
  }),
  putPreferences: defineEndpoint({
    operationId: "replaceNotificationPreferences",
    method: "PUT",
    path: "/api/v1/notifications/preferences",
    summary: "Change my notification preferences",
    description:
      "Any subset of the preferences object; fields left out keep their value. `quietHours` is `{ start, end, timeZone }` (HH:MM, IANA zone) or null to turn quiet hours off. `timeZone` is your IANA zone (the web pages show times in it; null follows the browser, allowed only while quiet hours are off); quiet hours share it, so `quietHours.timeZone` sets it too and, given together, the two must agree. An unknown zone is a 400 VALIDATION_ERROR. Security, payment, order and subscription notices are always e-mailed.",
    tags,
    auth: "user",
    body: notificationPreferencesUpdateSchema,
    response: messageSchema,
  }),
};
