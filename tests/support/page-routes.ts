import { readdirSync } from "node:fs";
import path from "node:path";

const APP_DIR = path.resolve(import.meta.dirname, "../../app");

/** Every page route of app/ as a pattern: route groups `(x)` dropped, `[param]` matching one segment. */
function pagePatterns(dir = APP_DIR, segments: string[] = []): RegExp[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) {
      const name = entry.name;
      const next = /^\(.+\)$/.test(name) ? segments : [...segments, name.startsWith("[") ? "[^/]+" : name.replace(/[.*+?^${}()|\\]/g, "\\$&")];
      return pagePatterns(path.join(dir, name), next);
    }
    return entry.name === "page.tsx" ? [new RegExp(`^/${segments.join("/")}/?$`)] : [];
  });
}

/** Whether a path of our site (no query) is served by a page of app/. */
export function isPagePath(pathname: string): boolean {
  return pagePatterns().some((pattern) => pattern.test(pathname));
}

/** The paths of every link to `appUrl` in a text (an e-mail's text part). */
export function linkedPaths(text: string, appUrl: string): string[] {
  const escaped = appUrl.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return [...text.matchAll(new RegExp(`${escaped}(/[^\\s?#)\\]>"]*)`, "g"))].map((match) => match[1]!);
}
