import { execFileSync } from "node:child_process";
import { createECDH, randomBytes } from "node:crypto";

/**
 * The environment the e2e server runs with: production mode (`next start`) with test values for the
 * secrets production requires. Computed once in Playwright's main process and kept in process.env, so
 * the worker processes (which inherit it and load the config again) see the same values.
 */
function once(name: string, make: () => string): string {
  const value = process.env[name] || make();
  process.env[name] = value;
  return value;
}

/** A port nothing listens on, chosen once per run (E2E_PORT pins it). The config is synchronous, so ask a child. */
function freePort(): string {
  const script = "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})";
  return execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }).trim();
}

export const e2ePort = Number(once("E2E_PORT", freePort));
export const e2eBaseUrl = `http://localhost:${e2ePort}`;

/** Names this run's database (e2e_<runId>) when DATABASE_URL is set. */
export const e2eRunId = once("E2E_RUN_ID", () => `${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`);

export const e2eSecrets = {
  AUTH_SECRET: once("E2E_AUTH_SECRET", () => randomBytes(32).toString("base64url")),
  PAYMENT_WEBHOOK_SECRET: once("E2E_PAYMENT_WEBHOOK_SECRET", () => `whsec_e2e_${randomBytes(16).toString("hex")}`),
  // The test telephony provider signs the relay's webhooks with it; its development default is refused in production.
  TELEPHONY_WEBHOOK_SECRET: once("E2E_TELEPHONY_WEBHOOK_SECRET", () => `tel_e2e_${randomBytes(16).toString("hex")}`),
  ...vapidKeys(),
  VAPID_SUBJECT: "mailto:e2e@example.com",
};

/** The SUPER_ADMIN the server seeds on its first start (see ADMIN_EMAIL/ADMIN_PASSWORD in the README's configuration table). */
export const e2eAdmin = {
  email: "admin@e2e.example.com",
  password: once("E2E_ADMIN_PASSWORD", () => `E2e-${randomBytes(12).toString("base64url")}-1`),
};

/** A real P-256 key pair in the web-push format, in case something validates the keys' shape. */
function vapidKeys(): { VAPID_PUBLIC_KEY: string; VAPID_PRIVATE_KEY: string } {
  let publicKey = process.env.E2E_VAPID_PUBLIC_KEY;
  let privateKey = process.env.E2E_VAPID_PRIVATE_KEY;
  if (!publicKey || !privateKey) {
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    publicKey = process.env.E2E_VAPID_PUBLIC_KEY = ecdh.getPublicKey().toString("base64url");
    privateKey = process.env.E2E_VAPID_PRIVATE_KEY = ecdh.getPrivateKey().toString("base64url");
  }
  return { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey };
}

/** Everything the web server process gets on top of the inherited environment. */
export function e2eServerEnv(): Record<string, string> {
  return {
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    E2E_PORT: String(e2ePort),
    E2E_RUN_ID: e2eRunId,
    APP_URL: e2eBaseUrl,
    ...e2eSecrets,
    ADMIN_EMAIL: e2eAdmin.email,
    ADMIN_PASSWORD: e2eAdmin.password,
    ENABLE_DEV_MAILBOX: "true",
    // The browser's push service is stood in for by a local one on 127.0.0.1 (see notifications.spec.ts).
    PUSH_ALLOW_PRIVATE_ENDPOINTS: "true",
    // Every browser in the run comes from 127.0.0.1, so the per-IP limits (auth 10/min, registration
    // 5/hour, password reset 3/hour) would be shared by all specs; scaled so the whole run's journeys fit
    // in them (the run signs up more than 50 accounts, so registration alone needs more than 10×).
    RATE_LIMIT_MULTIPLIER: "20",
    // A fresh state per run: e-mail to the outbox (read through the dev mailbox), the built-in test
    // payment provider, and rate limits in process memory rather than a Redis that outlives the run.
    // Set E2E_REDIS_URL to run against Redis on purpose.
    RESEND_API_KEY: "",
    STRIPE_SECRET_KEY: "",
    REDIS_URL: process.env.E2E_REDIS_URL ?? "",
    UPSTASH_REDIS_REST_URL: "",
    UPSTASH_REDIS_REST_TOKEN: "",
  };
}
