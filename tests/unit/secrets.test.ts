import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildEnv } from "@/lib/env";
import { authSecret, DEVELOPMENT_WEBHOOK_SECRET, paymentWebhookSecret } from "@/lib/secrets";

describe("development secrets", () => {
  it("generates AUTH_SECRET once and keeps it in DATA_DIR", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "secrets-"));
    const env = buildEnv({ NODE_ENV: "development", DATA_DIR: dir });
    const first = authSecret(env);
    expect(first.length).toBeGreaterThanOrEqual(43);
    expect(authSecret(env)).toBe(first);
    expect(JSON.parse(readFileSync(path.join(dir, "secrets.json"), "utf8")).AUTH_SECRET).toBe(first);
    expect(statSync(path.join(dir, "secrets.json")).mode & 0o077).toBe(0);
    const other = buildEnv({ NODE_ENV: "development", DATA_DIR: mkdtempSync(path.join(tmpdir(), "secrets-")) });
    expect(authSecret(other)).not.toBe(first);
  });

  it("prefers configured secrets", () => {
    const env = buildEnv({ NODE_ENV: "development", AUTH_SECRET: "s".repeat(40), PAYMENT_WEBHOOK_SECRET: "whsec_configured_123" });
    expect(authSecret(env)).toBe("s".repeat(40));
    expect(paymentWebhookSecret(env)).toBe("whsec_configured_123");
    expect(paymentWebhookSecret(buildEnv({ NODE_ENV: "development" }))).toBe(DEVELOPMENT_WEBHOOK_SECRET);
  });
});
