import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    // An import cycle (services ↔ jobs was one) makes load order matter and hides layering mistakes.
    // `import type` is not a runtime edge and is ignored by the rule.
    rules: { "import/no-cycle": ["error", { ignoreExternal: true }] },
    // Packages are never part of a cycle of ours: don't parse them (pglite's bundle overflows the parser).
    settings: { "import/ignore": ["node_modules"] },
  },
  { ignores: [".next/**", "node_modules/**", ".data/**", "db/migrations/**", "next-env.d.ts", "test-results/**", "playwright-report/**"] },
];

export default config;
