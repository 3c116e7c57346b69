import { eq } from "drizzle-orm";
import { schema } from "@/db/client";
import { requireUser, withTransaction, type ServiceContext } from "@/lib/services/context";
import { ConflictError, ForbiddenError, isUniqueViolation, NotFoundError } from "@/lib/services/errors";
import { organisationOfUser, toOrganisation } from "./queries";
import type { ApplyOrganisationInput, Organisation, UpdateOrganisationInput } from "./schemas";

export const NO_ORGANISATION = "You have no organisation. Apply first (POST /organisations).";
export const NOT_VERIFIED = "Your organisation is not verified yet. An admin checks each application before it can see alerts or file reports.";
const ALREADY_APPLIED = "This account already has an organisation.";

/**
 * POST /organisations: one organisation per account (the unique user id settles two applications at
 * once: the second is 409). It starts unverified; an admin verifies it.
 */
export async function applyForOrganisation(ctx: ServiceContext, input: ApplyOrganisationInput): Promise<Organisation> {
  const { userId } = requireUser(ctx);
  try {
    return await withTransaction(ctx, async (tx) => {
      if (await organisationOfUser(tx.db, userId)) throw new ConflictError(ALREADY_APPLIED);
      const [row] = await tx.db
        .insert(schema.organisations)
        .values({ userId, name: input.name, kind: input.kind, address: input.address, latitude: input.latitude, longitude: input.longitude, phone: input.phone, website: input.website ?? null })
        .returning();
      return toOrganisation(row!);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError(ALREADY_APPLIED);
    throw error;
  }
}

/** GET /organisations/me. */
export async function getMyOrganisation(ctx: ServiceContext): Promise<Organisation> {
  const { userId } = requireUser(ctx);
  const row = await organisationOfUser(ctx.db, userId);
  if (!row) throw new NotFoundError(NO_ORGANISATION);
  return toOrganisation(row);
}

/** The caller's organisation when they have one (the dashboard's page shows the application form otherwise). */
export async function findMyOrganisation(ctx: ServiceContext): Promise<Organisation | null> {
  const { userId } = requireUser(ctx);
  const row = await organisationOfUser(ctx.db, userId);
  return row ? toOrganisation(row) : null;
}

/** PATCH /organisations/me: the watch radius, phone and website; absent fields are kept, a null website clears it. */
export async function updateMyOrganisation(ctx: ServiceContext, input: UpdateOrganisationInput): Promise<Organisation> {
  const { userId } = requireUser(ctx);
  return withTransaction(ctx, async (tx) => {
    const row = await organisationOfUser(tx.db, userId, { lock: true });
    if (!row) throw new NotFoundError(NO_ORGANISATION);
    const updates: Partial<typeof schema.organisations.$inferInsert> = {};
    if (input.watchRadiusKm !== undefined) updates.watchRadiusKm = input.watchRadiusKm;
    if (input.phone !== undefined) updates.phone = input.phone;
    if (input.website !== undefined) updates.website = input.website;
    const [updated] = await tx.db.update(schema.organisations).set(updates).where(eq(schema.organisations.id, row.id)).returning();
    return toOrganisation(updated!);
  });
}

/** The caller's verified organisation, else 403 (no organisation, or not verified yet). */
export async function requireVerifiedOrganisation(ctx: ServiceContext, options: { lock?: boolean } = {}) {
  const { userId } = requireUser(ctx);
  const row = await organisationOfUser(ctx.db, userId, options);
  if (!row) throw new ForbiddenError(NO_ORGANISATION);
  if (!row.verifiedAt) throw new ForbiddenError(NOT_VERIFIED);
  return row;
}
