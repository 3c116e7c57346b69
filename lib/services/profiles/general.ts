import { asc, eq } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import type { Tag } from "@/db/schema";
import { requireUser, withTransaction, type ServiceContext } from "@/lib/services/context";
import { ownedTag } from "@/lib/services/tags/access";
import { activateIfComplete } from "@/lib/services/tags/queries";
import { updateTag } from "@/lib/services/tags/inventory";
import type { GeneralProfileInput, Photo, Profile, ProfilePatch } from "./schemas";
import { readTypedProfile } from "./typed";

/** Photos are served by the app at a stable, cacheable path. */
export function photoUrl(photoId: string): string {
  return `/api/photos/${photoId}`;
}

export async function listPhotos(db: Executor, tagId: string): Promise<Photo[]> {
  const rows = await db
    .select({ id: schema.tagPhotos.id, isPrimary: schema.tagPhotos.isPrimary })
    .from(schema.tagPhotos)
    .where(eq(schema.tagPhotos.tagId, tagId))
    .orderBy(asc(schema.tagPhotos.createdAt), asc(schema.tagPhotos.id));
  return rows.map((row) => ({ id: row.id, url: photoUrl(row.id), isPrimary: row.isPrimary }));
}

/** The profile of a tag the caller owns (any other tag reads as missing). */
export async function profileOf(db: Executor, tag: Tag): Promise<Profile> {
  const [general] = await db.select().from(schema.tagProfiles).where(eq(schema.tagProfiles.tagId, tag.id));
  return {
    tagId: tag.id,
    itemName: tag.itemName,
    description: general?.description ?? null,
    ownerName: general?.ownerName ?? null,
    contactEmail: general?.contactEmail ?? null,
    contactPhone: general?.contactPhone ?? null,
    visibility: tag.visibility,
    tagType: tag.tagType,
    status: tag.status,
    photos: await listPhotos(db, tag.id),
    typedProfile: await readTypedProfile(db, tag),
  };
}

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
