import { defaultAppUrl } from "./brand";

/** A path inside the app: starts with one slash (never `//host`, which would leave APP_URL's host). */
export type AppPath = `/${string}`;

export interface ActionUrlOptions {
  /** Carried as `?token=<token>` (URL-encoded), the form every e-mailed token takes (docs/decisions/0009-secrets-and-token-formats.md). */
  token?: string;
  /** Further query parameters, appended after the token. */
  params?: Record<string, string>;
  /** Defaults to APP_URL. */
  appUrl?: string;
}

/**
 * An absolute link into the app: APP_URL + path (+ `?token=`). A path prefix in APP_URL
 * (`https://example.com/app`) is kept, and a path that tries to name another host is refused.
 */
export function buildActionUrl(path: AppPath, options: ActionUrlOptions = {}): string {
  if (!path.startsWith("/") || path.startsWith("//") || path.includes("\\")) {
    throw new Error(`buildActionUrl: "${path}" is not an app path`);
  }
  const base = new URL(options.appUrl ?? defaultAppUrl());
  const target = new URL(path, base.origin);
  const prefix = base.pathname.replace(/\/+$/, "");
  const url = new URL(`${prefix}${target.pathname}${target.search}${target.hash}`, base.origin);
  if (options.token !== undefined) {
    if (options.token === "") throw new Error("buildActionUrl: the token is empty");
    url.searchParams.set("token", options.token);
  }
  for (const [name, value] of Object.entries(options.params ?? {})) url.searchParams.set(name, value);
  return url.toString();
}
