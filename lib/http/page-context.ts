import { cache } from "react";
import { notFound, redirect } from "next/navigation";
import { headers } from "next/headers";
import { getDatabase } from "@/db/client";
import { clientIp } from "./client-ip";
import type { ServiceContext } from "@/lib/services/context";
import { auth } from "./next-auth";
import { getUserById } from "@/lib/services/auth";
import { annotateActiveSpan, tracingActive } from "@/lib/telemetry/tracing";
import { telemetryUserHash } from "@/lib/telemetry/user";

/**
 * The signed-in user's service context for server components and server actions, or null. Goes
 * through next-auth's `auth()`, whose jwt callback refuses a revoked or expired session. Cached per
 * request (layout, header and page all ask).
 */
export const currentUserContext = cache(async function currentUserContext(): Promise<ServiceContext | null> {
  const session = await auth();
  const userId = session?.user?.id;
  const sessionId = (session as { sessionId?: string } | null)?.sessionId;
  if (!userId || !sessionId) return null;
  const db = getDatabase().db;
  const user = await getUserById(db, userId).catch(() => null);
  if (!user || user.suspendedAt) return null;
  const ip = clientIp(await headers());
  // Next's own spans name the page by its route template and carry the status; ours add who asked.
  if (tracingActive()) annotateActiveSpan({ "user.hash": telemetryUserHash(userId) });
  return { actor: { kind: "user", userId, role: user.role, sessionId, ip }, db };
});

/** As currentUserContext, but sends a signed-out visitor to the sign-in page and back afterwards. */
export async function requireUserContext(returnTo: string): Promise<ServiceContext> {
  const ctx = await currentUserContext();
  if (!ctx) redirect(`/login?next=${encodeURIComponent(returnTo)}`);
  return ctx;
}

/** An admin's context; anyone else gets the 404 page (the admin area does not admit it exists). */
export async function requireAdminContext(returnTo: string): Promise<ServiceContext> {
  const ctx = await requireUserContext(returnTo);
  if (ctx.actor.kind !== "user" || (ctx.actor.role !== "ADMIN" && ctx.actor.role !== "SUPER_ADMIN")) notFound();
  return ctx;
}

/**
 * The signed-in user's context when there is one, otherwise the anonymous public caller with its IP: for
 * pages and forms anyone may use (the finder's), like the API's optional-auth endpoints. The owner's own
 * visit is then recognised, and a signed-in finder's contact carries their id.
 */
export async function optionalUserContext(): Promise<ServiceContext> {
  return (await currentUserContext()) ?? { actor: { kind: "public", ip: clientIp(await headers()) }, db: getDatabase().db };
}
