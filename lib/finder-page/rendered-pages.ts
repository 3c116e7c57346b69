/**
 * Rendered finder pages kept per process (docs/finder-page.md): a page is built once per distinct content
 * (its key is the language and everything the page shows), so a scan of an unchanged tag costs no
 * rendering. Content-addressed keys need no invalidation: a change to what the page shows (profile,
 * photos, status, reward, relay, emergency) makes a new key, and the old page ages out. Bounded by total
 * bytes, least recently used first. (`next start` compresses the answer: a route handler cannot send its
 * own Content-Encoding, Next drops it.)
 */
export const RENDERED_PAGES_MAX_BYTES = 16 * 1024 * 1024;

/**
 * A page's UTF-8 bytes, in an ArrayBuffer of their own: a Response takes them as they are (undici copies
 * them once, as the Fetch standard says), where a pooled Buffer would first need a copy of its own.
 */
export type PageBytes = Uint8Array<ArrayBuffer>;

const encoder = new TextEncoder();

/** A page's text as PageBytes. */
export function pageBytes(text: string): PageBytes {
  return encoder.encode(text);
}

export class RenderedPages {
  private readonly pages = new Map<string, PageBytes>();
  private total = 0;

  constructor(private readonly maxBytes = RENDERED_PAGES_MAX_BYTES) {}

  /** The page for a key, built by `render` when it is not held (or was evicted). */
  get(key: string, render: () => string): PageBytes {
    const held = this.pages.get(key);
    if (held) {
      // Most recently used last: Map keeps insertion order.
      this.pages.delete(key);
      this.pages.set(key, held);
      return held;
    }
    const page = pageBytes(render());
    this.pages.set(key, page);
    this.total += page.length + key.length;
    for (const [oldKey, old] of this.pages) {
      if (this.total <= this.maxBytes || oldKey === key) break;
      this.pages.delete(oldKey);
      this.total -= old.length + oldKey.length;
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
