import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgEnum, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { sessions } from "./auth";
import { users } from "./users";

const ts = () => timestamp({ withTimezone: true, precision: 3 });

export const notificationType = pgEnum("notification_type", [
  "TAG_SCANNED",
  "MESSAGE_RECEIVED",
  "CALL_RECEIVED",
  "CALL_MISSED",
  "TAG_STATUS_CHANGED",
  "TAG_CLONE_DETECTED",
  "FINDER_LOCATION_SHARED",
  "EMERGENCY_ACCESSED",
  "REWARD_UPDATED",
  "TRANSFER_RECEIVED",
  "LOST_PET_NEARBY",
  "FOUND_PET_MATCH",
  "ORDER_UPDATED",
  "PAYMENT_FAILED",
  "SUBSCRIPTION_UPDATED",
  "SECURITY",
]);

/** The in-app store: every notification a user gets, whatever else delivers it. */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: notificationType().notNull(),
    title: text().notNull(),
    body: text().notNull(),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    readAt: ts(),
    createdAt: ts().notNull().defaultNow(),
  },
  (table) => [
    index("notifications_user_created_id_idx").on(table.userId, table.createdAt, table.id),
    index("notifications_user_unread_idx").on(table.userId).where(sql`${table.readAt} is null`),
    // The retention run: read notifications by age, and the shared places it erases from their data.
    index("notifications_read_created_idx").on(table.createdAt).where(sql`${table.readAt} is not null`),
    index("notifications_place_created_idx").on(table.createdAt).where(sql`${table.data} ? 'latitude'`),
  ],
);

/** One row per user once they change anything; absent means the defaults. */
export const notificationPreferences = pgTable("notification_preferences", {
  userId: uuid()
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  emailTagScanned: boolean().notNull().default(true),
  emailMessageReceived: boolean().notNull().default(true),
  emailStatusChange: boolean().notNull().default(true),
  emailMarketing: boolean().notNull().default(false),
  pushTagScanned: boolean().notNull().default(true),
  pushMessageReceived: boolean().notNull().default(true),
  pushStatusChange: boolean().notNull().default(true),
  /** Lost-pet alerts from the area the user watches (docs/alerts.md). */
  emailLostPetNearby: boolean().notNull().default(true),
  pushLostPetNearby: boolean().notNull().default(true),
  /** "HH:MM" local times; both set means quiet hours are on (they may wrap midnight). */
  quietHoursStart: text(),
  quietHoursEnd: text(),
  /**
   * The owner's IANA time zone: pages show times in it and quiet hours are kept in it. Null until they
   * choose one (pages then follow their browser's zone); quiet hours always come with one.
   */
  timeZone: text(),
  updatedAt: ts()
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
});

/** A browser's web-push subscription; `sessionId` ties it to the device that made it. */
export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sessionId: uuid().references(() => sessions.id, { onDelete: "set null" }),
    endpoint: text().notNull().unique(),
    p256dh: text().notNull(),
    auth: text().notNull(),
    userAgent: text(),
    createdAt: ts().notNull().defaultNow(),
    lastSuccessAt: ts(),
  },
  (table) => [index("push_subscriptions_user_idx").on(table.userId)],
);

export type Notification = typeof notifications.$inferSelect;
