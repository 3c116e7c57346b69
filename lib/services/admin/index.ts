/**
 * The admin platform as routes, server actions and pages use it: platform stats, user management
 * (role changes, suspension), daily analytics and the audit log.
 */
export { analyticsRange, getAdminAnalytics } from "./analytics";
export { type AuditLogQuery, listAuditLog } from "./audit";
export { getAdminStats } from "./stats";
export { type AdminUserQuery, containsPattern, listUsersForAdmin, updateUserAsAdmin } from "./users";
export * from "./schemas";
