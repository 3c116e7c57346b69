import { eq, inArray } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { typedTables } from "./queries";
import { toTagRecord } from "./records";


/**
 * The user's tags for the data export: each tag record with its profile, typed profile, photo list
 * (links, not bytes), insurance and status history.
 */
export async function exportTags(db: Executor, userId: string): Promise<unknown[]> {
  const owned = await db.select().from(schema.tags).where(eq(schema.tags.ownerId, userId));
  if (!owned.length) return [];
  const ids = owned.map((tag) => tag.id);
  const [profiles, photos, insurance, events, ...typed] = await Promise.all([
    db.select().from(schema.tagProfiles).where(inArray(schema.tagProfiles.tagId, ids)),
    db
      .select({ id: schema.tagPhotos.id, tagId: schema.tagPhotos.tagId, contentType: schema.tagPhotos.contentType, isPrimary: schema.tagPhotos.isPrimary, createdAt: schema.tagPhotos.createdAt })
      .from(schema.tagPhotos)
      .where(inArray(schema.tagPhotos.tagId, ids)),
    db.select().from(schema.tagInsurance).where(inArray(schema.tagInsurance.tagId, ids)),
    db.select().from(schema.tagEvents).where(inArray(schema.tagEvents.tagId, ids)),
    ...Object.values(typedTables).map((table) => db.select().from(table).where(inArray(table.tagId, ids))),
  ]);
  return owned.map((tag) => {
    const { tagId: _profileTag, ...profile } = profiles.find((row) => row.tagId === tag.id) ?? { tagId: tag.id };
    void _profileTag;
    const typedProfile = typed.flat().find((row) => row.tagId === tag.id) ?? null;
    return {
      ...toTagRecord(tag),
      // The owner's words for the lost poster are theirs too.
      lastSeenPlace: tag.lastSeenPlace,
      lastSeenWhen: tag.lastSeenWhen,
      profile,
      typedProfile,
      photos: photos
        .filter((photo) => photo.tagId === tag.id)
        .map((photo) => ({ id: photo.id, contentType: photo.contentType, isPrimary: photo.isPrimary, createdAt: photo.createdAt, url: `/api/photos/${photo.id}` })),
      insurance: insurance.find((row) => row.tagId === tag.id) ?? null,
      history: events.filter((event) => event.tagId === tag.id).map(({ fromStatus, toStatus, actorKind, reason, createdAt }) => ({ fromStatus, toStatus, actorKind, reason, createdAt })),
    };
  });
}
