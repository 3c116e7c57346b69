import type { Executor } from "@/db/client";
import { exportAlertArea, exportLostPetAlerts } from "@/lib/services/alerts";
import { exportApiKeys, exportSessions, getUserById, type PublicUser, toPublicUser } from "@/lib/services/auth";
import { requireUser, withTransaction, type ServiceContext } from "@/lib/services/context";
import { exportEmergency } from "@/lib/services/emergency";
import { exportThreads } from "@/lib/services/messages";
import { exportNotifications } from "@/lib/services/notifications";
import { exportFoundReports, exportOrganisation } from "@/lib/services/organisations";
import { exportRelayPhone, exportTagRelays } from "@/lib/services/relay";
import { exportBlockedUsers, exportReports } from "@/lib/services/reports";
import { exportRewards } from "@/lib/services/rewards";
import { exportTags } from "@/lib/services/tags";

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
  sessions: exportSessions,
  apiKeys: exportApiKeys,
  relayPhone: exportRelayPhone,
  tagRelays: exportTagRelays,
  alertArea: exportAlertArea,
  lostPetAlerts: exportLostPetAlerts,
  organisation: exportOrganisation,
  foundReports: exportFoundReports,
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
