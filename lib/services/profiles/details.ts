import { withTransaction, type ServiceContext } from "@/lib/services/context";
import { saveGeneralProfile } from "./general";
import type { DeviceProfileInput, GeneralProfileInput, PetProfileInput, TravelProfileInput, VehicleProfileInput } from "./schemas";
import { putDeviceProfile, putPetProfile, putTravelProfile, putVehicleProfile } from "./typed";

/** A typed profile as the dashboard's one tag form sends it, named by its kind. */
export type TypedDetails =
  | { kind: "PET"; body: PetProfileInput }
  | { kind: "VEHICLE"; body: VehicleProfileInput }
  | { kind: "DEVICE"; body: DeviceProfileInput }
  | { kind: "TRAVEL"; body: TravelProfileInput };

/**
 * The dashboard's one tag form: the type and the general profile (saveGeneralProfile) and, when given, the
 * typed details, in one transaction, so a refused part leaves nothing half-saved. Saving may complete the
 * profile (PENDING_SETUP → ACTIVE), as each part does on its own.
 */
export async function saveTagDetails(ctx: ServiceContext, tagId: string, general: GeneralProfileInput, typed: TypedDetails | null): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    await saveGeneralProfile(tx, tagId, general);
    if (!typed) return;
    switch (typed.kind) {
      case "PET":
        return void (await putPetProfile(tx, tagId, typed.body));
      case "VEHICLE":
        return void (await putVehicleProfile(tx, tagId, typed.body));
      case "DEVICE":
        return void (await putDeviceProfile(tx, tagId, typed.body));
      case "TRAVEL":
        return void (await putTravelProfile(tx, tagId, typed.body));
    }
  });
}
