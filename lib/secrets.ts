import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env, type Env } from "@/lib/env";

/**
 * Secrets that development generates for itself (docs/decisions/0003-embedded-database.md): made once and kept in
 * DATA_DIR/secrets.json so sessions survive restarts. Production must set them (lib/env enforces it).
 */
type SecretFile = Record<string, string>;

/** Fixed so a developer's test webhook calls keep verifying across machines; never used in production. */
export const DEVELOPMENT_WEBHOOK_SECRET = "whsec_development_only_do_not_use_in_production";

function secretsPath(e: Env): string {
  return path.resolve(e.DATA_DIR, "secrets.json");
}

export function generatedSecret(name: string, make: () => string, e: Env = env): string {
  const file = secretsPath(e);
  let secrets: SecretFile = {};
  try {
    secrets = JSON.parse(readFileSync(file, "utf8")) as SecretFile;
  } catch {
    // First use: no file yet.
  }
  const existing = secrets[name];
  if (existing) return existing;
  const value = make();
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ ...secrets, [name]: value }, null, 2), { mode: 0o600 });
  return value;
}

export function authSecret(e: Env = env): string {
  return e.AUTH_SECRET ?? generatedSecret("AUTH_SECRET", () => randomBytes(32).toString("base64url"), e);
}

export function paymentWebhookSecret(e: Env = env): string {
  return e.PAYMENT_WEBHOOK_SECRET ?? DEVELOPMENT_WEBHOOK_SECRET;
}

/**
 * The secrets a webhook delivery may be signed with: the current one and, during a rotation, the previous
 * one (PAYMENT_WEBHOOK_SECRET_PREVIOUS), so events signed before the switch still verify.
 */
export function paymentWebhookSecrets(e: Env = env): string[] {
  return [paymentWebhookSecret(e), ...(e.PAYMENT_WEBHOOK_SECRET_PREVIOUS ? [e.PAYMENT_WEBHOOK_SECRET_PREVIOUS] : [])];
}

/** Fixed, like the payment one, so a developer's signed test webhooks verify on any machine; refused in production. */
export const DEVELOPMENT_TELEPHONY_SECRET = "telephony_development_only_do_not_use_in_production";

/**
 * The key the test telephony provider signs its webhooks with, in Twilio's scheme (docs/relay.md):
 * TELEPHONY_WEBHOOK_SECRET, else the development secret. In production without it, this throws: the
 * relay's webhooks are then refused rather than verified with a key anyone can read. Unlike the payment
 * secret it does not stop the start, since a deployment on real Twilio (or without the relay) never uses it.
 */
export function telephonyWebhookSecret(e: Env = env): string {
  if (e.TELEPHONY_WEBHOOK_SECRET) return e.TELEPHONY_WEBHOOK_SECRET;
  if (e.NODE_ENV === "production") throw new Error("TELEPHONY_WEBHOOK_SECRET is required in production for the test telephony provider (or set the TWILIO_* variables)");
  return DEVELOPMENT_TELEPHONY_SECRET;
}
