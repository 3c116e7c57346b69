import { randomBytes } from "node:crypto";
import { createElement } from "react";
import { and, eq, isNull } from "drizzle-orm";
import { toDataURL } from "qrcode";
import { schema } from "@/db/client";
import type { User } from "@/db/schema";
import { NoticeEmail } from "@/emails/notice";
import { queueEmail } from "@/lib/email/queue";
import { decryptSecret, encryptSecret, newTotpSecret, totpUri, verifyTotp } from "@/lib/auth/totp";
import { requireUser, withTransaction, type ServiceContext } from "@/lib/services/context";
import { ConflictError, UnauthorizedError } from "@/lib/services/errors";
import { underAccountLockout } from "./lockout";
import { hashBackupCode } from "./backup-codes";
import { consumeSecondFactor, getUserById, removeTwoFactor } from "./queries";

export const BACKUP_CODE_COUNT = 10;
/** No 0/O or 1/I: codes are read off paper. 32 symbols, so `byte % 32` is unbiased; 8 symbols = 40 bits. */
const BACKUP_CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

function randomBackupCode(): string {
  const symbols = [...randomBytes(8)].map((byte) => BACKUP_CODE_ALPHABET[byte % BACKUP_CODE_ALPHABET.length]).join("");
  return `${symbols.slice(0, 4)}-${symbols.slice(4)}`;
}

/** Ten distinct single-use codes in the form `K7QF-2M9X`, shown once. */
export function newBackupCodes(count = BACKUP_CODE_COUNT): string[] {
  const codes = new Set<string>();
  while (codes.size < count) codes.add(randomBackupCode());
  return [...codes];
}

async function queueSecurityNotice(ctx: ServiceContext, user: Pick<User, "email" | "firstName">, turnedOn: boolean) {
  const heading = turnedOn ? "Two-factor authentication is on" : "Two-factor authentication is off";
  const paragraphs = turnedOn
    ? [
        `Hello ${user.firstName}, two-factor authentication was just turned on for your account.`,
        "From now on, signing in needs a code from your authenticator app or one of your backup codes. Keep the backup codes somewhere safe.",
        "If this wasn't you, change your password at once and contact support.",
      ]
    : [
        `Hello ${user.firstName}, two-factor authentication was just turned off for your account.`,
        "Signing in now needs only your password.",
        "If this wasn't you, change your password at once, turn two-factor authentication back on and contact support.",
      ];
  await queueEmail(ctx, {
    to: user.email,
    subject: heading,
    template: createElement(NoticeEmail, { heading, paragraphs, reason: "You receive this security notice because your account's sign-in settings changed." }),
    templateName: turnedOn ? "auth.two-factor-enabled" : "auth.two-factor-disabled",
  });
}

/**
 * POST /auth/enable-2fa: a new pending secret (replacing any earlier pending one), stored encrypted.
 * Two-factor is on only once verify-2fa confirms a code from it.
 */
export async function enableTwoFactor(ctx: ServiceContext): Promise<{ qrCodeUrl: string; secret: string; otpauthUrl: string }> {
  const { userId } = requireUser(ctx);
  const user = await getUserById(ctx.db, userId);
  if (user.twoFactorEnabled) throw new ConflictError("Two-factor authentication is already on.");
  const secret = newTotpSecret();
  const pending = { secretEncrypted: encryptSecret(secret), confirmedAt: null, lastTimeStep: null, createdAt: new Date() };
  const written = await ctx.db
    .insert(schema.twoFactorSecrets)
    .values({ userId, ...pending })
    .onConflictDoUpdate({ target: schema.twoFactorSecrets.userId, set: pending, setWhere: isNull(schema.twoFactorSecrets.confirmedAt) })
    .returning({ userId: schema.twoFactorSecrets.userId });
  // A confirmed secret is never replaced here (a concurrent verify-2fa won).
  if (!written.length) throw new ConflictError("Two-factor authentication is already on.");
  // The same otpauth:// URI as the QR code: a phone cannot photograph its own screen, but can open the link.
  const otpauthUrl = totpUri(secret, user.email);
  const qrCodeUrl = await toDataURL(otpauthUrl, { type: "image/png", errorCorrectionLevel: "M", margin: 2, width: 240 });
  return { qrCodeUrl, secret, otpauthUrl };
}

/**
 * POST /auth/verify-2fa: a code from the pending secret turns two-factor on (its time step is
 * recorded, so the same code cannot sign in afterwards) and replaces the backup codes with ten new
 * ones, returned this once. `now` is for tests.
 */
export async function verifyTwoFactor(ctx: ServiceContext, input: { code: string }, now = new Date()): Promise<{ message: string; backupCodes: string[] }> {
  const { userId } = requireUser(ctx);
  return withTransaction(ctx, async (tx) => {
    const user = await getUserById(tx.db, userId);
    if (user.twoFactorEnabled) throw new ConflictError("Two-factor authentication is already on.");
    const [pending] = await tx.db.select().from(schema.twoFactorSecrets).where(eq(schema.twoFactorSecrets.userId, userId)).for("update");
    if (!pending || pending.confirmedAt) throw new ConflictError("Start two-factor set-up with enable-2fa first.");

    const step = await verifyTotp(decryptSecret(pending.secretEncrypted), input.code.trim(), { lastTimeStep: pending.lastTimeStep, now });
    if (step === null) throw new UnauthorizedError("The code is invalid or expired. Enter the current code from your authenticator app.");

    const confirmed = await tx.db
      .update(schema.twoFactorSecrets)
      .set({ confirmedAt: now, lastTimeStep: step })
      .where(and(eq(schema.twoFactorSecrets.userId, userId), isNull(schema.twoFactorSecrets.confirmedAt)))
      .returning({ userId: schema.twoFactorSecrets.userId });
    if (!confirmed.length) throw new ConflictError("Two-factor authentication is already on.");
    await tx.db.update(schema.users).set({ twoFactorEnabled: true }).where(eq(schema.users.id, userId));

    const backupCodes = newBackupCodes();
    await tx.db.delete(schema.backupCodes).where(eq(schema.backupCodes.userId, userId));
    await tx.db.insert(schema.backupCodes).values(backupCodes.map((code) => ({ userId, codeHash: hashBackupCode(code), createdAt: now })));

    await queueSecurityNotice(tx, user, true);
    return { message: "Two-factor authentication is on. Store these backup codes somewhere safe: each works once and they are not shown again.", backupCodes };
  });
}

/**
 * POST /auth/disable-2fa: needs a current TOTP code or an unused backup code. Wrong codes count
 * against the account's sign-in failures (the login lockout), so a stolen session cannot guess its
 * way through. Removes the secret and the backup codes. `now` is for tests.
 */
export async function disableTwoFactor(ctx: ServiceContext, input: { code: string }, now = new Date()): Promise<{ message: string }> {
  const { userId } = requireUser(ctx);
  const ip = ctx.actor.kind === "user" ? ctx.actor.ip : "unknown";
  const user = await getUserById(ctx.db, userId);
  if (!user.twoFactorEnabled) throw new ConflictError("Two-factor authentication is not on.");
  const outcome = await underAccountLockout({ ip, email: user.email }, () =>
    withTransaction(ctx, async (tx) => {
      const [current] = await tx.db.select().from(schema.users).where(eq(schema.users.id, userId)).for("update");
      if (!current?.twoFactorEnabled) return "not-enabled" as const;
      if (!(await consumeSecondFactor(tx.db, userId, input.code, now))) throw new UnauthorizedError("The code is invalid or was already used.");
      await removeTwoFactor(tx.db, userId);
      await queueSecurityNotice(tx, current, false);
      return "disabled" as const;
    }),
  );
  if (outcome === "not-enabled") throw new ConflictError("Two-factor authentication is not on.");
  return { message: "Two-factor authentication is off." };
}
