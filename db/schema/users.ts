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
  (table) => [
    uniqueIndex("users_email_key").on(sql`lower(${table.email})`),
    index("users_created_id_idx").on(table.createdAt, table.id),
    // The admin user search (lib/services/admin/users.ts): ILIKE '%…%' on the e-mail address and on the full
    // name, written exactly as the query writes it, through pg_trgm's GIN operator class; a search of one or
    // two characters (too short for trigrams) matches the start of the address through the prefix index.
    index("users_email_trgm_idx").using("gin", sql`${table.email} gin_trgm_ops`),
    index("users_name_trgm_idx").using("gin", sql`(${table.firstName} || ' ' || ${table.lastName}) gin_trgm_ops`),
    index("users_email_prefix_idx").on(sql`lower(${table.email}) text_pattern_ops`),
  ],
);

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export { timestamps };
