import path from "node:path";
import type { RouteHandler } from "@/lib/http/route";
import { PEER_ADDRESS_HEADER } from "@/lib/http/client-ip";
import { ROOT, routeFiles } from "./route-files";
import { nextTestIp } from "./http";

type Route = { segments: string[]; module: Record<string, unknown> };

/** Literal segments beat `{param}`, which beats a catch-all, segment by segment: as Next's router chooses. */
function rank(segment: string): number {
  if (segment.startsWith("{...")) return 2;
  return segment.startsWith("{") ? 1 : 0;
}

function match(route: Route, parts: string[]): Record<string, string | string[]> | undefined {
  const params: Record<string, string | string[]> = {};
  for (let index = 0; index < route.segments.length; index++) {
    const segment = route.segments[index]!;
    if (segment.startsWith("{...")) {
      params[segment.slice(4, -1)] = parts.slice(index);
      return parts.length > index ? params : undefined;
    }
    const part = parts[index];
    if (part === undefined) return undefined;
    if (segment.startsWith("{")) params[segment.slice(1, -1)] = part;
    else if (segment !== part) return undefined;
  }
  return parts.length === route.segments.length ? params : undefined;
}

/**
 * A `fetch` that hands each Request to the app's own route handlers (every route.ts under app/api and
 * app/webhooks), with its path parameters, as Next would, stamped with a fresh client address: a client
 * library (openapi-fetch) then exercises the real handlers without a server.
 */
export async function appFetch(): Promise<(request: Request) => Promise<Response>> {
  const files = [...routeFiles(path.join(ROOT, "app/api")), ...routeFiles(path.join(ROOT, "app/webhooks"))];
  const routes: Route[] = [];
  for (const file of files) {
    // `app/api/v1/tags/[id]/route.ts` → api, v1, tags, {id}; a catch-all `[...path]` → {...path}.
    const segments = path
      .relative(path.join(ROOT, "app"), path.dirname(file))
      .split(path.sep)
      .map((part) => part.replace(/^\[(\.\.\.)?(.+)\]$/, (_, rest: string | undefined, name: string) => `{${rest ?? ""}${name}}`));
    routes.push({ segments, module: (await import(file)) as Record<string, unknown> });
  }
  routes.sort((a, b) => {
    for (let index = 0; index < Math.min(a.segments.length, b.segments.length); index++) {
      const difference = rank(a.segments[index]!) - rank(b.segments[index]!);
      if (difference !== 0) return difference;
    }
    return 0;
  });
  return async (request) => {
    const url = new URL(request.url);
    const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    for (const route of routes) {
      const params = match(route, parts);
      if (!params) continue;
      const handler = route.module[request.method] as RouteHandler | undefined;
      if (typeof handler !== "function") return new Response(null, { status: 405 });
      const headers = new Headers(request.headers);
      headers.set(PEER_ADDRESS_HEADER, nextTestIp());
      const forwarded = new Request(request, { headers });
      return handler(forwarded, { params: Promise.resolve(params) });
    }
    return new Response(null, { status: 404 });
  };
}
