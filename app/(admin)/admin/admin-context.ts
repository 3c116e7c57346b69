import { notFound } from "next/navigation";
import { requireUserContext } from "@/lib/auth/page-context";
import type { ServiceContext } from "@/lib/services/context";

/** An admin's context; anyone else gets the 404 page (the admin area does not admit it exists). */
export async function requireAdminContext(returnTo: string): Promise<ServiceContext> {
  const ctx = await requireUserContext(returnTo);
  if (ctx.actor.kind !== "user" || (ctx.actor.role !== "ADMIN" && ctx.actor.role !== "SUPER_ADMIN")) notFound();
  return ctx;
}
