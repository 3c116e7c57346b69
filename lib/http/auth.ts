import type { Executor } from "@/db/client";

/** Who sent the request, as resolved from its credentials. */
export type Caller =
  | { kind: "anonymous" }
  | {
      kind: "user";
      userId: string;
      role: "USER" | "ADMIN" | "SUPER_ADMIN";
      via: "bearer" | "api-key" | "cookie";
      sessionId?: string;
      apiKeyId?: string;
    };

export interface CallerResolution {
  req: Request;
  db: Executor;
  ip: string;
}

export type CallerResolver = (input: CallerResolution) => Promise<Caller>;

/**
 * The single place route() asks who is calling. The accounts issue fills it, in this order:
 * `Authorization: Bearer` access token, `X-API-Key`, then the next-auth session cookie (with the
 * same-origin check for unsafe methods). Until then every request is anonymous.
 */
export async function resolveCaller(input: CallerResolution): Promise<Caller> {
  void input;
  return { kind: "anonymous" };
}

export function isAdmin(caller: Caller): boolean {
  return caller.kind === "user" && (caller.role === "ADMIN" || caller.role === "SUPER_ADMIN");
}
