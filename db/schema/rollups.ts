import { bigint, date, pgTable, primaryKey, smallint, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Platform rollups for the admin stats and analytics (docs/decisions/0049-admin-rollups.md). Written only by
 * the database's triggers (migration 0029_rollup_triggers), in the same transaction as the row they count;
 * read by lib/services/admin. Every row is one of 8 shards (the writing transaction's id modulo 8) so
 * concurrent writers do not queue on one row; readers sum the shards.
 *
 * metric / dim: what is counted ("users.total", "tags.status" + "ACTIVE", "orders.revenue" + "USD"); n is a
 * count, amount a sum of minor units where the metric has one (revenue).
 */

/** Totals: the state of a table (users, tags, orders …; follows inserts, updates and deletes) and the
 * events ever recorded (scans, messages; deleting old raw rows does not lower them). */
export const rollupCounters = pgTable(
  "rollup_counters",
  {
    metric: text().notNull(),
    dim: text().notNull().default(""),
    shard: smallint().notNull(),
    n: bigint({ mode: "number" }).notNull().default(0),
    amount: bigint({ mode: "number" }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.metric, table.dim, table.shard] })],
);

/** Events per UTC day: scans by class, suspicious scans, sign-ups, orders placed, orders paid with their
 * revenue per currency, messages sent. Inserts (and a moved date) count; deletes do not. */
export const rollupDays = pgTable(
  "rollup_days",
  {
    day: date().notNull(),
    metric: text().notNull(),
    dim: text().notNull().default(""),
    shard: smallint().notNull(),
    n: bigint({ mode: "number" }).notNull().default(0),
    amount: bigint({ mode: "number" }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.day, table.metric, table.dim, table.shard] })],
);

/** Scans per hour, for the stats' rolling windows (last 24 hours, last 7 days). Rows older than the
 * longest window are no longer read and may be pruned. */
export const rollupHours = pgTable(
  "rollup_hours",
  {
    hour: timestamp({ withTimezone: true, precision: 3 }).notNull(),
    metric: text().notNull(),
    shard: smallint().notNull(),
    n: bigint({ mode: "number" }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.hour, table.metric, table.shard] })],
);
