import { readdirSync } from "node:fs";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// Domain boundaries (docs/architecture.md): lib/services/<domain>/index.ts is the only way into a domain, for
// app/, components/, the rest of lib/ and other domains alike; a domain's own files import each other freely.
const serviceDomains = readdirSync(new URL("./lib/services", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const boundaryMessage = "Import a service domain through its index (@/lib/services/<domain>), not its inner files: see docs/architecture.md.";
const innerFilesOf = (allowedDomain) => ({
  "no-restricted-imports": [
    "error",
    { patterns: [{ group: ["@/lib/services/*/*", ...(allowedDomain ? [`!@/lib/services/${allowedDomain}/*`] : [])], message: boundaryMessage }] },
  ],
});
// Not held to it: tests may reach inner files; e-mail templates sit below the services that render them and
// take pure text helpers from the file (through the index they would import the service that renders them);
// the benchmark's baseline server is a separate program that loads one pure helper and nothing else.
const boundaryExempt = ["tests/**", "e2e/**", "emails/**", "bench/**"];
const config = [
  ...nextVitals,
  ...nextTs,
  // Import loops (type-only imports included) are checked by tests/unit/import-cycles.test.ts, which reads
  // the imports in a second; eslint's import/no-cycle took two of the lint's three minutes and skips
  // `import type`.
  { files: ["**/*.{ts,tsx,mts,js,mjs}"], ignores: boundaryExempt, rules: innerFilesOf() },
  ...serviceDomains.map((domain) => ({ files: [`lib/services/${domain}/**`], rules: innerFilesOf(domain) })),
  { ignores: [".next/**", "node_modules/**", ".data/**", "db/migrations/**", "next-env.d.ts", "test-results/**", "playwright-report/**"] },
];

export default config;
