import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/openapi";
import { openApiTypes, TYPES_FILE } from "@/scripts/openapi-types";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("the typed client's committed types", () => {
  it("are what openapi-typescript makes of the current document (else run `npm run openapi:types`)", async () => {
    const committed = readFileSync(path.join(ROOT, TYPES_FILE), "utf8");
    const generated = await openApiTypes(buildOpenApiDocument());
    // Compared as a whole, but reported by the first differing line: the file is long.
    if (committed !== generated) {
      const a = committed.split("\n");
      const b = generated.split("\n");
      const line = a.findIndex((text, index) => text !== b[index]);
      expect.fail(`${TYPES_FILE} is out of date at line ${line + 1}: committed ${JSON.stringify(a[line])}, generated ${JSON.stringify(b[line])}. Run \`npm run openapi:types\` and commit the file.`);
    }
  }, 60_000);
});
