import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { isSwaggerUiAsset, swaggerUiAssetTypes, swaggerUiVersion, type SwaggerUiAsset } from "../../../swagger-assets";

type Loaded = { body: Uint8Array<ArrayBuffer>; etag: string };

// Read once per process: the files only change with a new install, which means a new server.
const cache = new Map<SwaggerUiAsset, Promise<Loaded>>();

function load(name: SwaggerUiAsset): Promise<Loaded> {
  let entry = cache.get(name);
  if (!entry) {
    // `next start` runs from the project directory, where node_modules lives.
    const file = path.join(process.cwd(), "node_modules", "swagger-ui-dist", name);
    entry = readFile(file).then((buffer) => ({
      body: new Uint8Array(buffer),
      etag: `"${createHash("sha256").update(buffer).digest("base64url").slice(0, 27)}"`,
    }));
    entry.catch(() => cache.delete(name));
    cache.set(name, entry);
  }
  return entry;
}

function notFound(): Response {
  return new Response("Not found", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/** Serves an allow-listed file of swagger-ui-dist; anything else, or another version, is 404. */
export async function GET(request: Request, { params }: { params: Promise<{ version: string; file: string }> }) {
  const { version, file } = await params;
  if (version !== swaggerUiVersion || !isSwaggerUiAsset(file)) return notFound();

  const { body, etag } = await load(file);
  const headers = {
    "Content-Type": swaggerUiAssetTypes[file],
    "Cache-Control": "public, max-age=31536000, immutable",
    ETag: etag,
  };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return new Response(body, { headers });
}
