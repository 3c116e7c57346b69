import { z } from "zod";

/** String limits (docs/decisions/0005-input-validation.md): names and titles ≤ 100, short text ≤ 500, descriptions ≤ 2000. */
export const NAME_MAX = 100;
export const SHORT_TEXT_MAX = 500;
export const DESCRIPTION_MAX = 2000;

const requiredMessage = (issue: { input?: unknown }) => (issue.input === undefined || issue.input === null ? "Required." : "Must be a string.");

/** A required text field: present, a string, not blank after trimming. */
export const requiredText = (max: number) => z.string({ error: requiredMessage }).trim().min(1, "Required.").max(max, `At most ${max} characters.`);

/** An optional text field; `null` or "" clears it (stored as null). */
export const optionalText = (max: number) =>
  z
    .string({ error: "Must be a string." })
    .trim()
    .max(max, `At most ${max} characters.`)
    .nullable()
    .optional()
    .transform((value) => (value === "" ? null : value));

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The one phone pattern of contact details (profiles, emergency contacts, physician). */
const PHONE_PATTERN = /^\+?[0-9][0-9 ()./-]{2,}$/;
const PHONE_MESSAGE = "Must be a phone number (digits, spaces, + ( ) . / -).";

export const contactEmailInput = optionalText(254).refine((value) => value == null || (EMAIL_PATTERN.test(value) && z.email().safeParse(value).success), "Must be a valid e-mail address.");
export const contactPhoneInput = optionalText(50).refine((value) => value == null || PHONE_PATTERN.test(value), PHONE_MESSAGE);
/** A phone number that must be given (an emergency contact's), by the same pattern as contactPhone. */
export const requiredPhoneInput = requiredText(50).regex(PHONE_PATTERN, PHONE_MESSAGE);
