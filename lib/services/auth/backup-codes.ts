import { keyedHash } from "@/lib/auth/tokens";

/** Backup codes look like `K7QF-2M9X`: upper-case and hyphen-insensitive on input. */
export function normalizeBackupCode(code: string): string {
  return code.replace(/[\s-]/g, "").toUpperCase();
}

export function hashBackupCode(code: string): string {
  // Keyed: backup codes have ~40 bits of entropy, too few to store behind a plain hash.
  return keyedHash("backup-code", normalizeBackupCode(code));
}
