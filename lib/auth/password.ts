import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { env, type Env } from "@/lib/env";

/**
 * Password hashing with Node's scrypt at OWASP's parameters (N=2^17, r=8, p=1): memory-hard, no
 * native addon. Stored as `scrypt$N$r$p$salt$hash` (base64url) so parameters can change later and old
 * hashes still verify. PASSWORD_HASH_COST (log2 N) may only be lowered outside production: the
 * integration tests register hundreds of accounts, each a 128 MB hash at N=2^17.
 */
export function passwordHashParams(e: Env = env): { N: number; r: number; p: number } {
  return { N: 2 ** e.PASSWORD_HASH_COST, r: 8, p: 1 };
}
const KEY_LENGTH = 32;

function scrypt(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r };
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize("NFKC"), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const params = passwordHashParams();
  const key = await scrypt(password, salt, params);
  const { N, r, p } = params;
  return ["scrypt", N, r, p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [algorithm, n, r, p, salt, hash] = stored.split("$");
  if (algorithm !== "scrypt" || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await scrypt(password, Buffer.from(salt, "base64url"), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
