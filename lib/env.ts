import { createEnv } from "@t3-oss/env-nextjs";
import { z } from "zod";

/**
 * The only reader of process.env. Every variable lives here with its default (the README's configuration table describes each).
 * Secrets that development generates for itself are required only when the server really runs in
 * production (not during `next build`, which also sets NODE_ENV=production).
 */
const booleanFlag = (fallback: boolean) => z.stringbool().default(fallback);
const optionalText = z.string().min(1).optional();
/** A phone number in E.164 (+ and up to 15 digits), as Twilio takes it. */
const e164 = z.string().regex(/^\+[1-9]\d{6,14}$/, "use E.164, e.g. +15005550006");
/**
 * TRUST_PROXY as the number of proxies in front: `false` 0, `true` 1 (one load balancer), or a whole
 * number N. A number is read before the boolean words, so "1" and "true" agree.
 */
const trustedProxyCount = z
  .string()
  .trim()
  .default("false")
  .pipe(z.union([z.string().regex(/^\d{1,2}$/).transform(Number), z.stringbool().transform((on) => (on ? 1 : 0))]));

export const productionSecrets = ["AUTH_SECRET", "PAYMENT_WEBHOOK_SECRET", "VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY", "VAPID_SUBJECT"] as const;

export class EnvironmentError extends Error {
  constructor(readonly variables: string[], detail: string) {
    super(`Invalid environment configuration: ${detail}`);
    this.name = "EnvironmentError";
  }
}

type Source = Record<string, string | undefined>;

function issueVariable(issue: { path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }): string {
  const first = issue.path?.[0];
  return String(typeof first === "object" && first !== null ? first.key : (first ?? "?"));
}

export function isProductionRuntime(source: Source): boolean {
  return source.NODE_ENV === "production" && source.NEXT_PHASE !== "phase-production-build";
}

/** The Twilio variables: all three configure the real relay, none the test provider (docs/relay.md). */
export const twilioVariables = ["TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN", "TWILIO_RELAY_NUMBER"] as const;

export function buildEnv(source: Source) {
  const built = buildEnvFields(source);
  const missing = twilioVariables.filter((name) => !built[name]);
  if (missing.length > 0 && missing.length < twilioVariables.length) {
    throw new EnvironmentError([...missing], `${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} required with the other Twilio variables (set all three, or none for the test telephony provider)`);
  }
  return built;
}

function buildEnvFields(source: Source) {
  const production = isProductionRuntime(source);
  const secret = (minLength: number) => (production ? z.string().min(minLength) : z.string().min(minLength).optional());

  return createEnv({
    server: {
      NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
      DATABASE_URL: z.url().optional(),
      DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(500).default(10),
      DATA_DIR: z.string().min(1).default("./.data"),
      REDIS_URL: z.url().optional(),
      UPSTASH_REDIS_REST_URL: z.url().optional(),
      UPSTASH_REDIS_REST_TOKEN: optionalText,
      AUTH_SECRET: secret(32),
      // log2 of scrypt's N for new password hashes; production keeps OWASP's 17 or more (lib/auth/password.ts).
      PASSWORD_HASH_COST: z.coerce.number().int().min(production ? 17 : 10).max(20).default(17),
      APP_URL: z.url().default("http://localhost:3000"),
      STRIPE_SECRET_KEY: optionalText,
      PAYMENT_WEBHOOK_SECRET: secret(16),
      PAYMENT_WEBHOOK_SECRET_PREVIOUS: z.string().min(16).optional(),
      STRIPE_PRO_PRICE_ID: optionalText,
      TWILIO_ACCOUNT_SID: optionalText,
      TWILIO_AUTH_TOKEN: optionalText,
      TWILIO_RELAY_NUMBER: e164.optional(),
      TELEPHONY_RELAY_NUMBER: e164.default("+15005550006"),
      TELEPHONY_WEBHOOK_SECRET: z.string().min(16).optional(),
      RESEND_API_KEY: optionalText,
      EMAIL_FROM: z.string().min(3).default("Tag Service <no-reply@tagservice.local>"),
      EMAIL_SEND_RATE: z.coerce.number().int().min(1).max(1000).default(2),
      SUPPORT_EMAIL: z.email().optional(),
      VAPID_PUBLIC_KEY: secret(20),
      VAPID_PRIVATE_KEY: secret(20),
      VAPID_SUBJECT: production ? z.string().regex(/^(mailto:|https:)/) : z.string().optional(),
      ADMIN_EMAIL: z.email().optional(),
      ADMIN_PASSWORD: optionalText,
      TRUST_PROXY: trustedProxyCount,
      // Which proxy's geo headers to read; a client can send any header, so only one that a proxy in front overwrites.
      GEO_HEADERS: z.enum(["none", "vercel", "cloudflare"]).default("none"),
      ENABLE_DEV_MAILBOX: z.stringbool().optional(),
      API_KEY_ENV: z.enum(["live", "test", "development"]).default("development"),
      RATE_LIMIT_MULTIPLIER: z.coerce.number().positive().default(1),
      PUSH_ALLOW_PRIVATE_ENDPOINTS: booleanFlag(false),
      LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
      // The Prometheus scraper's bearer token for GET /api/metrics; unset, the endpoint does not exist (404).
      METRICS_TOKEN: z.string().min(16).optional(),
      // Tracing over OTLP (lib/telemetry, docs/operations.md#tracing): the SDK itself reads every OTEL_* variable;
      // these are checked here so a typo stops the start instead of silently exporting nothing.
      OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url().optional(),
      OTEL_EXPORTER_OTLP_PROTOCOL: z.enum(["http/protobuf", "http/json"]).optional(),
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: z.enum(["http/protobuf", "http/json"]).optional(),
      BENCH_FLOOR: booleanFlag(false),
      // Data retention (lib/services/retention, docs/operations.md#retention): how long each kind of row is kept.
      RETENTION_FINDER_TRACES_DAYS: z.coerce.number().int().min(1).max(365).default(30),
      RETENTION_SCANS_MONTHS: z.coerce.number().int().min(1).max(120).default(13),
      RETENTION_CLOSED_MESSAGES_MONTHS: z.coerce.number().int().min(1).max(120).default(12),
      RETENTION_READ_NOTIFICATIONS_MONTHS: z.coerce.number().int().min(1).max(120).default(6),
      RETENTION_OPERATIONAL_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
      RETENTION_PAYMENT_EVENTS_DAYS: z.coerce.number().int().min(7).max(3650).default(90),
      RETENTION_JOBS_DAYS: z.coerce.number().int().min(1).max(365).default(7),
      // When the daily retention run starts (cron, UTC), or "off" to run it only by hand (npm run db:retention).
      RETENTION_SCHEDULE: z
        .string()
        .trim()
        .regex(/^(off|\S+( \S+){4})$/, 'use a 5-field cron expression ("17 3 * * *") or "off"')
        .default("17 3 * * *"),
    },
    client: {},
    runtimeEnv: {
      NODE_ENV: source.NODE_ENV,
      DATABASE_URL: source.DATABASE_URL,
      DATABASE_POOL_SIZE: source.DATABASE_POOL_SIZE,
      DATA_DIR: source.DATA_DIR,
      REDIS_URL: source.REDIS_URL,
      UPSTASH_REDIS_REST_URL: source.UPSTASH_REDIS_REST_URL,
      UPSTASH_REDIS_REST_TOKEN: source.UPSTASH_REDIS_REST_TOKEN,
      AUTH_SECRET: source.AUTH_SECRET,
      PASSWORD_HASH_COST: source.PASSWORD_HASH_COST,
      APP_URL: source.APP_URL,
      STRIPE_SECRET_KEY: source.STRIPE_SECRET_KEY,
      PAYMENT_WEBHOOK_SECRET: source.PAYMENT_WEBHOOK_SECRET,
      PAYMENT_WEBHOOK_SECRET_PREVIOUS: source.PAYMENT_WEBHOOK_SECRET_PREVIOUS,
      STRIPE_PRO_PRICE_ID: source.STRIPE_PRO_PRICE_ID,
      TWILIO_ACCOUNT_SID: source.TWILIO_ACCOUNT_SID,
      TWILIO_AUTH_TOKEN: source.TWILIO_AUTH_TOKEN,
      TWILIO_RELAY_NUMBER: source.TWILIO_RELAY_NUMBER,
      TELEPHONY_RELAY_NUMBER: source.TELEPHONY_RELAY_NUMBER,
      TELEPHONY_WEBHOOK_SECRET: source.TELEPHONY_WEBHOOK_SECRET,
      RESEND_API_KEY: source.RESEND_API_KEY,
      EMAIL_FROM: source.EMAIL_FROM,
      EMAIL_SEND_RATE: source.EMAIL_SEND_RATE,
      SUPPORT_EMAIL: source.SUPPORT_EMAIL,
      VAPID_PUBLIC_KEY: source.VAPID_PUBLIC_KEY,
      VAPID_PRIVATE_KEY: source.VAPID_PRIVATE_KEY,
      VAPID_SUBJECT: source.VAPID_SUBJECT,
      ADMIN_EMAIL: source.ADMIN_EMAIL,
      ADMIN_PASSWORD: source.ADMIN_PASSWORD,
      TRUST_PROXY: source.TRUST_PROXY,
      GEO_HEADERS: source.GEO_HEADERS,
      ENABLE_DEV_MAILBOX: source.ENABLE_DEV_MAILBOX,
      API_KEY_ENV: source.API_KEY_ENV,
      RATE_LIMIT_MULTIPLIER: source.RATE_LIMIT_MULTIPLIER,
      PUSH_ALLOW_PRIVATE_ENDPOINTS: source.PUSH_ALLOW_PRIVATE_ENDPOINTS,
      LOG_LEVEL: source.LOG_LEVEL,
      METRICS_TOKEN: source.METRICS_TOKEN,
      OTEL_EXPORTER_OTLP_ENDPOINT: source.OTEL_EXPORTER_OTLP_ENDPOINT,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: source.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
      OTEL_EXPORTER_OTLP_PROTOCOL: source.OTEL_EXPORTER_OTLP_PROTOCOL,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: source.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL,
      BENCH_FLOOR: source.BENCH_FLOOR,
      RETENTION_FINDER_TRACES_DAYS: source.RETENTION_FINDER_TRACES_DAYS,
      RETENTION_SCANS_MONTHS: source.RETENTION_SCANS_MONTHS,
      RETENTION_CLOSED_MESSAGES_MONTHS: source.RETENTION_CLOSED_MESSAGES_MONTHS,
      RETENTION_READ_NOTIFICATIONS_MONTHS: source.RETENTION_READ_NOTIFICATIONS_MONTHS,
      RETENTION_OPERATIONAL_DAYS: source.RETENTION_OPERATIONAL_DAYS,
      RETENTION_PAYMENT_EVENTS_DAYS: source.RETENTION_PAYMENT_EVENTS_DAYS,
      RETENTION_JOBS_DAYS: source.RETENTION_JOBS_DAYS,
      RETENTION_SCHEDULE: source.RETENTION_SCHEDULE,
    },
    emptyStringAsUndefined: true,
    onValidationError: (issues) => {
      const names = [...new Set(issues.map(issueVariable))];
      const detail = issues
        .map((issue) => {
          const name = issueVariable(issue);
          const missing = source[name] === undefined || source[name] === "";
          return missing ? `${name} is required${production ? " in production" : ""}` : `${name}: ${issue.message}`;
        })
        .join("; ");
      throw new EnvironmentError(names, detail);
    },
  });
}

export type Env = ReturnType<typeof buildEnv>;

export const env: Env = buildEnv(process.env);

/** True when the development mailbox (outbox reader) may be served. */
export function devMailboxEnabled(e: Env = env): boolean {
  const usesOutbox = !e.RESEND_API_KEY;
  if (!usesOutbox) return false;
  if (e.ENABLE_DEV_MAILBOX === true) return true;
  if (e.ENABLE_DEV_MAILBOX === false) return false;
  return e.NODE_ENV !== "production";
}

/** True when the real Twilio relay is configured (all three TWILIO_* variables); otherwise the test telephony provider serves. */
export function twilioConfigured(e: Env = env): boolean {
  return Boolean(e.TWILIO_ACCOUNT_SID && e.TWILIO_AUTH_TOKEN && e.TWILIO_RELAY_NUMBER);
}

/**
 * True when the development phone (GET /api/dev/phone, the test telephony provider's deliveries) may be
 * served: the development mailbox's switch (ENABLE_DEV_MAILBOX, else outside production), and only while
 * the test provider is the one in use.
 */
export function devPhoneEnabled(e: Env = env): boolean {
  if (twilioConfigured(e)) return false;
  if (e.ENABLE_DEV_MAILBOX === true) return true;
  if (e.ENABLE_DEV_MAILBOX === false) return false;
  return e.NODE_ENV !== "production";
}

/** The origin (scheme://host[:port]) of APP_URL, for same-origin checks and absolute links. */
export function appOrigin(e: Env = env): string {
  return new URL(e.APP_URL).origin;
}

/** Where contact-form messages are forwarded: SUPPORT_EMAIL, else support@<APP_URL's host>. */
export function supportEmail(e: Env = env): string {
  return e.SUPPORT_EMAIL ?? `support@${new URL(e.APP_URL).hostname}`;
}
