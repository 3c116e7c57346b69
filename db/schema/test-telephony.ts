import { index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

const ts = () => timestamp({ withTimezone: true, precision: 3 });

/**
 * The test telephony provider's calls (lib/telephony/test-network.ts, docs/relay.md "The development
 * phone"): one row per leg, the finder's inbound call and the owner's leg its <Dial> rings (parentSid).
 * The state lives here, not in memory, so two app instances play one network. Every step claims the row
 * by its `version` before it posts a webhook, so two simultaneous presses cannot both act. The app never
 * reads this table.
 */
export const testTelephonyCalls = pgTable(
  "test_telephony_calls",
  {
    sid: text().primaryKey(),
    parentSid: text(),
    from: text().notNull(),
    to: text().notNull(),
    /** gathering | dialing | ringing | whisper | connected | busy (a webhook in flight) | ended */
    status: text().notNull(),
    /** What the leg heard and what happened, in order: [{ kind: "say" | "event", text, language? }]. */
    transcript: jsonb().notNull().default([]),
    /** The waiting <Gather> (gathering, whisper) or <Dial> (dialing, connected), and the verbs after it. */
    waiting: jsonb(),
    endStatus: text(),
    version: integer().notNull().default(0),
    connectedAt: ts(),
    endedAt: ts(),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts().notNull().defaultNow(),
  },
  (table) => [index("test_telephony_calls_from_idx").on(table.from, table.createdAt), index("test_telephony_calls_to_idx").on(table.to, table.createdAt), index("test_telephony_calls_parent_idx").on(table.parentSid)],
);

export type TestTelephonyCall = typeof testTelephonyCalls.$inferSelect;
