import type { Notification } from "@/db/schema";
import { notificationPreferences } from "@/db/schema";

export type NotificationType = Notification["type"];
export type Preferences = typeof notificationPreferences.$inferSelect;
type Channel = "email" | "push";

/**
 * The preference switch that gates each type, per channel. The issue names three (scans, messages,
 * status changes) and says security and payment messages always go by e-mail; the rest of the
 * mapping is ours: tag-related events follow statusChange, order and subscription news always mails.
 */
const preferenceGroup: Record<NotificationType, "tagScanned" | "messageReceived" | "statusChange" | "lostPetNearby" | "always"> = {
  TAG_SCANNED: "tagScanned",
  MESSAGE_RECEIVED: "messageReceived",
  // A relayed call is a finder reaching out, as a message is (docs/relay.md).
  CALL_RECEIVED: "messageReceived",
  CALL_MISSED: "messageReceived",
  TAG_STATUS_CHANGED: "statusChange",
  TAG_CLONE_DETECTED: "statusChange",
  FINDER_LOCATION_SHARED: "statusChange",
  EMERGENCY_ACCESSED: "statusChange",
  REWARD_UPDATED: "statusChange",
  TRANSFER_RECEIVED: "statusChange",
  // Alerts from the watched area have their own switch; a shelter's match for your lost pet always goes.
  LOST_PET_NEARBY: "lostPetNearby",
  FOUND_PET_MATCH: "always",
  ORDER_UPDATED: "always",
  PAYMENT_FAILED: "always",
  SUBSCRIPTION_UPDATED: "always",
  SECURITY: "always",
};

export const defaultPreferences = (userId: string): Preferences => ({
  userId,
  emailTagScanned: true,
  emailMessageReceived: true,
  emailStatusChange: true,
  emailMarketing: false,
  pushTagScanned: true,
  pushMessageReceived: true,
  pushStatusChange: true,
  emailLostPetNearby: true,
  pushLostPetNearby: true,
  quietHoursStart: null,
  quietHoursEnd: null,
  timeZone: null,
  updatedAt: new Date(0),
});

/** Whether a notification of this type goes out on this channel. Security and payment mail always goes. */
export function channelEnabled(preferences: Preferences, type: NotificationType, channel: Channel): boolean {
  const group = preferenceGroup[type];
  if (group === "always") return true;
  const key = `${channel}${group[0]!.toUpperCase()}${group.slice(1)}` as keyof Preferences;
  return preferences[key] === true;
}

/** Scans of a LOST or STOLEN tag and emergency access are never held back by quiet hours. */
export function isUrgent(type: NotificationType, data: Record<string, unknown>): boolean {
  if (type === "EMERGENCY_ACCESSED" || type === "TAG_CLONE_DETECTED" || type === "FOUND_PET_MATCH") return true;
  return type === "TAG_SCANNED" && (data.tagStatus === "LOST" || data.tagStatus === "STOLEN");
}

function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(":").map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/** Minutes since local midnight in `timeZone`. */
function localMinutes(now: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(now);
  const hour = Number(parts.find((p) => p.type === "hour")?.value ?? 0);
  const minute = Number(parts.find((p) => p.type === "minute")?.value ?? 0);
  return hour * 60 + minute;
}

/**
 * When push and e-mail may go out: null for now, or the end of the user's quiet hours. Quiet hours
 * may wrap midnight (22:00–07:00).
 */
export function deliverAfter(preferences: Preferences, now: Date, urgent: boolean): Date | null {
  const { quietHoursStart: start, quietHoursEnd: end, timeZone } = preferences;
  if (urgent || !start || !end || start === end) return null;
  // Quiet hours are always saved with a zone; UTC only guards a row written by hand.
  const current = localMinutes(now, timeZone ?? "UTC");
  const from = minutesOf(start);
  const to = minutesOf(end);
  const inside = from < to ? current >= from && current < to : current >= from || current < to;
  if (!inside) return null;
  const wait = (to - current + 24 * 60) % (24 * 60);
  return new Date(Math.floor(now.getTime() / 60_000) * 60_000 + wait * 60_000);
}
