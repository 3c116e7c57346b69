import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
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

export type OwnerPhone = typeof ownerPhones.$inferSelect;
export type TagRelay = typeof tagRelays.$inferSelect;
export type TestTelephonyDelivery = typeof testTelephonyDeliveries.$inferSelect;
