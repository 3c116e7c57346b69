import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";

/**
 * Rendered finder pages kept per process (docs/finder-page.md): a page is built once per distinct content
 * (its key is the language and everything the page shows) and compressed once per encoding, so a scan of
 * an unchanged tag costs no rendering and no compression. Content-addressed keys need no invalidation: a
 * change to what the page shows (profile, photos, status, reward, relay, emergency) makes a new key, and
 * the old page ages out. Bounded by total bytes, least recently used first.
 */
export const RENDERED_PAGES_MAX_BYTES = 24 * 1024 * 1024;

export type PageEncoding = "br" | "gzip" | "identity";

export class RenderedPage {
  readonly identity: Buffer;
  private gzip?: Buffer;
  private br?: Buffer;

  constructor(text: string) {
    this.identity = Buffer.from(text, "utf8");
  }

  /** The body in an encoding, compressed the first time it is asked for. */
  body(encoding: PageEncoding): Buffer {
    if (encoding === "gzip") return (this.gzip ??= gzipSync(this.identity, { level: 9 }));
    if (encoding === "br") return (this.br ??= brotliCompressSync(this.identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: this.identity.length } }));
    return this.identity;
  }

  /** What it may hold, counted against the bound: the text plus room for its two compressed forms (each well under a quarter of it). */
  get bytes(): number {
    return this.identity.length + Math.ceil(this.identity.length / 2);
  }
}

export class RenderedPages {
  private readonly pages = new Map<string, RenderedPage>();
  private total = 0;

  constructor(private readonly maxBytes = RENDERED_PAGES_MAX_BYTES) {}

  /** The page for a key, built by `render` when it is not held (or was evicted). */
  get(key: string, render: () => string): RenderedPage {
    const held = this.pages.get(key);
    if (held) {
      // Most recently used last: Map keeps insertion order.
      this.pages.delete(key);
      this.pages.set(key, held);
      return held;
    }
    const page = new RenderedPage(render());
    this.pages.set(key, page);
    this.total += page.bytes + key.length;
    for (const [oldKey, old] of this.pages) {
      if (this.total <= this.maxBytes || oldKey === key) break;
      this.pages.delete(oldKey);
      this.total -= old.bytes + oldKey.length;
    }
    return page;
  }

  get size(): number {
    return this.pages.size;
  }

  get heldBytes(): number {
    return this.total;
  }
}

/**
 * The encoding to answer with for an Accept-Encoding header: brotli, then gzip, when the client takes them
 * (a q=0 refuses one), else none.
 */
export function pageEncoding(acceptEncoding: string | null): PageEncoding {
  if (!acceptEncoding) return "identity";
  const accepted = new Set<string>();
  for (const part of acceptEncoding.slice(0, 500).toLowerCase().split(",")) {
    const [name = "", ...params] = part.trim().split(";");
    const q = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue;
    accepted.add(name.trim());
  }
  if (accepted.has("br")) return "br";
  if (accepted.has("gzip") || accepted.has("x-gzip")) return "gzip";
  return "identity";
}
