import { sql } from "drizzle-orm";
import { boolean, index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { threads } from "./finder";
import { tags } from "./tags";
import { users } from "./users";

const ts = () => timestamp({ withTimezone: true, precision: 3 });

export const rewardStatus = pgEnum("reward_status", ["ACTIVE", "RETURNED", "PAID", "DISPUTED"]);
/**
 * How a return was confirmed: with one finder's handover code, by the owner choosing the finder's
 * conversation, or by the owner alone (no finder named).
 */
export const rewardReturnConfirmation = pgEnum("reward_return_confirmation", ["HANDOVER_CODE", "OWNER_CHOSE_FINDER", "OWNER"]);

/**
 * A reward an owner offers for a tag's return (docs/decisions/0022-reward-state-machine.md). Money in integer minor units.
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
    handoverFailures: integer().notNull().default(0),
    verifiedHandover: boolean().notNull().default(false),
    /** Once returned: how the return was confirmed (null on returns confirmed before this was recorded: read verifiedHandover). */
    returnConfirmation: rewardReturnConfirmation(),
    /** Once returned with a finder named: that finder's conversation, the only one thanked and given the certificate. */
    finderThreadId: uuid().references(() => threads.id, { onDelete: "set null" }),
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
    index("rewards_owner_created_id_idx").on(table.ownerId, table.createdAt, table.id),
    index("rewards_tag_idx").on(table.tagId),
  ],
);

export type Reward = typeof rewards.$inferSelect;

/**
 * One finder's handover code for one reward: each conversation on a tag with an open reward gets its own,
 * shown only to that conversation's token, so a confirmation with it names that finder. The code is
 * stored sealed (the finder's page shows it again) and as a keyed hash, unique per reward, to find the
 * conversation a code belongs to.
 */
export const rewardHandovers = pgTable(
  "reward_handovers",
  {
    id: uuid().primaryKey().defaultRandom(),
    rewardId: uuid()
      .notNull()
      .references(() => rewards.id, { onDelete: "cascade" }),
    threadId: uuid()
      .notNull()
      .references(() => threads.id, { onDelete: "cascade" }),
    codeSealed: text().notNull(),
    codeHash: text().notNull(),
    createdAt: ts().notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("reward_handovers_reward_thread_key").on(table.rewardId, table.threadId),
    uniqueIndex("reward_handovers_reward_code_key").on(table.rewardId, table.codeHash),
    index("reward_handovers_thread_idx").on(table.threadId),
  ],
);

export type RewardHandover = typeof rewardHandovers.$inferSelect;
