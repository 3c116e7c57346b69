const BASE = "http://same-site.invalid";

/**
 * The `?next=` destination after signing in, if it is a path on this site; otherwise null. Anything
 * that resolves to another origin (`//evil.example`, `/\evil.example`, `https://…`, tabs or newlines
 * the URL parser drops, dot segments that normalise to `//host`) is refused, and so are the sign-in pages
 * themselves.
 */
export function safeNextPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith("/")) return null;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE) return null;
  if (/^\/(login|register)(\/|$)/.test(url.pathname) || url.pathname.startsWith("/api/")) return null;
  // Normalising can itself make a protocol-relative URL: "/.//evil.example" resolves to the path
  // "//evil.example", which a browser then reads as another host. The result must stand on its own.
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (/^\/[\/\\]/.test(path) || new URL(path, BASE).origin !== BASE) return null;
  return path;
}

export function firstParam(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
