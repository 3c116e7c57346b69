/**
 * The OpenAPI document and the typed client's types, from the endpoint contracts (docs/api.md).
 *
 *   tsx scripts/openapi.ts document [file]   write the document (default .data/openapi.json) for `redocly lint`
 *   tsx scripts/openapi.ts types [file]      regenerate examples/client/schema.d.ts
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildOpenApiDocument } from "@/lib/openapi";
import { openApiTypes, TYPES_FILE } from "./openapi-types";

const DOCUMENT_FILE = ".data/openapi.json";

function write(file: string, contents: string) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, contents);
  console.log(`wrote ${file} (${Buffer.byteLength(contents)} bytes)`);
}

async function main(command: string | undefined, file: string | undefined): Promise<number> {
  if (command === "document") write(file ?? DOCUMENT_FILE, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
  else if (command === "types") write(file ?? TYPES_FILE, await openApiTypes());
  else {
    console.error("usage: tsx scripts/openapi.ts document [file] | types [file]");
    return 2;
  }
  return 0;
}

main(process.argv[2], process.argv[3]).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
