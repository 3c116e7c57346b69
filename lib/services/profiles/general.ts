import { eq } from "drizzle-orm";
import { schema } from "@/db/client";
import type { Tag } from "@/db/schema";
import { requireUser, withTransaction, type ServiceContext } from "@/lib/services/context";
import { activateIfComplete, ownedTag, updateTag } from "@/lib/services/tags";
import { profileOf } from "./queries";
import type { GeneralProfileInput, Profile, ProfilePatch } from "./schemas";

/** GET /profiles/:tagId */
export async function getProfile(ctx: ServiceContext, tagId: string): Promise<Profile> {
  const tag = await ownedTag(ctx, tagId);
  return profileOf(ctx.db, tag);
}

/**
 * PATCH /profiles/:tagId: itemName and visibility live on the tag, the rest in tag_profiles (upserted).
 * A PENDING_SETUP tag whose profile became complete turns ACTIVE.
 */
export async function updateProfile(ctx: ServiceContext, tagId: string, patch: ProfilePatch): Promise<Profile> {
  const { userId } = requireUser(ctx);
  return withTransaction(ctx, async (tx) => {
    let tag = await ownedTag(tx, tagId, { lock: true });

    const tagUpdates: Partial<typeof schema.tags.$inferInsert> = {};
    if (patch.itemName !== undefined) tagUpdates.itemName = patch.itemName;
    if (patch.visibility !== undefined) tagUpdates.visibility = patch.visibility;
    if (Object.keys(tagUpdates).length > 0) {
      [tag] = (await tx.db.update(schema.tags).set(tagUpdates).where(eq(schema.tags.id, tag.id)).returning()) as [Tag];
    }

    const profileUpdates: Partial<typeof schema.tagProfiles.$inferInsert> = {};
    if (patch.description !== undefined) profileUpdates.description = patch.description;
    if (patch.ownerName !== undefined) profileUpdates.ownerName = patch.ownerName;
    if (patch.contactEmail !== undefined) profileUpdates.contactEmail = patch.contactEmail;
    if (patch.contactPhone !== undefined) profileUpdates.contactPhone = patch.contactPhone;
    if (patch.emergencyVisible !== undefined) profileUpdates.emergencyVisible = patch.emergencyVisible;
    if (Object.keys(profileUpdates).length > 0) {
      await tx.db
        .insert(schema.tagProfiles)
        .values({ tagId: tag.id, ...profileUpdates })
        .onConflictDoUpdate({ target: schema.tagProfiles.tagId, set: { ...profileUpdates, updatedAt: new Date() } });
    }

    tag = await activateIfComplete(tx.db, tag, userId);
    return profileOf(tx.db, tag);
  });
}

/** The dashboard's general profile: the tag's type and its profile in one transaction (no type without the rest). */
export async function saveGeneralProfile(ctx: ServiceContext, tagId: string, input: GeneralProfileInput): Promise<Profile> {
  const { tagType, ...patch } = input;
  return withTransaction(ctx, async (tx) => {
    await updateTag(tx, tagId, { tagType });
    return updateProfile(tx, tagId, patch);
  });
}
