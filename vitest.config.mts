import path from "node:path";
import { defineConfig } from "vitest/config";

// Two projects: unit (pure functions) and integration (route handlers against a real database).
// Integration files share one process per worker (isolate: false) and get a fresh database each,
// cloned from a migrated one (PGlite) or created from a migrated template (PostgreSQL).
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    pool: "forks",
    // next-auth imports `next/server` without an extension, which Node's ESM loader can't resolve: let Vite transform it.
    server: { deps: { inline: ["next-auth"] } },
    maxWorkers: 2,
    // Tests never reach real providers: e-mail goes to the outbox whatever the shell has set.
    env: { NODE_ENV: "test", NEXT_TELEMETRY_DISABLED: "1", LOG_LEVEL: "silent", RESEND_API_KEY: "", STRIPE_SECRET_KEY: "", UPSTASH_REDIS_REST_URL: "", UPSTASH_REDIS_REST_TOKEN: "" },
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["tests/unit/**/*.test.{ts,tsx}"] },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.{ts,tsx}"],
          globalSetup: ["tests/support/global-setup.ts"],
          // Hundreds of accounts are registered: cheaper password hashes (production refuses below 17;
          // tests/unit/password.test.ts checks the default).
          env: { PASSWORD_HASH_COST: "12" },
          setupFiles: ["tests/support/integration-setup.ts"],
          isolate: false,
          // Generous: a few rate-limit tests wait for a fresh window (awayFromWindowEdge) before filling one.
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
