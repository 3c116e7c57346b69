/**
 * The reports domain as routes, server actions and pages use it: abuse reports by users, and the admin
 * queue with its actions (warn, suspend, deactivate a tag, delete a message, dismiss).
 */
export { type AdminReportQuery, applyReportAction, listReportsForAdmin, updateReport } from "./admin";
export { createReport, listMyReports, REPORT_RECEIVED } from "./reports";
export * from "./schemas";
export { exportBlockedUsers, exportReports } from "./export";
export { fileVinConflictReport } from "./vin-conflict";
