import { sql } from "drizzle-orm";
import { boolean, index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tags } from "./tags";
import { users } from "./users";

const ts = () => timestamp({ withTimezone: true, precision: 3 });

export const rewardStatus = pgEnum("reward_status", ["ACTIVE", "RETURNED", "PAID", "DISPUTED"]);

/**
 * A reward an owner offers for a tag's return (decisions.md "Rewards"). Money in integer minor units.
 * At most one ACTIVE or RETURNED reward per tag and owner, enforced by a partial unique index so concurrent
 * offers cannot both land. The finder's handover code is stored sealed (AES-GCM) and never answered to the owner.
 */
export const rewards = pgTable(
  "rewards",
  {
    id: uuid().primaryKey().defaultRandom(),
    tagId: uuid()
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
    ownerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    amountMinor: integer().notNull(),
    currency: text().notNull().default("USD"),
    description: text(),
    status: rewardStatus().notNull().default("ACTIVE"),
    paymentRef: text(),
    paidAt: ts(),
    disputeReason: text(),
    returnedAt: ts(),
    /** Unguessable public id of the return certificate, set on return. */
    certificateId: text(),
    /** The finder's one-time 6-digit handover code, sealed; cleared once used. */
    handoverCodeSealed: text(),
    handoverFailures: integer().notNull().default(0),
    verifiedHandover: boolean().notNull().default(false),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts()
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [
    // Per owner: after a transfer the previous owner may still owe a RETURNED reward while the new owner offers theirs.
    uniqueIndex("rewards_one_open_per_tag_owner").on(table.tagId, table.ownerId).where(sql`${table.status} in ('ACTIVE', 'RETURNED')`),
    uniqueIndex("rewards_certificate_id_key").on(table.certificateId),
    index("rewards_owner_created_idx").on(table.ownerId, table.createdAt),
    index("rewards_tag_idx").on(table.tagId),
  ],
);

export type Reward = typeof rewards.$inferSelect;
