import { and, desc, eq, isNull } from "drizzle-orm";
import { schema } from "@/db/client";
import { env } from "@/lib/env";
import { hashToken, randomBase62 } from "@/lib/auth/tokens";
import { NotFoundError, ValidationError } from "@/lib/services/errors";
import { requireUser, type ServiceContext } from "@/lib/services/context";
import { revokeApiKeysWhere } from "./queries";

const PREFIX_BY_ENV = { live: "tag_live_", test: "tag_test_", development: "tag_dev_" } as const;
const KEY_RANDOM_LENGTH = 40;

export function apiKeyPrefix(): string {
  return PREFIX_BY_ENV[env.API_KEY_ENV];
}

export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  last4: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
}

export function toApiKeyView(row: typeof schema.apiKeys.$inferSelect): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    last4: row.last4,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}

/** POST /auth/api-keys: the key is returned this once and stored hashed. */
export async function createApiKey(ctx: ServiceContext, input: { name: string; expiresAt?: Date }) {
  const { userId } = requireUser(ctx);
  if (input.expiresAt && input.expiresAt.getTime() <= Date.now()) throw ValidationError.field("expiresAt", "The expiry must be in the future.");
  const prefix = apiKeyPrefix();
  const key = `${prefix}${randomBase62(KEY_RANDOM_LENGTH)}`;
  const [row] = await ctx.db
    .insert(schema.apiKeys)
    .values({ userId, name: input.name, prefix, keyHash: hashToken(key), last4: key.slice(-4), expiresAt: input.expiresAt ?? null })
    .returning();
  if (!row) throw new Error("api key insert returned nothing");
  const { id, name, createdAt, expiresAt } = toApiKeyView(row);
  return { id, name, key, prefix, createdAt, expiresAt };
}

/** GET /auth/api-keys: the caller's keys that are not revoked. */
export async function listApiKeys(ctx: ServiceContext): Promise<ApiKeyView[]> {
  const { userId } = requireUser(ctx);
  const rows = await ctx.db
    .select()
    .from(schema.apiKeys)
    .where(and(eq(schema.apiKeys.userId, userId), isNull(schema.apiKeys.revokedAt)))
    .orderBy(desc(schema.apiKeys.createdAt));
  return rows.map(toApiKeyView);
}

/** DELETE /auth/api-keys/:id. */
export async function revokeApiKey(ctx: ServiceContext, id: string): Promise<{ message: string }> {
  const { userId } = requireUser(ctx);
  const revoked = await revokeApiKeysWhere(ctx.db, and(eq(schema.apiKeys.id, id), eq(schema.apiKeys.userId, userId)));
  if (!revoked.length) throw new NotFoundError("API key not found.");
  return { message: "API key revoked." };
}

