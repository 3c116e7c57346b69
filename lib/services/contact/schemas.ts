import { z } from "zod";
import { emailSchema } from "@/lib/services/auth";
import { DESCRIPTION_MAX, NAME_MAX } from "@/lib/services/profiles";

/** Request and response schemas of the contact form and the newsletter, for the API and the pages' forms. */

const required = (issue: { input: unknown }) => (issue.input === undefined ? "Required." : "Must be a string.");

/** One line of text: a name or a subject ends up in an e-mail's headers, where a line break would add headers. */
const singleLineText = (max: number, example: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, "Required.")
    .max(max, `At most ${max} characters.`)
    .refine((value) => !/[\r\n\u0085\u2028\u2029]/.test(value), "Must be on one line.")
    .meta({ example });

/** POST /contact. */
export const contactInput = z.object({
  name: singleLineText(NAME_MAX, "Ada Lovelace"),
  email: emailSchema,
  subject: singleLineText(NAME_MAX, "A question about tag packs"),
  message: z
    .string({ error: required })
    .trim()
    .min(1, "Required.")
    .max(DESCRIPTION_MAX, `At most ${DESCRIPTION_MAX} characters.`)
    .meta({ example: "Do the stickers survive a dishwasher?" }),
});
export type ContactInput = z.output<typeof contactInput>;

/** POST /contact/newsletter. */
export const newsletterInput = z.object({ email: emailSchema });
export type NewsletterInput = z.output<typeof newsletterInput>;

/** `?token=` of the confirmation and unsubscribe links. */
export const newsletterTokenQuery = z.object({
  token: z.string({ error: required }).trim().min(1, "Required.").max(200, "Not a valid link.").meta({ description: "The token from the e-mailed link" }),
});

/** The body a mail provider sends with an RFC 8058 one-click unsubscribe (documented; not required). */
export const oneClickUnsubscribeBody = z.object({ "List-Unsubscribe": z.literal("One-Click") });

export const messageSchema = z.object({ message: z.string().meta({ example: "Thanks — we reply within 24 hours." }) });
export type MessageResult = z.output<typeof messageSchema>;
