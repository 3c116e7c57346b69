import { readdirSync } from "node:fs";
import path from "node:path";
import type { Endpoint } from "@/lib/http";
import type { RouteHandler } from "@/lib/http/route";

export const ROOT = path.resolve(import.meta.dirname, "../..");

/** `app/api/v1/tags/[id]/route.ts` → `/api/v1/tags/{id}`: the path form endpoint contracts use. */
export function routeFilePath(file: string): string {
  const relative = path.relative(path.join(ROOT, "app"), path.dirname(file)).split(path.sep);
  return `/${relative.map((part) => part.replace(/^\[(?:\.\.\.)?(.+)\]$/, "{$1}")).join("/")}`;
}

/** Every `route.ts` file under `dir`, as absolute paths. */
export function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

/**
 * The handler that serves each endpoint contract, found by importing the route files under app/api:
 * what a sweep over `allEndpoints` calls. Throws for a contract with no route file exporting its method,
 * so an endpoint cannot hide from the sweep.
 */
export async function handlersFor(endpoints: readonly Endpoint[]): Promise<{ endpoint: Endpoint; handler: RouteHandler }[]> {
  const byPath = new Map<string, Record<string, unknown>>();
  for (const file of routeFiles(path.join(ROOT, "app/api"))) byPath.set(routeFilePath(file), (await import(file)) as Record<string, unknown>);
  return endpoints.map((endpoint) => {
    const handler = byPath.get(endpoint.path)?.[endpoint.method];
    if (typeof handler !== "function") throw new Error(`no route file exports ${endpoint.method} for ${endpoint.path}`);
    return { endpoint, handler: handler as RouteHandler };
  });
}
