import { z } from "zod";

/** Spec rule 1: at least 8 characters with an uppercase letter, a lowercase letter and a number. */
export const passwordSchema = z
  .string()
  .min(8, "Password must be at least 8 characters.")
  .max(128, "Password must be at most 128 characters.")
  .regex(/[A-Z]/, "Password must contain an uppercase letter.")
  .regex(/[a-z]/, "Password must contain a lowercase letter.")
  .regex(/[0-9]/, "Password must contain a number.")
  .meta({ description: "8–128 characters with an uppercase letter, a lowercase letter and a number", example: "Str0ngPassword" });

export const emailSchema = z
  .email("Enter a valid e-mail address.")
  .max(254)
  .transform((value) => value.trim().toLowerCase())
  .meta({ example: "ada@example.com" });

export const personNameSchema = z.string().trim().min(1, "Required.").max(100, "At most 100 characters.");

export const roleSchema = z.enum(["USER", "ADMIN", "SUPER_ADMIN"]);
export const tierSchema = z.enum(["FREE", "PRO", "PREMIUM"]);

/** The full User resource of the specification (GET /auth/me). */
export const userSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    phone: z.string().nullable(),
    role: roleSchema,
    emailVerified: z.boolean(),
    twoFactorEnabled: z.boolean(),
    subscription: tierSchema,
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "User" });

export type PublicUser = z.infer<typeof userSchema>;

export const tokenPairSchema = z.object({
  accessToken: z.string().meta({ description: "15-minute JWT for `Authorization: Bearer`" }),
  refreshToken: z.string().meta({ description: "Opaque, 7 days, single use: POST /auth/refresh rotates it" }),
});

export const messageSchema = z.object({ message: z.string() }).meta({ id: "Message" });

// ---- requests: the API's bodies and the forms' inputs, written once ----

/** A one-time token from an e-mailed link (reset, confirmation). */
export const oneTimeTokenSchema = z.string().trim().min(1, "Required.").max(200);
export const currentPasswordSchema = z.string().min(1, "Enter your current password.").max(128);
export const phoneSchema = z.string().trim().max(30, "At most 30 characters.").regex(/^\+?[0-9 ()-]*$/, "Use digits, spaces, (), - and an optional leading +.");

export const registerInput = z.object({ email: emailSchema, password: passwordSchema, firstName: personNameSchema, lastName: personNameSchema });
export const forgotPasswordInput = z.object({ email: emailSchema });
export const resetPasswordInput = z.object({ token: oneTimeTokenSchema, password: passwordSchema });
export const verifyEmailInput = z.object({ token: oneTimeTokenSchema });

/** Name and phone, as the account page edits them (all of them); PATCH /auth/me takes any subset. */
export const accountDetailsInput = z.object({ firstName: personNameSchema, lastName: personNameSchema, phone: phoneSchema.nullable() });
export const updateMeInput = accountDetailsInput.partial();
export const deleteMeInput = z.object({ currentPassword: currentPasswordSchema });
export const changePasswordInput = z.object({ currentPassword: currentPasswordSchema, newPassword: passwordSchema });

export const verifyTwoFactorInput = z.object({ code: z.string().trim().regex(/^\d{6}$/, "Enter the 6-digit code your app shows.") });
const secondFactorMessage = "Enter the 6-digit code from your app, or a backup code.";
export const disableTwoFactorInput = z.object({ code: z.string().trim().min(6, secondFactorMessage).max(20, secondFactorMessage) });

export const apiKeyNameSchema = z.string().trim().min(1, "Give the key a name.").max(100, "At most 100 characters.");
export const createApiKeyInput = z.object({ name: apiKeyNameSchema, expiresAt: z.iso.datetime({ offset: true }).optional() });
