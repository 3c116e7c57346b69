import { sql } from "drizzle-orm";
import { boolean, index, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export const userRole = pgEnum("user_role", ["USER", "ADMIN", "SUPER_ADMIN"]);
export const subscriptionTier = pgEnum("subscription_tier", ["FREE", "PRO", "PREMIUM"]);

const timestamps = {
  createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true, precision: 3 })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

export const users = pgTable(
  "users",
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Stored lower-cased; unique. */
    email: text().notNull(),
    passwordHash: text().notNull(),
    firstName: text().notNull(),
    lastName: text().notNull(),
    phone: text(),
    role: userRole().notNull().default("USER"),
    emailVerified: boolean().notNull().default(false),
    twoFactorEnabled: boolean().notNull().default(false),
    subscription: subscriptionTier().notNull().default("FREE"),
    suspendedAt: timestamp({ withTimezone: true, precision: 3 }),
    ...timestamps,
  },
  (table) => [uniqueIndex("users_email_key").on(sql`lower(${table.email})`), index("users_created_at_idx").on(table.createdAt)],
);

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export { timestamps };
