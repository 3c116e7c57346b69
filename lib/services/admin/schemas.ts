import { z } from "zod";

/**
 * Request and response schemas of the admin platform (stats, users, analytics, audit log), written once for
 * the API's contracts, the OpenAPI document and the admin pages' forms.
 */

export const userRoleSchema = z.enum(["USER", "ADMIN", "SUPER_ADMIN"], "One of USER, ADMIN, SUPER_ADMIN.");
export type UserRole = z.infer<typeof userRoleSchema>;
const tierSchema = z.enum(["FREE", "PRO", "PREMIUM"]);

const booleanQuery = z
  .enum(["true", "false"], "Either true or false.")
  .transform((value) => value === "true");

/** The filters of GET /admin/users (with page and limit). */
export const adminUserFilters = z.object({
  search: z
    .string()
    .trim()
    .max(100, "At most 100 characters.")
    .optional()
    .transform((value) => (value ? value : undefined))
    .meta({ description: "Case-insensitive part of the e-mail address or name (`%` and `_` match themselves); one or two characters match the start of the e-mail address", example: "ada@" }),
  role: userRoleSchema.optional(),
  suspended: booleanQuery.optional().meta({ description: "`true`: suspended accounts only; `false`: the others" }),
});
export type AdminUserFilters = z.output<typeof adminUserFilters>;

/** PATCH /admin/users/:id. */
export const updateAdminUserInput = z
  .object({
    role: userRoleSchema.optional().meta({ description: "SUPER_ADMIN callers only (403 for an ADMIN)", example: "ADMIN" }),
    suspended: z.boolean("Must be true or false.").optional().meta({ description: "true suspends (every session and API key revoked at once); false lifts it", example: true }),
  })
  .refine((input) => input.role !== undefined || input.suspended !== undefined, { message: "Send role, suspended or both.", path: ["role"] });
export type UpdateAdminUserInput = z.output<typeof updateAdminUserInput>;

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "A date as YYYY-MM-DD.")
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
  }, "Not a calendar date.");

export const ANALYTICS_MAX_DAYS = 366;
export const ANALYTICS_DEFAULT_DAYS = 30;

/** GET /admin/analytics: days in UTC, both ends included. */
export const analyticsQuery = z.object({
  from: isoDate.optional().meta({ description: "First day (UTC), YYYY-MM-DD; default 29 days before `to`", example: "2026-01-01" }),
  to: isoDate.optional().meta({ description: "Last day (UTC), YYYY-MM-DD, included; default today", example: "2026-01-30" }),
});
export type AnalyticsQuery = z.output<typeof analyticsQuery>;

/** GET /admin/audit-log filters (with page and limit). */
export const auditLogFilters = z.object({
  action: z.string().trim().max(100, "At most 100 characters.").optional().transform((value) => (value ? value : undefined)).meta({ example: "user.update" }),
  entityType: z.string().trim().max(100, "At most 100 characters.").optional().transform((value) => (value ? value : undefined)).meta({ example: "user" }),
  actorId: z.uuid("Must be an id (UUID).").optional(),
});
export type AuditLogFilters = z.output<typeof auditLogFilters>;

// ---- responses ----

const money = z.object({ currency: z.string().meta({ example: "USD" }), amount: z.number().meta({ example: 59.97 }) });

export const adminStatsSchema = z
  .object({
    users: z.object({
      total: z.number().int(),
      verified: z.number().int(),
      suspended: z.number().int(),
      twoFactor: z.number().int(),
      admins: z.number().int().meta({ description: "ADMIN and SUPER_ADMIN accounts" }),
      byTier: z.object({ FREE: z.number().int(), PRO: z.number().int(), PREMIUM: z.number().int() }),
      newLast7Days: z.number().int(),
    }),
    tags: z.object({
      total: z.number().int(),
      owned: z.number().int(),
      unowned: z.number().int().meta({ description: "Minted inventory nobody has claimed" }),
      byStatus: z.record(z.string(), z.number().int()).meta({ example: { ACTIVE: 12, LOST: 1, PENDING_SETUP: 40 } }),
    }),
    scans: z.object({ total: z.number().int(), last24h: z.number().int(), last7Days: z.number().int(), suspicious: z.number().int() }),
    orders: z.object({
      total: z.number().int(),
      pending: z.number().int(),
      paid: z.number().int().meta({ description: "Orders with a payment recorded (paidAt set), whatever happened later" }),
      toShip: z.number().int().meta({ description: "CONFIRMED or PROCESSING: paid and waiting to ship" }),
      revenue: z.array(money).meta({ description: "Gross of paid orders per currency, major units" }),
    }),
    subscriptions: z.object({ active: z.number().int().meta({ description: "Subscriptions ACTIVE or PAST_DUE at the provider" }) }),
    messages: z.object({ threads: z.number().int(), activeThreads: z.number().int(), messages: z.number().int() }),
    reports: z.object({ open: z.number().int().meta({ description: "OPEN or REVIEWING" }), total: z.number().int() }),
    newsletter: z.object({ confirmed: z.number().int(), pending: z.number().int() }),
    generatedAt: z.string(),
  })
  .meta({ id: "AdminStats" });
export type AdminStats = z.infer<typeof adminStatsSchema>;

export const adminUserSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    role: userRoleSchema,
    emailVerified: z.boolean(),
    twoFactorEnabled: z.boolean(),
    subscription: tierSchema,
    suspended: z.boolean(),
    suspendedAt: z.string().nullable(),
    createdAt: z.string(),
    tagCount: z.number().int(),
  })
  .meta({ id: "AdminUser" });
export type AdminUser = z.infer<typeof adminUserSchema>;

export const analyticsDaySchema = z
  .object({
    date: z.string().meta({ example: "2026-01-15" }),
    scans: z.number().int(),
    signups: z.number().int(),
    orders: z.number().int().meta({ description: "Orders placed that day (createdAt)" }),
    paidOrders: z.number().int().meta({ description: "Orders paid that day (paidAt)" }),
    revenue: z.array(money).meta({ description: "Totals of the orders paid that day, per currency (major units); [] on a day without" }),
  })
  .meta({ id: "AnalyticsDay" });
export type AnalyticsDay = z.infer<typeof analyticsDaySchema>;

export const auditEntrySchema = z
  .object({
    id: z.uuid(),
    actorId: z.uuid().nullable(),
    actorEmail: z.string().nullable(),
    action: z.string().meta({ example: "user.update" }),
    entityType: z.string().meta({ example: "user" }),
    entityId: z.string().nullable(),
    before: z.unknown().nullable(),
    after: z.unknown().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: "AuditEntry" });
export type AuditEntry = z.infer<typeof auditEntrySchema>;
