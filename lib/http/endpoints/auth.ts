import { z } from "zod";
import { disableTwoFactorInput, forgotPasswordInput, messageSchema, registerInput, resetPasswordInput, tokenPairSchema, userSchema, verifyEmailInput, verifyTwoFactorInput } from "@/lib/services/auth/schemas";
import { defineEndpoint } from "../endpoint";

const tags = ["Authentication"];

const accountTags = ["Account"];

const registeredUser = userSchema.pick({ id: true, email: true, firstName: true, lastName: true, emailVerified: true });

const loggedInUser = userSchema.pick({ id: true, email: true, firstName: true, lastName: true, role: true, twoFactorEnabled: true });

/** Sign-up, sign-in, tokens, password reset, e-mail confirmation and two-factor. */
export const authEndpoints = {
  register: defineEndpoint({
    method: "POST",
    path: "/api/v1/auth/register",
    summary: "Create an account",
    description: "Creates a USER with an unverified e-mail (a confirmation link is e-mailed), signs in, and also sets the httpOnly session cookie (not for a request whose Origin is another site's). 5 per hour per IP.",
    tags,
    auth: "none",
    rateLimit: ["auth", "registration"],
    successStatus: 201,
    body: registerInput,
    response: z.object({ user: registeredUser, ...tokenPairSchema.shape }),
    errors: ["CONFLICT"],
  }),
  login: defineEndpoint({
    method: "POST",
    path: "/api/v1/auth/login",
    summary: "Sign in",
    description:
      "Wrong e-mail and wrong password answer alike (401). A 2FA account without `twoFactorCode` answers 403 TWO_FACTOR_REQUIRED; a TOTP code or a backup code is accepted once. Ten failures for one account within 15 minutes lock it for the rest of the window (429). Also sets the httpOnly session cookie, except for a request whose Origin is another site's (the tokens are in the body either way).",
    tags,
    auth: "none",
    rateLimit: ["auth"],
    body: z.object({
      email: z.string().trim().min(1, "Required.").max(254),
      password: z.string().min(1, "Required.").max(128),
      twoFactorCode: z.string().trim().min(6).max(20).optional().meta({ description: "6-digit TOTP code, or a backup code" }),
    }),
    response: z.object({ user: loggedInUser, ...tokenPairSchema.shape }),
    errors: ["UNAUTHORIZED", "FORBIDDEN", "TWO_FACTOR_REQUIRED"],
  }),
  refresh: defineEndpoint({
    method: "POST",
    path: "/api/v1/auth/refresh",
    summary: "Rotate the refresh token",
    description: "Returns a new access token and refresh token; the presented refresh token stops working. Presenting an already-rotated token ends the whole session (reuse detection).",
    tags,
    auth: "none",
    body: z.object({ refreshToken: z.string().min(1, "Required.").max(200) }),
    response: tokenPairSchema,
    errors: ["UNAUTHORIZED", "FORBIDDEN"],
  }),
  logout: defineEndpoint({
    method: "POST",
    path: "/api/v1/auth/logout",
    summary: "Sign out",
    description: "Ends the current session (its refresh token, access tokens and browser cookie) and clears the cookie.",
    tags,
    auth: "required",
    response: messageSchema,
  }),
  forgotPassword: defineEndpoint({
    method: "POST",
    path: "/api/v1/auth/forgot-password",
    summary: "Request a password reset link",
    description: "Answers the same whether or not the address has an account. The link lives one hour. 3 per hour per IP.",
    tags,
    auth: "none",
    rateLimit: ["auth", "passwordReset"],
    body: forgotPasswordInput,
    response: messageSchema,
  }),
  resetPassword: defineEndpoint({
    method: "POST",
    path: "/api/v1/auth/reset-password",
    summary: "Set a new password with a reset token",
    description: "Single use; an unknown, used or expired token is 400 VALIDATION_ERROR. Ends every session of the account.",
    tags,
    auth: "none",
    rateLimit: ["auth"],
    body: resetPasswordInput,
    response: messageSchema,
  }),
  enableTwoFactor: defineEndpoint({
    method: "POST",
    path: "/api/v1/auth/enable-2fa",
    summary: "Start two-factor set-up",
    description: "Returns a new TOTP secret and its QR code (PNG data URL). Two-factor is on only after verify-2fa. Not available to API keys.",
    tags: accountTags,
    auth: "required",
    apiKey: false,
    // Its answer is a secret shown once: never stored for an Idempotency-Key replay.
    idempotency: false,
    response: z.object({
      qrCodeUrl: z.string().meta({ description: "data:image/png;base64,…" }),
      secret: z.string(),
      otpauthUrl: z.string().meta({ description: "The otpauth:// URI the QR code holds: on a phone, opening it adds the account to the authenticator app", example: "otpauth://totp/Tag%20Service:ada%40example.com?secret=JBSWY3DPEHPK3PXP&period=30&digits=6&algorithm=SHA1&issuer=Tag%20Service" }),
    }),
    errors: ["FORBIDDEN", "CONFLICT"],
  }),
  verifyTwoFactor: defineEndpoint({
    method: "POST",
    path: "/api/v1/auth/verify-2fa",
    summary: "Confirm two-factor set-up",
    description: "A valid code from the new secret turns two-factor on and returns 10 single-use backup codes (shown once). A wrong code is 401. Not available to API keys.",
    tags: accountTags,
    auth: "required",
    apiKey: false,
    // Its answer is a secret shown once: never stored for an Idempotency-Key replay.
    idempotency: false,
    body: verifyTwoFactorInput,
    response: z.object({ message: z.string(), backupCodes: z.array(z.string()) }),
    errors: ["UNAUTHORIZED", "FORBIDDEN", "CONFLICT"],
  }),
  disableTwoFactor: defineEndpoint({
    method: "POST",
    path: "/api/v1/auth/disable-2fa",
    summary: "Turn two-factor off",
    description: "Needs a current TOTP code or a backup code (401 when wrong). Not available to API keys.",
    tags: accountTags,
    auth: "required",
    apiKey: false,
    body: disableTwoFactorInput,
    response: messageSchema,
    errors: ["UNAUTHORIZED", "FORBIDDEN", "CONFLICT"],
  }),
  sendVerification: defineEndpoint({
    method: "POST",
    path: "/api/v1/auth/send-verification",
    summary: "E-mail a new confirmation link",
    tags: accountTags,
    auth: "required",
    rateLimit: ["auth"],
    response: messageSchema,
  }),
  verifyEmail: defineEndpoint({
    method: "POST",
    path: "/api/v1/auth/verify-email",
    summary: "Confirm an e-mail address",
    description: "Single use; lives 24 hours. An unknown, used or expired token is 400 VALIDATION_ERROR.",
    tags,
    auth: "none",
    rateLimit: ["auth"],
    body: verifyEmailInput,
    response: messageSchema,
  }),
};
