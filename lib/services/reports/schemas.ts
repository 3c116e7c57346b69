import { z } from "zod";
import { DESCRIPTION_MAX } from "@/lib/validation/text-fields";

/**
 * Request and response schemas of abuse reports and their admin handling, written once for the API's
 * contracts and the dashboard's and admin pages' forms.
 */

/** The types a user may report (POST /reports). */
export const reportTypeSchema = z.enum(["SPAM", "HARASSMENT", "INAPPROPRIATE", "SCAM", "OTHER"], "One of SPAM, HARASSMENT, INAPPROPRIATE, SCAM, OTHER.");
/** Every type in the moderators' queue: the users' types and VIN_CONFLICT, which only the system files (a VIN claimed by a second vehicle tag). */
export const queueReportTypeSchema = z.enum([...reportTypeSchema.options, "VIN_CONFLICT"], "One of SPAM, HARASSMENT, INAPPROPRIATE, SCAM, OTHER, VIN_CONFLICT.");
export const reportStatusSchema = z.enum(["OPEN", "REVIEWING", "RESOLVED", "DISMISSED"], "One of OPEN, REVIEWING, RESOLVED, DISMISSED.");
export const reportActionSchema = z.enum(["WARN_USER", "SUSPEND_USER", "DEACTIVATE_TAG", "DELETE_MESSAGE", "DISMISS", "REMOVE_ALERT", "REMOVE_FOUND_REPORT"], "One of WARN_USER, SUSPEND_USER, DEACTIVATE_TAG, DELETE_MESSAGE, DISMISS, REMOVE_ALERT, REMOVE_FOUND_REPORT.");
export type ReportType = z.infer<typeof reportTypeSchema>;
export type QueueReportType = z.infer<typeof queueReportTypeSchema>;
export type ReportStatus = z.infer<typeof reportStatusSchema>;
export type ReportAction = z.infer<typeof reportActionSchema>;

const noteText = (example: string) =>
  z
    .string({ error: "Must be a string." })
    .trim()
    .max(DESCRIPTION_MAX, `At most ${DESCRIPTION_MAX} characters.`)
    .nullable()
    .optional()
    .transform((value) => (value === "" ? null : value))
    .meta({ example });

const optionalId = (description: string) => z.uuid("Must be an id (UUID).").optional().meta({ description });

/** POST /reports. */
export const createReportInput = z.object({
  type: reportTypeSchema.meta({ example: "HARASSMENT" }),
  description: z
    .string({ error: (issue) => (issue.input === undefined ? "Required." : "Must be a string.") })
    .trim()
    .min(1, "Describe what happened.")
    .max(DESCRIPTION_MAX, `At most ${DESCRIPTION_MAX} characters.`)
    .meta({ example: "The finder keeps sending insulting messages." }),
  targetUserId: optionalId("The user reported. Defaults to the finder of the reported message's thread, when the finder was signed in."),
  tagId: optionalId("A tag the report is about"),
  messageId: optionalId("A message of one of your own threads"),
  alertId: optionalId("A lost-pet alert (its public page). targetUserId defaults to its owner."),
  foundReportId: optionalId("A found-animal report an organisation filed. targetUserId defaults to the organisation's account."),
});
export type CreateReportInput = z.output<typeof createReportInput>;

/** PATCH /admin/reports/:id. */
export const updateReportInput = z.object({
  status: reportStatusSchema.meta({ example: "REVIEWING" }),
  adminNote: noteText("Asked the reporter for the thread link."),
});
export type UpdateReportInput = z.output<typeof updateReportInput>;

/** POST /admin/reports/:id/action. */
export const reportActionInput = z.object({
  action: reportActionSchema.meta({ example: "WARN_USER" }),
  note: noteText("Insulting messages to an owner. First warning."),
});
export type ReportActionInput = z.output<typeof reportActionInput>;

/** The filters of GET /admin/reports (with page and limit). */
export const reportFilters = z.object({
  status: reportStatusSchema.optional(),
  type: queueReportTypeSchema.optional(),
});

// ---- responses ----

export const reportCreatedSchema = z
  .object({
    id: z.uuid(),
    type: reportTypeSchema,
    status: z.literal("OPEN"),
    message: z.string().meta({ example: "Thank you. We review every report within 24 hours." }),
  })
  .meta({ id: "ReportCreated" });
export type ReportCreated = z.infer<typeof reportCreatedSchema>;

/** A report as its reporter sees it (GET /reports/my). */
export const myReportSchema = z
  .object({
    id: z.uuid(),
    type: queueReportTypeSchema,
    status: reportStatusSchema,
    description: z.string(),
    createdAt: z.iso.datetime(),
    targetUserId: z.uuid().nullable(),
    tagId: z.uuid().nullable(),
    messageId: z.uuid().nullable(),
    alertId: z.uuid().nullable(),
    foundReportId: z.uuid().nullable(),
  })
  .meta({ id: "Report" });
export type MyReport = z.infer<typeof myReportSchema>;

/** A report as an admin sees it (GET /admin/reports and the admin verbs' answers). */
export const adminReportSchema = z
  .object({
    id: z.uuid(),
    type: queueReportTypeSchema,
    status: reportStatusSchema,
    description: z.string(),
    reporterId: z.uuid().nullable().meta({ description: "null for a report the system filed (VIN_CONFLICT)" }),
    reporterEmail: z.string().nullable().meta({ example: "owner@example.com" }),
    targetUserId: z.uuid().nullable(),
    targetEmail: z.string().nullable().meta({ example: "finder@example.com" }),
    targetRole: z.enum(["USER", "ADMIN", "SUPER_ADMIN"]).nullable(),
    targetSuspended: z.boolean().meta({ description: "Whether the target user is suspended now" }),
    tagId: z.uuid().nullable(),
    tagStatus: z.string().nullable().meta({ description: "The tag's status now", example: "ACTIVE" }),
    messageId: z.uuid().nullable().meta({ description: "null once the message is deleted" }),
    messageContent: z.string().nullable().meta({ description: "The reported message's text, while it exists", example: "You will regret this." }),
    messageSender: z.enum(["FINDER", "OWNER"]).nullable(),
    threadId: z.uuid().nullable(),
    vin: z.string().nullable().meta({ description: "VIN_CONFLICT: the VIN claimed twice; tagId and targetUserId hold it, relatedTagId and relatedUserId were refused it", example: "1HGCM82633A004352" }),
    relatedTagId: z.uuid().nullable(),
    relatedTagStatus: z.string().nullable().meta({ description: "The related tag's status now", example: "ACTIVE" }),
    relatedUserId: z.uuid().nullable(),
    relatedUserEmail: z.string().nullable(),
    alert: z
      .object({
        id: z.uuid(),
        petName: z.string().meta({ example: "Bella" }),
        species: z.string().meta({ example: "DOG" }),
        note: z.string().nullable(),
        removed: z.boolean().meta({ description: "Removed by a moderator (REMOVE_ALERT)" }),
      })
      .nullable()
      .meta({ description: "The reported lost-pet alert, while it exists" }),
    foundReport: z
      .object({
        id: z.uuid(),
        organisationName: z.string().meta({ example: "Riverside Animal Shelter" }),
        species: z.string().meta({ example: "CAT" }),
        note: z.string(),
        removed: z.boolean().meta({ description: "Removed by a moderator (REMOVE_FOUND_REPORT)" }),
      })
      .nullable()
      .meta({ description: "The reported found-animal report, while it exists" }),
    adminNote: z.string().nullable(),
    action: reportActionSchema.nullable(),
    resolvedById: z.uuid().nullable(),
    resolvedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "AdminReport" });
export type AdminReport = z.infer<typeof adminReportSchema>;
