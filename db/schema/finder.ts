import { sql } from "drizzle-orm";
import { boolean, check, doublePrecision, index, integer, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { foundReports, lostPetAlerts } from "./alerts";
import { tags } from "./tags";
import { users } from "./users";

const ts = () => timestamp({ withTimezone: true, precision: 3 });

export const threadStatus = pgEnum("thread_status", ["ACTIVE", "CLOSED", "BLOCKED"]);
export const messageSender = pgEnum("message_sender", ["FINDER", "OWNER"]);
/** How a message came: the web pages and API, a relayed text, or a relayed call (docs/relay.md). */
export const messageChannel = pgEnum("message_channel", ["web", "sms", "call"]);

/**
 * A finder's anonymous conversation with a tag's owner. The finder reaches it only by the thread token
 * (256-bit random, stored as a keyed hash); the owner through the inbox. `ownerId` is the owner at the
 * time of contact. `finderEmail` is only for telling the finder of replies and never reaches the owner.
 */
export const threads = pgTable(
  "threads",
  {
    id: uuid().primaryKey().defaultRandom(),
    tagId: uuid()
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
    ownerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text().notNull(),
    finderName: text(),
    finderEmail: text(),
    /**
     * The thread token sealed (AES-GCM, lib/auth/tokens.ts sealText), kept only when the finder left an
     * e-mail address: the reply e-mail must carry the thread link long after the token was shown.
     */
    tokenSealed: text(),
    /** Set when the finder contacted with a valid credential (lets the owner block and report them). */
    finderUserId: uuid().references(() => users.id, { onDelete: "set null" }),
    /** Keyed hash of the finder's IP at contact time. */
    finderIpHash: text(),
    /** The finder's language (Accept-Language at contact), for the reply e-mail. */
    finderLocale: text(),
    status: threadStatus().notNull().default("ACTIVE"),
    /** Last time the finder was e-mailed about an owner reply (at most one per 10 minutes). */
    finderNotifiedAt: ts(),
    /** When the one "e-mail me this link" e-mail of this conversation was sent (the address is not confirmed). */
    linkEmailedAt: ts(),
    /**
     * A conversation the phone relay opened (docs/relay.md): the finder's number as a keyed hash (found by
     * it; blocking the conversation blocks the number) and its last 2 digits (all the owner sees). The
     * number itself is sealed only while the owner may still text back (finderPhoneUntil, 7 days after the
     * finder's last text), then erased by the relay's sweep.
     */
    finderPhoneHash: text(),
    finderPhoneLastDigits: text(),
    finderPhoneSealed: text(),
    finderPhoneUntil: ts(),
    /** The conversation's 4-character code an owner starts a text with to pick it among several open ones. */
    relayCode: text(),
    lastMessageAt: ts().notNull().defaultNow(),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts()
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [
    uniqueIndex("threads_token_hash_key").on(table.tokenHash),
    index("threads_owner_last_id_idx").on(table.ownerId, table.lastMessageAt, table.id),
    index("threads_tag_idx").on(table.tagId),
    index("threads_finder_phone_idx").on(table.ownerId, table.finderPhoneHash).where(sql`${table.finderPhoneHash} is not null`),
    uniqueIndex("threads_owner_relay_code_key").on(table.ownerId, table.relayCode).where(sql`${table.relayCode} is not null`),
  ],
);

export const threadMessages = pgTable(
  "thread_messages",
  {
    id: uuid().primaryKey().defaultRandom(),
    threadId: uuid()
      .notNull()
      .references(() => threads.id, { onDelete: "cascade" }),
    sender: messageSender().notNull(),
    content: text().notNull(),
    /**
     * A location the finder shared in the conversation (POST /scan/thread/:token/location), with consent:
     * degrees (WGS 84) and the radius of its uncertainty in metres. Null on a written message.
     */
    latitude: doublePrecision(),
    longitude: doublePrecision(),
    accuracy: doublePrecision(),
    channel: messageChannel().notNull().default("web"),
    /** A relayed call: answered or missed, and how long it lasted (seconds) when answered. */
    callOutcome: text(),
    callSeconds: integer(),
    /** When the other side read it (owner inbox: finder messages; thread page: owner messages). */
    readAt: ts(),
    createdAt: ts().notNull().defaultNow(),
  },
  (table) => [
    index("thread_messages_thread_idx").on(table.threadId, table.createdAt),
    index("thread_messages_unread_idx").on(table.threadId).where(sql`${table.readAt} is null`),
    // The retention run erases shared places after RETENTION_FINDER_TRACES_DAYS: only those still held.
    index("thread_messages_place_created_idx").on(table.createdAt).where(sql`${table.latitude} is not null`),
    // A place is both coordinates or none; an accuracy belongs to a place.
    check("thread_messages_location_whole", sql`(${table.latitude} is null) = (${table.longitude} is null) and (${table.accuracy} is null or ${table.latitude} is not null)`),
  ],
);

/** One per user: what a first responder reads through any of the user's tags. */
export const emergencyProfiles = pgTable("emergency_profiles", {
  userId: uuid()
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  bloodType: text(),
  conditions: text().array().notNull().default(sql`'{}'::text[]`),
  allergies: text().array().notNull().default(sql`'{}'::text[]`),
  medications: text().array().notNull().default(sql`'{}'::text[]`),
  physician: text(),
  physicianPhone: text(),
  specialInstructions: text(),
  organDonor: boolean(),
  createdAt: ts().notNull().defaultNow(),
  updatedAt: ts()
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
});

export const emergencyContacts = pgTable(
  "emergency_contacts",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text().notNull(),
    relationship: text().notNull(),
    phone: text().notNull(),
    email: text(),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts()
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [index("emergency_contacts_user_idx").on(table.userId, table.createdAt)],
);

/** Every read of a user's emergency profile through a tag: when, roughly where, from which tag. */
export const emergencyAccesses = pgTable(
  "emergency_accesses",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tagId: uuid().references(() => tags.id, { onDelete: "set null" }),
    ipHash: text(),
    city: text(),
    country: text(),
    agent: text(),
    accessedAt: ts().notNull().defaultNow(),
  },
  (table) => [
    index("emergency_accesses_user_accessed_id_idx").on(table.userId, table.accessedAt, table.id),
    // The retention run erases the IP hash after RETENTION_FINDER_TRACES_DAYS: only rows still holding one.
    index("emergency_accesses_ip_hash_idx").on(table.accessedAt).where(sql`${table.ipHash} is not null`),
  ],
);

/** VIN_CONFLICT is filed by the system only (a VIN claimed by a second vehicle tag), never by a user. */
export const reportType = pgEnum("report_type", ["SPAM", "HARASSMENT", "INAPPROPRIATE", "SCAM", "OTHER", "VIN_CONFLICT"]);
export const reportStatus = pgEnum("report_status", ["OPEN", "REVIEWING", "RESOLVED", "DISMISSED"]);
export const reportAction = pgEnum("report_action", ["WARN_USER", "SUSPEND_USER", "DEACTIVATE_TAG", "DELETE_MESSAGE", "DISMISS", "REMOVE_ALERT", "REMOVE_FOUND_REPORT"]);

export const reports = pgTable(
  "reports",
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Null for a report the system filed (VIN_CONFLICT): no user reported anything. */
    reporterId: uuid().references(() => users.id, { onDelete: "cascade" }),
    type: reportType().notNull(),
    status: reportStatus().notNull().default("OPEN"),
    description: text().notNull(),
    targetUserId: uuid().references(() => users.id, { onDelete: "set null" }),
    tagId: uuid().references(() => tags.id, { onDelete: "set null" }),
    messageId: uuid().references(() => threadMessages.id, { onDelete: "set null" }),
    /** The reported thread (kept when its message is deleted by an admin action). */
    threadId: uuid().references(() => threads.id, { onDelete: "set null" }),
    /** VIN_CONFLICT: the VIN claimed twice; tagId/targetUserId hold it, relatedTagId/relatedUserId were refused it. */
    vin: text(),
    /** A reported lost-pet alert or found-animal report (docs/alerts.md). */
    alertId: uuid().references(() => lostPetAlerts.id, { onDelete: "set null" }),
    foundReportId: uuid().references(() => foundReports.id, { onDelete: "set null" }),
    relatedTagId: uuid().references(() => tags.id, { onDelete: "set null" }),
    relatedUserId: uuid().references(() => users.id, { onDelete: "set null" }),
    adminNote: text(),
    action: reportAction(),
    resolvedById: uuid().references(() => users.id, { onDelete: "set null" }),
    resolvedAt: ts(),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts()
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [
    index("reports_reporter_idx").on(table.reporterId, table.createdAt),
    index("reports_status_created_idx").on(table.status, table.createdAt),
    index("reports_target_idx").on(table.targetUserId),
    // Repeated refused claims of one VIN by the same tag add nothing to review: one open report per pair.
    // Only VIN_CONFLICT reports carry a VIN; the predicate cannot name the new enum value (the migration adding
    // it may not use it in the same transaction).
    uniqueIndex("reports_open_vin_conflict_key")
      .on(table.vin, table.tagId, table.relatedTagId)
      .where(sql`${table.vin} is not null and ${table.status} in ('OPEN', 'REVIEWING')`),
  ],
);

export const userBlocks = pgTable(
  "user_blocks",
  {
    blockerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    blockedId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: ts().notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.blockerId, table.blockedId] }), index("user_blocks_blocked_idx").on(table.blockedId)],
);

export type Thread = typeof threads.$inferSelect;
export type ThreadMessage = typeof threadMessages.$inferSelect;
export type Report = typeof reports.$inferSelect;
