import { and, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { keyedHash } from "@/lib/auth/tokens";
import { decryptSecret, verifyTotp } from "@/lib/auth/totp";

/** Backup codes look like `K7QF-2M9X`: upper-case and hyphen-insensitive on input. */
export function normalizeBackupCode(code: string): string {
  return code.replace(/[\s-]/g, "").toUpperCase();
}

export function hashBackupCode(code: string): string {
  // Keyed: backup codes have ~40 bits of entropy, too few to store behind a plain hash.
  return keyedHash("backup-code", normalizeBackupCode(code));
}

/**
 * Accepts a current TOTP code (each time step once: the step is recorded atomically, so a replay or a
 * concurrent second use fails) or an unused backup code (marked used). False otherwise.
 */
export async function consumeSecondFactor(db: Executor, userId: string, code: string, now = new Date()): Promise<boolean> {
  const trimmed = code.trim();
  if (/^\d{6}$/.test(trimmed)) {
    const [secret] = await db
      .select()
      .from(schema.twoFactorSecrets)
      .where(and(eq(schema.twoFactorSecrets.userId, userId), isNotNull(schema.twoFactorSecrets.confirmedAt)));
    if (!secret) return false;
    const step = await verifyTotp(decryptSecret(secret.secretEncrypted), trimmed, { lastTimeStep: secret.lastTimeStep, now });
    if (step === null) return false;
    const claimed = await db
      .update(schema.twoFactorSecrets)
      .set({ lastTimeStep: step })
      .where(and(eq(schema.twoFactorSecrets.userId, userId), or(isNull(schema.twoFactorSecrets.lastTimeStep), lt(schema.twoFactorSecrets.lastTimeStep, step))))
      .returning({ userId: schema.twoFactorSecrets.userId });
    return claimed.length === 1;
  }
  if (normalizeBackupCode(trimmed).length < 8) return false;
  const used = await db
    .update(schema.backupCodes)
    .set({ usedAt: now })
    .where(and(eq(schema.backupCodes.userId, userId), eq(schema.backupCodes.codeHash, hashBackupCode(trimmed)), isNull(schema.backupCodes.usedAt)))
    .returning({ id: schema.backupCodes.id });
  return used.length === 1;
}
