import { z } from "zod";
import { tagStatusSchema, tagTypeSchema } from "./records";
import { finderLocales } from "@/lib/i18n/locales";

/**
 * Request schemas of the tag endpoints, written once: the API's contracts (lib/http/endpoints) and the
 * dashboard's forms (through lib/forms/action.ts) both parse with them.
 */

export const tagCodeInput = z
  .string()
  .trim()
  .min(1, "Enter the code printed on the tag.")
  .max(20, "At most 20 characters.")
  .meta({ description: "Printed code; case- and hyphen-insensitive", example: "7K3QX-M9P2T" });
export const itemNameInput = z.string().trim().min(1, "Required.").max(100, "At most 100 characters.");

export const mintTagsInput = z.object({
  count: z.int("Enter a whole number from 1 to 1000.").min(1, "At least 1.").max(1000, "At most 1000 at a time."),
  tagType: tagTypeSchema.optional(),
});
export const activateTagInput = z.object({ code: tagCodeInput, tagType: tagTypeSchema.default("GENERAL"), itemName: itemNameInput.optional() });
export const bulkActivateInput = z.object({
  codes: z.array(tagCodeInput).min(1, "Enter at least one code.").max(100, "At most 100 codes at a time."),
  tagType: tagTypeSchema.optional(),
});
export const updateTagInput = z.object({ itemName: itemNameInput.nullable().optional(), tagType: tagTypeSchema.optional() });
export const setTagStatusInput = z.object({ status: tagStatusSchema, lostMessage: z.string().trim().max(500, "At most 500 characters.").nullable().optional() });

const transferEmailMessage = (issue: { input?: unknown }) => (issue.input === "" ? "Enter the new owner's e-mail address." : "Must be a valid e-mail address.");
export const createTransferInput = z.object({ email: z.email({ error: transferEmailMessage }).max(254, "At most 254 characters.") });

const amountMessage = "An amount like 2500 or 2500.50.";
export const insuranceInputSchema = z.object({
  provider: z.string().trim().min(1, "Required.").max(100, "At most 100 characters."),
  policyNumber: z.string().trim().min(1, "Required.").max(100, "At most 100 characters."),
  coverageAmount: z
    .number(amountMessage)
    .nonnegative(amountMessage)
    .max(1_000_000_000, "The amount is too large.")
    .nullable()
    .optional()
    .meta({ description: "Major units", example: 2500.5 }),
  currency: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{3}$/, "A three-letter currency code, such as USD.")
    .transform((value) => value.toUpperCase())
    .optional()
    .meta({ description: "ISO 4217; default USD", example: "USD" }),
  validUntil: z.iso.date("A date.").nullable().optional().meta({ example: "2027-06-30" }),
  contactPhone: z.string().trim().min(1, "Required.").max(50, "At most 50 characters.").nullable().optional(),
});
export type InsuranceInput = z.output<typeof insuranceInputSchema>;

/** A printable label: its file format and physical size (lib/services/tags/label-render.ts has the sizes). */
export const labelFormatSchema = z.enum(["pdf", "png", "svg"]).meta({ description: "pdf (vector, one page the label's size), png (600 dpi) or svg (vector)" });
export const labelSizeSchema = z.enum(["small", "medium", "large"]).meta({ description: "small 25 × 31 mm, medium 38 × 47 mm, large 50 × 62 mm" });
export const paperSchema = z.enum(["a4", "letter"]).meta({ description: "A4 (210 × 297 mm) or US Letter (8.5 × 11 in)" });
export const MAX_SHEET_LABELS = 100;

/** The language of the words printed for the finder (the call to action, the no-camera line). */
export const labelLanguageSchema = z.enum(finderLocales).meta({ description: "The language of the finder's words on the label: en (the default), de, fr or es" });

export const labelQuery = z.object({ format: labelFormatSchema.default("pdf"), size: labelSizeSchema.default("medium"), lang: labelLanguageSchema.default("en") });

/**
 * `tagId` repeated once per label (`?tagId=…&tagId=…`), as a plain HTML form of checkboxes sends it;
 * a repeated id prints that label again.
 */
export const labelSheetQuery = z.object({
  tagId: z
    .preprocess(
      (value) => (value === undefined || Array.isArray(value) ? value : [value]),
      z
        .array(z.uuid("Must be a tag id (UUID)."), { error: "Choose at least one tag." })
        .min(1, "Choose at least one tag.")
        .max(MAX_SHEET_LABELS, `At most ${MAX_SHEET_LABELS} labels per sheet.`),
    )
    .meta({ description: `The tags to print, one \`tagId\` per label (1 to ${MAX_SHEET_LABELS}); repeat an id to print that label again` }),
  paper: paperSchema.default("a4"),
  size: labelSizeSchema.default("small"),
  lang: labelLanguageSchema.default("en"),
});
