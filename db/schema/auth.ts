import { index, integer, pgEnum, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

const ts = () => timestamp({ withTimezone: true, precision: 3 });

export const sessionKind = pgEnum("session_kind", ["API", "WEB"]);

/** One row per sign-in, API or web (next-auth). The truth for "is this session still live". */
export const sessions = pgTable(
  "sessions",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: sessionKind().notNull(),
    userAgent: text(),
    /** Masked at write time (last octet / last 80 bits zeroed); the full address is never stored. */
    ipAddress: text(),
    createdAt: ts().notNull().defaultNow(),
    lastUsedAt: ts().notNull().defaultNow(),
    expiresAt: ts().notNull(),
    revokedAt: ts(),
  },
  (table) => [index("sessions_user_idx").on(table.userId, table.createdAt)],
);

/**
 * Refresh tokens, stored hashed. Each refresh rotates: the presented row gets `rotatedAt` and a new row
 * is issued. Presenting a rotated token again is reuse: the whole session is revoked.
 */
export const refreshTokens = pgTable(
  "refresh_tokens",
  {
    id: uuid().primaryKey().defaultRandom(),
    sessionId: uuid()
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    tokenHash: text().notNull().unique(),
    createdAt: ts().notNull().defaultNow(),
    expiresAt: ts().notNull(),
    rotatedAt: ts(),
  },
  (table) => [index("refresh_tokens_session_idx").on(table.sessionId)],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text().notNull(),
    /** `tag_live_`, `tag_test_` or `tag_dev_`. */
    prefix: text().notNull(),
    keyHash: text().notNull().unique(),
    last4: text().notNull(),
    createdAt: ts().notNull().defaultNow(),
    lastUsedAt: ts(),
    expiresAt: ts(),
    revokedAt: ts(),
  },
  (table) => [index("api_keys_user_idx").on(table.userId, table.createdAt)],
);

export const userTokenPurpose = pgEnum("user_token_purpose", ["EMAIL_VERIFICATION", "PASSWORD_RESET"]);

/** Single-use e-mail verification and password reset tokens, stored hashed. */
export const userTokens = pgTable(
  "user_tokens",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: userTokenPurpose().notNull(),
    tokenHash: text().notNull().unique(),
    createdAt: ts().notNull().defaultNow(),
    expiresAt: ts().notNull(),
    usedAt: ts(),
  },
  (table) => [index("user_tokens_user_idx").on(table.userId, table.purpose)],
);

/** TOTP state per user: the secret is encrypted at rest; `lastTimeStep` refuses a replayed code. */
export const twoFactorSecrets = pgTable("two_factor_secrets", {
  userId: uuid()
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** AES-256-GCM with a key derived from AUTH_SECRET. */
  secretEncrypted: text().notNull(),
  /** Set when verify-2fa confirmed the secret; until then the secret is pending. */
  confirmedAt: ts(),
  lastTimeStep: integer(),
  createdAt: ts().notNull().defaultNow(),
});

export const backupCodes = pgTable(
  "backup_codes",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text().notNull(),
    usedAt: ts(),
    createdAt: ts().notNull().defaultNow(),
  },
  (table) => [index("backup_codes_user_idx").on(table.userId)],
);
