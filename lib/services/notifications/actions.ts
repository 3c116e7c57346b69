import type { Notification } from "@/db/schema";

type NotificationType = Notification["type"];

/** Where a notification leads (the e-mail's button, the push's click, the list's link) and what the link says. */
export interface NotificationAction {
  label: string;
  path: `/${string}`;
}

export const NOTIFICATIONS_LIST_PATH = "/dashboard/notifications";

/** Per type, when the notification's data names nothing more specific. */
const byType: Record<NotificationType, NotificationAction> = {
  TAG_SCANNED: { label: "See where it was scanned", path: "/dashboard/tags" },
  MESSAGE_RECEIVED: { label: "Read and reply", path: "/dashboard/messages" },
  CALL_RECEIVED: { label: "Open the conversation", path: "/dashboard/messages" },
  CALL_MISSED: { label: "Open the conversation", path: "/dashboard/messages" },
  TAG_STATUS_CHANGED: { label: "Open your tags", path: "/dashboard/tags" },
  TAG_CLONE_DETECTED: { label: "Review the scans", path: "/dashboard/tags" },
  FINDER_LOCATION_SHARED: { label: "See the shared location", path: "/dashboard/tags" },
  EMERGENCY_ACCESSED: { label: "Review who opened it", path: "/dashboard/emergency" },
  REWARD_UPDATED: { label: "Open your rewards", path: "/dashboard/rewards" },
  TRANSFER_RECEIVED: { label: "Review the transfer", path: "/dashboard/tags/transfers" },
  LOST_PET_NEARBY: { label: "See the lost pet", path: "/dashboard/alerts" },
  FOUND_PET_MATCH: { label: "See the found animal", path: "/dashboard/alerts" },
  ORDER_UPDATED: { label: "Open your orders", path: NOTIFICATIONS_LIST_PATH },
  PAYMENT_FAILED: { label: "Update your payment", path: NOTIFICATIONS_LIST_PATH },
  SUBSCRIPTION_UPDATED: { label: "Open your plan", path: NOTIFICATIONS_LIST_PATH },
  SECURITY: { label: "Review your account security", path: "/dashboard/account/sessions" },
};

/** The types that lead to the conversation their data names (relayed calls included: docs/relay.md). */
const CONVERSATION_TYPES = new Set<NotificationType>(["MESSAGE_RECEIVED", "FINDER_LOCATION_SHARED", "CALL_RECEIVED", "CALL_MISSED"]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The action for one notification. A message leads to its conversation; a tag event to that tag's
 * page, unless the tag left the account (an accepted transfer), in which case to the transfers page.
 * A shared location leads to its conversation's map when it was shared in one, else to the tag's map:
 * the place itself is never in the link (nor in the e-mail's or the push's words).
 */
export function notificationAction(type: NotificationType, data: Record<string, unknown> = {}): NotificationAction {
  const fallback = byType[type];
  if (typeof data.transferId === "string" && (type === "TRANSFER_RECEIVED" || data.transferStatus === "ACCEPTED")) {
    return { label: "Open your transfers", path: "/dashboard/tags/transfers" };
  }
  if (CONVERSATION_TYPES.has(type) && typeof data.threadId === "string" && UUID.test(data.threadId)) {
    const conversation = `/dashboard/messages/${data.threadId.toLowerCase()}` as const;
    return type !== "FINDER_LOCATION_SHARED" ? { label: fallback.label, path: conversation } : { label: fallback.label, path: `${conversation}#shared-locations` };
  }
  if (type === "FINDER_LOCATION_SHARED" && typeof data.tagId === "string" && UUID.test(data.tagId)) {
    return { label: fallback.label, path: `/dashboard/tags/${data.tagId.toLowerCase()}/map` };
  }
  if (type === "LOST_PET_NEARBY" && typeof data.alertId === "string" && UUID.test(data.alertId)) {
    return { label: fallback.label, path: `/lost/${data.alertId.toLowerCase()}` };
  }
  if (type === "FOUND_PET_MATCH" && typeof data.foundReportId === "string" && UUID.test(data.foundReportId)) {
    return { label: fallback.label, path: `/dashboard/alerts/found/${data.foundReportId.toLowerCase()}` };
  }
  if (typeof data.tagId === "string" && UUID.test(data.tagId) && fallback.path === "/dashboard/tags") {
    return { label: type === "TAG_STATUS_CHANGED" ? "Open the tag" : fallback.label, path: `/dashboard/tags/${data.tagId.toLowerCase()}` };
  }
  return fallback;
}

/** The link that opens a notification: it marks it read, then leads to its action's path. */
export function notificationOpenPath(notificationId: string): `/${string}` {
  return `/dashboard/notifications/${encodeURIComponent(notificationId)}/open`;
}

/** Whether the notification leads anywhere beyond the notifications list itself (then its links go through the open page). */
export function leadsBeyondList(action: NotificationAction): boolean {
  return action.path !== NOTIFICATIONS_LIST_PATH;
}

const PHOTO_PATH = /^\/api\/photos\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The picture a notification shows (a lost pet's photo, LOST_PET_NEARBY's `data.photoUrl`) as a path of
 * the app, or null: only a stored photo's path is taken, so the e-mail and the push never load another host.
 */
export function notificationImagePath(data: Record<string, unknown> = {}): `/${string}` | null {
  return typeof data.photoUrl === "string" && PHOTO_PATH.test(data.photoUrl) ? (data.photoUrl as `/${string}`) : null;
}
