import { z } from "zod";
import { adminReportSchema, createReportInput, myReportSchema, reportActionInput, reportCreatedSchema, reportFilters, updateReportInput } from "@/lib/services/reports";
import { defineEndpoint } from "../endpoint";
import { cursorPaginationQuery } from "../pagination";
import { idParams } from "../params";

const reports = ["Reports and blocking"];
const admin = ["Admin"];

/** Abuse reports by users, and the admin moderation queue. */
export const reportEndpoints = {
  create: defineEndpoint({
    operationId: "createReport",
    method: "POST",
    path: "/api/v1/reports",
    summary: "Report abuse",
    description:
      "type and description are required. targetUserId, tagId and messageId must exist (404 otherwise); messageId must be a message of one of your own threads (404 otherwise), and when its thread's finder was signed in and no targetUserId is given, the finder is the target. alertId (a lost-pet alert) and foundReportId (an organisation's found-animal report) must exist and not be removed by a moderator (404 otherwise); the alert's owner, or the organisation's account, is the target unless targetUserId names one. Reporting yourself is 400. The answer promises a review within 24 hours.",
    tags: reports,
    auth: "user",
    successStatus: 201,
    body: createReportInput,
    response: reportCreatedSchema,
    errors: ["NOT_FOUND"],
  }),
  mine: defineEndpoint({
    operationId: "listMyReports",
    method: "GET",
    path: "/api/v1/reports/my",
    summary: "My reports",
    description: "Every report you made, newest first, with its status (OPEN, REVIEWING, RESOLVED or DISMISSED). Not paginated.",
    tags: reports,
    auth: "user",
    response: z.array(myReportSchema),
  }),
  adminList: defineEndpoint({
    operationId: "listReports",
    method: "GET",
    path: "/api/v1/admin/reports",
    summary: "The report queue (admin)",
    description:
      "Paginated; filter by `status` and `type` (an unknown value is 400). Filtered to OPEN or REVIEWING the queue is oldest first, otherwise newest first. Each report carries the reporter, target user, tag, message and thread ids, the reported message's text while it exists, the reported lost-pet alert or found-animal report (with whether it was removed), the admin note, the action taken and when it was resolved.",
    tags: admin,
    auth: "admin",
    query: cursorPaginationQuery.extend(reportFilters.shape),
    response: adminReportSchema,
    responseKind: "paginated",
  }),
  adminUpdate: defineEndpoint({
    operationId: "updateReport",
    method: "PATCH",
    path: "/api/v1/admin/reports/{id}",
    summary: "Set a report's status and note (admin)",
    description:
      "Any status; RESOLVED or DISMISSED records who closed it and when, OPEN or REVIEWING reopens it. adminNote absent keeps the note, null clears it. Applying an action is POST /admin/reports/{id}/action.",
    tags: admin,
    auth: "admin",
    params: idParams,
    body: updateReportInput,
    response: adminReportSchema,
  }),
  adminAction: defineEndpoint({
    operationId: "actOnReport",
    method: "POST",
    path: "/api/v1/admin/reports/{id}/action",
    summary: "Act on a report (admin)",
    description:
      "Applies the action and closes the report: DISMISS → DISMISSED, the others → RESOLVED, with the action, the admin, the time and the note recorded. WARN_USER notifies the target user (by e-mail too) with the note. SUSPEND_USER suspends the target and revokes all their sessions and API keys at once; their credentials then answer 403; an ADMIN can suspend users only, a SUPER_ADMIN admins too, no one a SUPER_ADMIN (403). DEACTIVATE_TAG deactivates the tag from any status, and its owner cannot reactivate it. DELETE_MESSAGE deletes the reported message (the report keeps its thread). REMOVE_ALERT takes the reported lost-pet alert off every public page and list; REMOVE_FOUND_REPORT hides the reported found-animal report from the owners it matched. A report already RESOLVED or DISMISSED is 409; an action on something the report does not name (no target user, tag or message, or one gone since) is 422.",
    tags: admin,
    auth: "admin",
    params: idParams,
    body: reportActionInput,
    response: adminReportSchema,
    errors: ["CONFLICT", "UNPROCESSABLE_ENTITY", "FORBIDDEN"],
  }),
};
