import { z } from "zod";

/** Request and response schemas of newsletter campaigns (admin). */

export const CAMPAIGN_SUBJECT_MAX = 150;
export const CAMPAIGN_CONTENT_MAX = 100_000;

const required = (issue: { input: unknown }) => (issue.input === undefined ? "Required." : "Must be a string.");

/** POST /admin/campaigns. */
export const createCampaignInput = z.object({
  subject: z
    .string({ error: required })
    .trim()
    .min(1, "Required.")
    .max(CAMPAIGN_SUBJECT_MAX, `At most ${CAMPAIGN_SUBJECT_MAX} characters.`)
    // The subject is an e-mail header: one line.
    .refine((value) => !/[\r\n\u0085\u2028\u2029]/.test(value), "Must be on one line.")
    .meta({ example: "What's new this spring" }),
  content: z
    .string({ error: required })
    .trim()
    .min(1, "Required.")
    .max(CAMPAIGN_CONTENT_MAX, `At most ${CAMPAIGN_CONTENT_MAX} characters.`)
    .meta({ description: "Markdown (rendered sanitised; raw HTML is shown as text)", example: "## New colours\n\nOur tags now come in **five colours**." }),
});
export type CreateCampaignInput = z.output<typeof createCampaignInput>;

export const campaignStatusSchema = z.enum(["SENDING", "SENT", "FAILED"]);

export const campaignSchema = z.object({
  id: z.uuid(),
  subject: z.string(),
  status: campaignStatusSchema,
  recipientCount: z.number().int().meta({ description: "Confirmed subscribers when the campaign was created" }),
  sentCount: z.number().int().meta({ description: "E-mails queued so far; progress is sentCount / recipientCount" }),
  createdAt: z.iso.datetime(),
  startedAt: z.iso.datetime().nullable(),
  completedAt: z.iso.datetime().nullable(),
}).meta({ id: "Campaign" });
export type CampaignRecord = z.output<typeof campaignSchema>;
