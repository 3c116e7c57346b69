import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** Messages delivered by the outbox e-mail transport: what the development mailbox reads. */
export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: uuid().primaryKey().defaultRandom(),
    to: text().notNull(),
    from: text().notNull(),
    subject: text().notNull(),
    text: text().notNull(),
    html: text().notNull(),
    template: text(),
    /** Extra headers sent with the message (List-Unsubscribe on newsletter mail), as the provider received them. */
    headers: jsonb().$type<Record<string, string>>(),
    createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (table) => [index("email_outbox_to_created_idx").on(table.to, table.createdAt)],
);

export type OutboxEmail = typeof emailOutbox.$inferSelect;
