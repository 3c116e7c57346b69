import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { threads } from "./finder";
import { tags } from "./tags";
import { users } from "./users";

const ts = () => timestamp({ withTimezone: true, precision: 3 });

/**
 * An owner's verified phone number for the relay (docs/relay.md): sealed (the relay dials it), a keyed
 * hash (an owner texting the relay is found by it; one verified owner per number) and the last 2 digits
 * (all any page shows).
 */
export const ownerPhones = pgTable(
  "owner_phones",
  {
    userId: uuid()
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    phoneSealed: text().notNull(),
    phoneHash: text().notNull(),
    lastDigits: text().notNull(),
    verifiedAt: ts().notNull().defaultNow(),
  },
  (table) => [uniqueIndex("owner_phones_phone_hash_key").on(table.phoneHash)],
);

/** The code an owner is proving a number with: one per user, replaced by each new request; the code only as a hash. */
export const phoneVerifications = pgTable("phone_verifications", {
  userId: uuid()
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  phoneSealed: text().notNull(),
  phoneHash: text().notNull(),
  lastDigits: text().notNull(),
  codeHash: text().notNull(),
  attempts: integer().notNull().default(0),
  expiresAt: ts().notNull(),
  consumedAt: ts(),
  createdAt: ts().notNull().defaultNow(),
});

/**
 * A tag's relay setting. `ownerId` is the owner who set it: a tag that changes hands reads as off for the
 * new owner (and is never resolved) until they set it themselves. The PIN is unique among enabled rows.
 */
export const tagRelays = pgTable(
  "tag_relays",
  {
    tagId: uuid()
      .primaryKey()
      .references(() => tags.id, { onDelete: "cascade" }),
    ownerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    enabled: boolean().notNull().default(false),
    /** 6 digits; kept while off, so turning the relay back on keeps it when it is still free. */
    pin: text(),
    /** "HH:MM" in the owner's time zone; both or neither. */
    quietFrom: text(),
    quietTo: text(),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts()
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [uniqueIndex("tag_relays_active_pin_key").on(table.pin).where(sql`${table.enabled}`), index("tag_relays_owner_idx").on(table.ownerId)],
);

/**
 * What the built-in test telephony provider "delivered" (lib/telephony/test-provider.ts): texts sent and,
 * later, calls bridged. The app never reads it; the development phone (GET /api/dev/phone) does.
 */
export const testTelephonyDeliveries = pgTable(
  "test_telephony_deliveries",
  {
    id: uuid().primaryKey().defaultRandom(),
    sid: text().notNull(),
    /** sms | call */
    kind: text().notNull(),
    from: text().notNull(),
    to: text().notNull(),
    body: text(),
    createdAt: ts().notNull().defaultNow(),
  },
  (table) => [uniqueIndex("test_telephony_deliveries_sid_key").on(table.sid), index("test_telephony_deliveries_to_idx").on(table.to, table.createdAt), index("test_telephony_deliveries_from_idx").on(table.from, table.createdAt)],
);

/**
 * The relay's webhooks already answered (docs/relay.md): by the provider's sid (CallSid, MessageSid) and
 * the step of the call, with the TwiML answered, so a replay gets the same answer and has no second effect.
 */
export const relayWebhookEvents = pgTable(
  "relay_webhook_events",
  {
    sid: text().notNull(),
    step: text().notNull(),
    answer: text().notNull(),
    createdAt: ts().notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.sid, table.step] }), index("relay_webhook_events_created_idx").on(table.createdAt)],
);

/** A call through the relay, from the valid PIN on: what the whisper and the status webhook need. */
export const relayCalls = pgTable(
  "relay_calls",
  {
    id: uuid().primaryKey().defaultRandom(),
    callSid: text().notNull(),
    tagId: uuid()
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
    ownerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    threadId: uuid()
      .notNull()
      .references(() => threads.id, { onDelete: "cascade" }),
    /** answered | missed, once the status webhook came. */
    outcome: text(),
    durationSeconds: integer(),
    createdAt: ts().notNull().defaultNow(),
  },
  (table) => [uniqueIndex("relay_calls_call_sid_key").on(table.callSid)],
);

/** Numbers that texted STOP: no relayed text goes to them until they text START (keyed hash only). */
export const relayOptOuts = pgTable("relay_opt_outs", {
  phoneHash: text().primaryKey(),
  createdAt: ts().notNull().defaultNow(),
});

/** Relayed texts and calls per UTC day, against the global daily cap; when the admins were alerted that day. */
export const relayDailyUsage = pgTable("relay_daily_usage", {
  day: text().primaryKey(),
  count: integer().notNull().default(0),
  alertedAt: ts(),
});

export type OwnerPhone = typeof ownerPhones.$inferSelect;
export type TagRelay = typeof tagRelays.$inferSelect;
export type TestTelephonyDelivery = typeof testTelephonyDeliveries.$inferSelect;
export type RelayCall = typeof relayCalls.$inferSelect;
