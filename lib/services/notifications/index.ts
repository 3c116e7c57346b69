/**
 * The notifications domain as routes, server actions and pages use it: its ctx-taking verbs, their records and
 * request schemas. Code inside lib/services imports the files themselves.
 */
export { leadsBeyondList, notificationAction, type NotificationAction, notificationOpenPath } from "./actions";
export { getNotificationPreferences, type NotificationPreferences, notificationPreferencesSchema, notificationPreferencesUpdateSchema, savedTimeZone, updateNotificationPreferences } from "./preferences";
export { deliverNotificationPush, pushEndpointsOfThisDevice, sessionsWithPush, subscribePush, unsubscribePush, vapidPublicKey } from "./push";
export { listNotifications, markAllNotificationsRead, markNotificationRead, type NotificationItem, notificationItemSchema, openNotification, unreadCount } from "./store";
export { streamNotifications } from "./stream";
export { sendNotificationEmail } from "./email";
export { exportNotifications } from "./export";
export { notify } from "./notify";
export { notifyMany, type NotifyManyItem } from "./notify-many";
