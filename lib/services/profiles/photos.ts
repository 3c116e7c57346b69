import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { requireUser, withTransaction, type ServiceContext } from "@/lib/services/context";
import { NotFoundError, UnprocessableError } from "@/lib/services/errors";
import { ownedTag } from "@/lib/services/tags";
import { processPhoto } from "./image";
import { photoUrl } from "./queries";
import type { Photo } from "./schemas";

export const MAX_PHOTOS_PER_TAG = 10;
export const PHOTO_NOT_FOUND = "Photo not found.";

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * POST /profiles/:tagId/photos. The image is checked and re-encoded before the tag is locked; then,
 * in one transaction: at most 10 photos (422), and the primary moves to this photo when asked or when
 * the tag has none yet (its first photo).
 */
export async function addPhoto(ctx: ServiceContext, tagId: string, file: { bytes: Buffer }, isPrimary = false): Promise<Photo> {
  await ownedTag(ctx, tagId);
  const processed = await processPhoto(file.bytes);
  return withTransaction(ctx, async (tx) => {
    const tag = await ownedTag(tx, tagId, { lock: true });
    const photos = await tx.db.select({ isPrimary: schema.tagPhotos.isPrimary }).from(schema.tagPhotos).where(eq(schema.tagPhotos.tagId, tag.id));
    if (photos.length >= MAX_PHOTOS_PER_TAG) {
      throw new UnprocessableError(`A tag can have at most ${MAX_PHOTOS_PER_TAG} photos. Delete one first.`, { limit: MAX_PHOTOS_PER_TAG });
    }
    const primary = isPrimary || !photos.some((photo) => photo.isPrimary);
    if (primary) await tx.db.update(schema.tagPhotos).set({ isPrimary: false }).where(and(eq(schema.tagPhotos.tagId, tag.id), eq(schema.tagPhotos.isPrimary, true)));
    const [row] = await tx.db
      .insert(schema.tagPhotos)
      .values({ tagId: tag.id, contentType: processed.contentType, data: processed.data, byteSize: processed.byteSize, width: processed.width, height: processed.height, isPrimary: primary })
      .returning({ id: schema.tagPhotos.id, isPrimary: schema.tagPhotos.isPrimary });
    return { id: row!.id, url: photoUrl(row!.id), isPrimary: row!.isPrimary };
  });
}

/** DELETE /profiles/:tagId/photos/:photoId. When the primary goes, the oldest remaining photo takes its place. */
export async function deletePhoto(ctx: ServiceContext, tagId: string, photoId: string): Promise<{ message: string }> {
  if (!UUID_PATTERN.test(photoId)) throw new NotFoundError(PHOTO_NOT_FOUND);
  return withTransaction(ctx, async (tx) => {
    const tag = await ownedTag(tx, tagId, { lock: true });
    const [removed] = await tx.db
      .delete(schema.tagPhotos)
      .where(and(eq(schema.tagPhotos.id, photoId), eq(schema.tagPhotos.tagId, tag.id)))
      .returning({ isPrimary: schema.tagPhotos.isPrimary });
    if (!removed) throw new NotFoundError(PHOTO_NOT_FOUND);
    if (removed.isPrimary) await promoteOldest(tx.db, tag.id);
    return { message: "Photo deleted." };
  });
}

/** PATCH /profiles/:tagId/photos/:photoId `{ isPrimary: true }`: makes this photo the primary one. */
export async function setPrimaryPhoto(ctx: ServiceContext, tagId: string, photoId: string): Promise<Photo> {
  if (!UUID_PATTERN.test(photoId)) throw new NotFoundError(PHOTO_NOT_FOUND);
  return withTransaction(ctx, async (tx) => {
    const tag = await ownedTag(tx, tagId, { lock: true });
    const [photo] = await tx.db
      .select({ id: schema.tagPhotos.id })
      .from(schema.tagPhotos)
      .where(and(eq(schema.tagPhotos.id, photoId), eq(schema.tagPhotos.tagId, tag.id)));
    if (!photo) throw new NotFoundError(PHOTO_NOT_FOUND);
    // Clear first: a partial unique index allows one primary per tag.
    await tx.db.update(schema.tagPhotos).set({ isPrimary: false }).where(and(eq(schema.tagPhotos.tagId, tag.id), eq(schema.tagPhotos.isPrimary, true)));
    await tx.db.update(schema.tagPhotos).set({ isPrimary: true }).where(eq(schema.tagPhotos.id, photo.id));
    return { id: photo.id, url: photoUrl(photo.id), isPrimary: true };
  });
}

async function promoteOldest(db: Executor, tagId: string): Promise<void> {
  const [oldest] = await db
    .select({ id: schema.tagPhotos.id })
    .from(schema.tagPhotos)
    .where(eq(schema.tagPhotos.tagId, tagId))
    .orderBy(asc(schema.tagPhotos.createdAt), asc(schema.tagPhotos.id))
    .limit(1);
  if (oldest) await db.update(schema.tagPhotos).set({ isPrimary: true }).where(eq(schema.tagPhotos.id, oldest.id));
}

export interface StoredPhoto {
  id: string;
  contentType: string;
  data: Buffer;
  byteSize: number;
}

/**
 * The bytes behind a photo url (GET /api/photos/:photoId), or null. Ids are random UUIDs and the
 * content of an id never changes, so the route may cache it for good.
 */
export async function getStoredPhoto(ctx: ServiceContext, photoId: string): Promise<StoredPhoto | null> {
  if (!UUID_PATTERN.test(photoId)) return null;
  const [row] = await ctx.db
    .select({ id: schema.tagPhotos.id, contentType: schema.tagPhotos.contentType, data: schema.tagPhotos.data, byteSize: schema.tagPhotos.byteSize })
    .from(schema.tagPhotos)
    .where(eq(schema.tagPhotos.id, photoId));
  return row ?? null;
}

/**
 * The primary photo's URL (else the first photo's) of each of the caller's tags among `tagIds`, for
 * thumbnails in lists; tags without photos, and other users' tags, are absent from the map.
 */
export async function thumbnailsOf(ctx: ServiceContext, tagIds: string[]): Promise<Map<string, string>> {
  const { userId } = requireUser(ctx);
  const thumbnails = new Map<string, string>();
  if (tagIds.length === 0) return thumbnails;
  const rows = await ctx.db
    .select({ id: schema.tagPhotos.id, tagId: schema.tagPhotos.tagId })
    .from(schema.tagPhotos)
    .innerJoin(schema.tags, eq(schema.tags.id, schema.tagPhotos.tagId))
    .where(and(inArray(schema.tagPhotos.tagId, tagIds), eq(schema.tags.ownerId, userId)))
    .orderBy(desc(schema.tagPhotos.isPrimary), asc(schema.tagPhotos.createdAt), asc(schema.tagPhotos.id));
  for (const row of rows) if (!thumbnails.has(row.tagId)) thumbnails.set(row.tagId, photoUrl(row.id));
  return thumbnails;
}
