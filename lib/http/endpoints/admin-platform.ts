import { z } from "zod";
import { adminStatsSchema, adminUserFilters, adminUserSchema, analyticsDaySchema, analyticsQuery, auditEntrySchema, auditLogFilters, updateAdminUserInput } from "@/lib/services/admin";
import { defineEndpoint } from "../endpoint";
import { cursorPaginationQuery } from "../pagination";
import { idParams } from "../params";

const admin = ["Admin"];

/** The admin platform: platform totals, user management, daily analytics and the audit log. */
export const adminPlatformEndpoints = {
  stats: defineEndpoint({
    operationId: "getPlatformStats",
    method: "GET",
    path: "/api/v1/admin/stats",
    summary: "Platform totals (admin)",
    description:
      "Read from counters kept by triggers. users: total, verified (e-mail confirmed), suspended, twoFactor, admins (ADMIN or SUPER_ADMIN), byTier {FREE, PRO, PREMIUM}, newLast7Days. tags: total, owned, unowned (minted inventory), byStatus {status: count} (statuses with no tag are absent). scans: total and suspicious (ever recorded, deletions aside), last24h, last7Days. orders: total, pending, paid (a payment was recorded, whatever happened later), toShip (CONFIRMED or PROCESSING), revenue [{ currency, amount }] (gross of paid orders, major units, per currency). subscriptions.active (ACTIVE or PAST_DUE). messages: threads, activeThreads, messages (ever sent). reports: open (OPEN or REVIEWING), total. newsletter: confirmed, pending. generatedAt.",
    tags: admin,
    auth: "admin",
    response: adminStatsSchema,
  }),
  users: defineEndpoint({
    operationId: "listUsers",
    method: "GET",
    path: "/api/v1/admin/users",
    summary: "Users (admin)",
    description:
      "Every account, newest first, paginated. `search` is a case-insensitive part of the e-mail address or of the name (\"first last\"); `%` and `_` in it match themselves. `role` (USER, ADMIN, SUPER_ADMIN) and `suspended` (true or false) narrow the list; other values are 400. Each user carries tagCount (tags owned).",
    tags: admin,
    auth: "admin",
    query: cursorPaginationQuery.extend(adminUserFilters.shape),
    response: adminUserSchema,
    responseKind: "paginated",
  }),
  updateUser: defineEndpoint({
    operationId: "updateUser",
    method: "PATCH",
    path: "/api/v1/admin/users/{id}",
    summary: "Change a user's role or suspension (admin)",
    description:
      "`role` is for SUPER_ADMIN callers only (an ADMIN sending it is 403). No one changes their own role or suspends themselves (403). An ADMIN suspends or unsuspends USERs only, a SUPER_ADMIN admins too; no one suspends a SUPER_ADMIN (403), though a SUPER_ADMIN may lift the suspension of an account promoted while suspended. Suspending revokes every session and API key at once: the user's credentials answer 403 from the next request on. Unsuspending lets the user sign in again; the revoked sessions and keys stay revoked. Demoting the last SUPER_ADMIN is 409. Each call is written to the audit log (`user.update`, role and suspendedAt before and after) and a change is sent to the user as a SECURITY notification. Answers the updated user.",
    tags: admin,
    auth: "admin",
    params: idParams,
    body: updateAdminUserInput,
    response: adminUserSchema,
    errors: ["CONFLICT", "FORBIDDEN"],
  }),
  analytics: defineEndpoint({
    operationId: "getAnalytics",
    method: "GET",
    path: "/api/v1/admin/analytics",
    summary: "Daily analytics (admin)",
    description:
      "One row per UTC day from `from` to `to` (both included, YYYY-MM-DD), days without activity as zeros: scans, signups (accounts created), orders (placed that day), paidOrders (paid that day) and revenue (totals of the orders paid that day, per currency, in major units; gross, so a later refund leaves the day as it was; subscription payments are not included). Past days stay as recorded when rows are deleted later. Defaults: the 30 days up to today. `from` after `to`, a range over 366 days, or a malformed date is 400.",
    tags: admin,
    auth: "admin",
    query: analyticsQuery,
    response: z.array(analyticsDaySchema),
  }),
  auditLog: defineEndpoint({
    operationId: "listAuditLog",
    method: "GET",
    path: "/api/v1/admin/audit-log",
    summary: "Audit log (super admin)",
    description:
      "SUPER_ADMIN only (an ADMIN is 403). Every admin write, newest first, paginated: who (actorId, actorEmail, kept after the account is gone), action (`<entity>.<verb>`: user.update, report.update, report.action, order.status, order.refund, product.create, product.update, tag.batch_mint, payment_event.replay, …), entityType, entityId, and the record before and after (secrets removed). Filter by exact `action`, `entityType` or `actorId`.",
    tags: admin,
    auth: "admin",
    query: cursorPaginationQuery.extend(auditLogFilters.shape),
    response: auditEntrySchema,
    responseKind: "paginated",
    errors: ["FORBIDDEN"],
  }),
};
