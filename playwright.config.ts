import { defineConfig, devices } from "@playwright/test";
import { e2eBaseUrl, e2eServerEnv } from "./e2e/support/server-env";

/**
 * End-to-end tests in Debian's Chromium against `next start`.
 *
 * Build first: `npm run build && npm run test:e2e` (.ci/run builds before the e2e step). The server gets
 * a fresh database for the run (see e2e/support/web-server.ts): a new e2e_<runId> database on the
 * PostgreSQL server of DATABASE_URL when it is set, else a fresh PGlite DATA_DIR. Port: a free one per run, or E2E_PORT.
 */
const chromium = {
  executablePath: "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
};

export default defineConfig({
  testDir: "./e2e",
  outputDir: "./test-results",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: process.env.CI ? 1 : 2,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : [["list"]],
  use: {
    baseURL: e2eBaseUrl,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: { ...devices["Desktop Chrome"], launchOptions: chromium },
    },
  ],
  webServer: {
    command: "node --import tsx e2e/support/web-server.ts",
    // Ready when the app answers and its database does (503 until then).
    url: `${e2eBaseUrl}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: process.env.E2E_SERVER_LOG ? "pipe" : "ignore",
    stderr: "pipe",
    // SIGTERM to the process group, so the wrapper can drop the database after the server stops.
    gracefulShutdown: { signal: "SIGTERM", timeout: 20_000 },
    env: e2eServerEnv(),
  },
});
