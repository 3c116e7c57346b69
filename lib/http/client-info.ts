import type { ClientInfo } from "@/lib/services/auth";

/** What a session records of the client: its user agent and (masked later) IP. */
export function clientInfo(req: Request, ip: string): ClientInfo {
  return { userAgent: req.headers.get("user-agent"), ip: ip === "unknown" ? null : ip };
}
