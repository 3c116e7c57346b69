import { asc, eq } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { toApiKeyView } from "./api-keys";

/** The account export's sessions: every session of the user, revoked ones included. */
export async function exportSessions(db: Executor, userId: string) {
  const rows = await db.select().from(schema.sessions).where(eq(schema.sessions.userId, userId)).orderBy(asc(schema.sessions.createdAt));
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    userAgent: row.userAgent,
    ipAddress: row.ipAddress,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
  }));
}

/** The account export's API keys: never the key or its hash, only what identifies it. */
export async function exportApiKeys(db: Executor, userId: string) {
  const rows = await db.select().from(schema.apiKeys).where(eq(schema.apiKeys.userId, userId)).orderBy(asc(schema.apiKeys.createdAt));
  return rows.map((row) => ({ ...toApiKeyView(row), revokedAt: row.revokedAt?.toISOString() ?? null }));
}
