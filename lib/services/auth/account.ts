import { asc, eq } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { requireUser, withTransaction, type ServiceContext } from "@/lib/services/context";
import { NotFoundError } from "@/lib/services/errors";
import { exportThreads } from "@/lib/services/messages/export";
import { exportEmergency } from "@/lib/services/emergency/export";
import { exportRewards } from "@/lib/services/rewards/export";
import { exportNotifications } from "@/lib/services/notifications/export";
import { exportBlockedUsers, exportReports } from "@/lib/services/reports/export";
import { exportTags } from "@/lib/services/tags/export";
import { toApiKeyView } from "./api-keys";
import { verifyCurrentPassword } from "./password";
import type { PublicUser } from "./schemas";
import { toPublicUser } from "./users";
import { getUserById } from "./queries";

export interface UpdateMeInput {
  firstName?: string;
  lastName?: string;
  /** `null` (or an empty string) clears it. */
  phone?: string | null;
}

export type UpdatedMe = Pick<PublicUser, "id" | "email" | "firstName" | "lastName" | "phone">;

/** GET /auth/me: the full User resource. */
export async function getMe(ctx: ServiceContext): Promise<PublicUser> {
  const { userId } = requireUser(ctx);
  // route() loaded the account with the credential moments ago, in this request: no second read.
  return toPublicUser(ctx.user?.id === userId ? ctx.user : await getUserById(ctx.db, userId));
}

/**
 * PATCH /auth/me: name and phone only. Whatever else a body carries (role, emailVerified,
 * subscription …) never reaches this function: the input type has no room for it.
 */
export async function updateMe(ctx: ServiceContext, input: UpdateMeInput): Promise<UpdatedMe> {
  const { userId } = requireUser(ctx);
  const changes: Partial<Pick<typeof schema.users.$inferInsert, "firstName" | "lastName" | "phone">> = {};
  if (input.firstName !== undefined) changes.firstName = input.firstName;
  if (input.lastName !== undefined) changes.lastName = input.lastName;
  if (input.phone !== undefined) changes.phone = input.phone === null || input.phone.trim() === "" ? null : input.phone.trim();

  let user;
  if (Object.keys(changes).length > 0) {
    [user] = await ctx.db.update(schema.users).set(changes).where(eq(schema.users.id, userId)).returning();
    if (!user) throw new NotFoundError("User not found.");
  } else {
    user = await getUserById(ctx.db, userId);
  }
  return { id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName, phone: user.phone };
}

/**
 * DELETE /auth/me: needs the current password (401 when wrong). Deleting the user row removes
 * everything it owns in the same statement: every user-owned table references users with
 * ON DELETE CASCADE (sessions, refresh tokens, API keys, tokens, 2FA, and each later domain's rows).
 */
export async function deleteMe(ctx: ServiceContext, input: { currentPassword: string }): Promise<{ message: string }> {
  const { userId } = requireUser(ctx);
  const user = await getUserById(ctx.db, userId);
  await verifyCurrentPassword(ctx, user, input.currentPassword);
  await withTransaction(ctx, async (tx) => {
    const deleted = await tx.db.delete(schema.users).where(eq(schema.users.id, userId)).returning({ id: schema.users.id });
    if (!deleted.length) throw new NotFoundError("User not found.");
  });
  return { message: "Your account and all its data have been permanently deleted." };
}

/** One part of the data export: the rows of one domain that belong to the user, as plain JSON values. */
type ExportSection = (db: Executor, userId: string) => Promise<unknown[]>;

const notYetStored: ExportSection = async () => [];

/**
 * What GET /auth/me/export returns besides `user` and `exportedAt`. Each domain that stores data
 * for a user adds (or fills in) its one entry here; the specification requires tags, orders,
 * messages and notifications, and allows more.
 */
const exportSections = {
  tags: exportTags,
  orders: notYetStored,
  messages: exportThreads,
  notifications: exportNotifications,
  emergency: exportEmergency,
  rewards: exportRewards,
  reports: exportReports,
  blockedUsers: exportBlockedUsers,
  sessions: async (db, userId) => {
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
  },
  apiKeys: async (db, userId) => {
    // Never the key or its hash: only what identifies it.
    const rows = await db.select().from(schema.apiKeys).where(eq(schema.apiKeys.userId, userId)).orderBy(asc(schema.apiKeys.createdAt));
    return rows.map((row) => ({ ...toApiKeyView(row), revokedAt: row.revokedAt?.toISOString() ?? null }));
  },
} satisfies Record<string, ExportSection>;

export type AccountExport = { user: PublicUser; exportedAt: string } & {
  [K in keyof typeof exportSections]: Awaited<ReturnType<(typeof exportSections)[K]>>;
};

/** GET /auth/me/export: everything the account owns, read in one transaction so the parts agree. */
export async function exportMe(ctx: ServiceContext): Promise<AccountExport> {
  const { userId } = requireUser(ctx);
  return withTransaction(ctx, async (tx) => {
    const user = toPublicUser(await getUserById(tx.db, userId));
    const sections: Record<string, unknown[]> = {};
    for (const [name, read] of Object.entries(exportSections) as [keyof typeof exportSections, ExportSection][]) {
      sections[name] = await read(tx.db, userId);
    }
    return { user, ...(sections as Omit<AccountExport, "user" | "exportedAt">), exportedAt: new Date().toISOString() };
  });
}
