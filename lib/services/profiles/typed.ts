import { eq } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import type { Tag } from "@/db/schema";
import { requireUser, withTransaction, type ServiceContext } from "@/lib/services/context";
import { activateIfComplete, ownedTag, typedTables } from "@/lib/services/tags";
import { assertVinClaimable, canonicalVin } from "@/lib/services/vehicles";
import { toDevice, toPet, toTravel, toVehicle } from "./queries";
import type { DeviceProfile, DeviceProfileInput, PetProfile, PetProfileInput, TravelProfile, TravelProfileInput, VehicleProfile, VehicleProfileInput } from "./schemas";

type TypedTagType = "PET" | "VEHICLE" | "DEVICE" | "TRAVEL";

/**
 * The shared steps of a typed PUT, in one transaction: the caller's tag (locked), the typed profile
 * replaced by `save`, any profile of another type removed (a tag has one typed profile), the tag's
 * type set with typedProfileSavedAt, then PENDING_SETUP → ACTIVE when the profile is now complete.
 */
async function putTyped<T>(
  ctx: ServiceContext,
  tagId: string,
  tagType: TypedTagType,
  save: (db: Executor, tagId: string) => Promise<T>,
  beforeSave?: (tx: ServiceContext, tag: Tag) => Promise<void>,
): Promise<T> {
  const { userId } = requireUser(ctx);
  return withTransaction(ctx, async (tx) => {
    const owned = await ownedTag(tx, tagId, { lock: true });
    await beforeSave?.(tx, owned);
    const saved = await save(tx.db, owned.id);
    for (const [type, table] of Object.entries(typedTables)) {
      if (type !== tagType) await tx.db.delete(table).where(eq(table.tagId, owned.id));
    }
    const [tag] = await tx.db.update(schema.tags).set({ tagType, typedProfileSavedAt: new Date() }).where(eq(schema.tags.id, owned.id)).returning();
    await activateIfComplete(tx.db, tag!, userId);
    return saved;
  });
}

/** PUT /profiles/:tagId/pet */
export async function putPetProfile(ctx: ServiceContext, tagId: string, body: PetProfileInput): Promise<PetProfile> {
  return putTyped(ctx, tagId, "PET", async (db, id) => {
    const values = { petName: body.petName, species: body.species, breed: body.breed ?? null, color: body.color ?? null, microchip: body.microchip ?? null, vetInfo: body.vetInfo ?? null };
    const identifying = { size: body.size ?? null, distinctiveMarks: body.distinctiveMarks ?? null, needsMedication: body.needsMedication ?? false, showNeedsMedication: body.showNeedsMedication ?? false };
    const [row] = await db
      .insert(schema.petProfiles)
      .values({ tagId: id, ...values, ...identifying })
      .onConflictDoUpdate({ target: schema.petProfiles.tagId, set: { ...values, ...identifying } })
      .returning();
    return toPet(row!);
  });
}

/**
 * PUT /profiles/:tagId/vehicle (the VIN arrives validated and canonical: upper case, no spaces or hyphens).
 * A VIN held by another live tag is 409 (one claim per VIN; a report for review is filed when the holder is
 * someone else), unless this tag is DEACTIVATED, which claims nothing until it comes back.
 */
export async function putVehicleProfile(ctx: ServiceContext, tagId: string, body: VehicleProfileInput): Promise<VehicleProfile> {
  const vin = body.vin ? canonicalVin(body.vin) : null;
  const claim = async (tx: ServiceContext, tag: Tag) => {
    if (vin && tag.status !== "DEACTIVATED") await assertVinClaimable(tx, vin, tag);
  };
  return putTyped(ctx, tagId, "VEHICLE", async (db, id) => {
    const values = {
      make: body.make,
      model: body.model,
      year: body.year ?? null,
      color: body.color ?? null,
      licensePlate: body.licensePlate ?? null,
      showPlate: body.showPlate ?? false,
      vin,
    };
    const [row] = await db
      .insert(schema.vehicleProfiles)
      .values({ tagId: id, ...values })
      .onConflictDoUpdate({ target: schema.vehicleProfiles.tagId, set: values })
      .returning();
    return toVehicle(row!);
  }, claim);
}

/** PUT /profiles/:tagId/device */
export async function putDeviceProfile(ctx: ServiceContext, tagId: string, body: DeviceProfileInput): Promise<DeviceProfile> {
  return putTyped(ctx, tagId, "DEVICE", async (db, id) => {
    const values = { deviceType: body.deviceType, brand: body.brand ?? null, model: body.model ?? null, serialNumber: body.serialNumber ?? null, color: body.color ?? null };
    const [row] = await db
      .insert(schema.deviceProfiles)
      .values({ tagId: id, ...values })
      .onConflictDoUpdate({ target: schema.deviceProfiles.tagId, set: values })
      .returning();
    return toDevice(row!);
  });
}

/** PUT /profiles/:tagId/travel */
export async function putTravelProfile(ctx: ServiceContext, tagId: string, body: TravelProfileInput): Promise<TravelProfile> {
  return putTyped(ctx, tagId, "TRAVEL", async (db, id) => {
    const values = { luggageType: body.luggageType, color: body.color ?? null, brand: body.brand ?? null, flightNumber: body.flightNumber ?? null, destination: body.destination ?? null };
    const [row] = await db
      .insert(schema.travelProfiles)
      .values({ tagId: id, ...values })
      .onConflictDoUpdate({ target: schema.travelProfiles.tagId, set: values })
      .returning();
    return toTravel(row!);
  });
}
