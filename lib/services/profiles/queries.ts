import { asc, count, eq, sql } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { preparedFor } from "@/db/prepared";
import type { Tag } from "@/db/schema";
import { emergencyVisibleFor, type DeviceProfile, PetProfile, Photo, Profile, TravelProfile, TypedProfile, VehicleProfile } from "./schemas";

/**
 * The profiles domain's reads on a bare database handle (or an open transaction), and the row mappers
 * its verbs share. Routes, actions and pages use the verbs in lib/services/profiles (index.ts) instead.
 */

/** Photos are served by the app at a stable, cacheable path. */
export function photoUrl(photoId: string): string {
  return `/api/photos/${photoId}`;
}

const photoListQueries = new WeakMap<Executor, ReturnType<typeof preparePhotoList>>();

/** Every scan of a public tag reads it: a prepared statement (db/prepared.ts). */
function preparePhotoList(db: Executor) {
  return db
    .select({ id: schema.tagPhotos.id, isPrimary: schema.tagPhotos.isPrimary })
    .from(schema.tagPhotos)
    .where(eq(schema.tagPhotos.tagId, sql.placeholder("tagId")))
    .orderBy(asc(schema.tagPhotos.createdAt), asc(schema.tagPhotos.id))
    .prepare("tag_photos");
}

export async function listPhotos(db: Executor, tagId: string): Promise<Photo[]> {
  const rows = await preparedFor(photoListQueries, db, preparePhotoList).execute({ tagId });
  return rows.map((row) => ({ id: row.id, url: photoUrl(row.id), isPrimary: row.isPrimary }));
}

export async function countPhotos(db: Executor, tagId: string): Promise<number> {
  const [row] = await db.select({ value: count() }).from(schema.tagPhotos).where(eq(schema.tagPhotos.tagId, tagId));
  return row?.value ?? 0;
}

type PetRow = typeof schema.petProfiles.$inferSelect;
type VehicleRow = typeof schema.vehicleProfiles.$inferSelect;
type DeviceRow = typeof schema.deviceProfiles.$inferSelect;
type TravelRow = typeof schema.travelProfiles.$inferSelect;

export const toPet = (row: PetRow): PetProfile => ({
  tagId: row.tagId,
  tagType: "PET",
  petName: row.petName,
  species: row.species,
  breed: row.breed,
  color: row.color,
  microchip: row.microchip,
  vetInfo: row.vetInfo,
  size: row.size,
  distinctiveMarks: row.distinctiveMarks,
  needsMedication: row.needsMedication,
  showNeedsMedication: row.showNeedsMedication,
});
export const toVehicle = (row: VehicleRow): VehicleProfile => ({
  tagId: row.tagId,
  tagType: "VEHICLE",
  make: row.make,
  model: row.model,
  year: row.year,
  color: row.color,
  licensePlate: row.licensePlate,
  showPlate: row.showPlate,
  vin: row.vin,
});
export const toDevice = (row: DeviceRow): DeviceProfile => ({
  tagId: row.tagId,
  tagType: "DEVICE",
  deviceType: row.deviceType,
  brand: row.brand,
  model: row.model,
  serialNumber: row.serialNumber,
  color: row.color,
});
export const toTravel = (row: TravelRow): TravelProfile => ({
  tagId: row.tagId,
  tagType: "TRAVEL",
  luggageType: row.luggageType,
  color: row.color,
  brand: row.brand,
  flightNumber: row.flightNumber,
  destination: row.destination,
});

/** The saved typed profile of the tag's current type, or null (GENERAL, or not saved yet). */
export async function readTypedProfile(db: Executor, tag: Pick<Tag, "id" | "tagType">): Promise<TypedProfile | null> {
  switch (tag.tagType) {
    case "PET": {
      const [row] = await db.select().from(schema.petProfiles).where(eq(schema.petProfiles.tagId, tag.id));
      return row ? toPet(row) : null;
    }
    case "VEHICLE": {
      const [row] = await db.select().from(schema.vehicleProfiles).where(eq(schema.vehicleProfiles.tagId, tag.id));
      return row ? toVehicle(row) : null;
    }
    case "DEVICE": {
      const [row] = await db.select().from(schema.deviceProfiles).where(eq(schema.deviceProfiles.tagId, tag.id));
      return row ? toDevice(row) : null;
    }
    case "TRAVEL": {
      const [row] = await db.select().from(schema.travelProfiles).where(eq(schema.travelProfiles.tagId, tag.id));
      return row ? toTravel(row) : null;
    }
    default:
      return null;
  }
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
    emergencyVisible: emergencyVisibleFor(tag.tagType, general?.emergencyVisible),
    tagType: tag.tagType,
    status: tag.status,
    photos: await listPhotos(db, tag.id),
    typedProfile: await readTypedProfile(db, tag),
  };
}
