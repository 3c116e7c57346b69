import { eq, sql } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { preparedFor } from "@/db/prepared";
import type { Tag } from "@/db/schema";
import { hasEmergencyProfile } from "@/lib/services/emergency";
import { emergencyVisibleFor, listPhotos, readTypedProfile, type TypedProfile } from "@/lib/services/profiles";
import { publicRelayOf } from "@/lib/services/relay";
import { activeReward } from "@/lib/services/rewards";
import { finderCanReachOwner, type PublicDetails, type PublicScanView } from "@/lib/services/scans";

/** What a STOLEN tag's scan says first, before any message of the owner's. */
export const STOLEN_ALERT = "This item has been reported stolen. Please do not try to get it back yourself: message the owner from this page, or tell the police.";

/** The message a finder reads: the owner's while LOST; the stolen alert (and the owner's message) while STOLEN. */
export function finderMessage(tag: Pick<Tag, "status" | "lostMessage">): string | null {
  if (tag.status === "LOST") return tag.lostMessage;
  if (tag.status === "STOLEN") return tag.lostMessage ? `${STOLEN_ALERT}${OWNER_WORDS} ${tag.lostMessage}` : STOLEN_ALERT;
  return null;
}

const OWNER_WORDS = " Message from the owner:";

/**
 * The owner's own words inside a view's lostMessage: the finder's page shows the stolen alert as its own
 * banner, in the finder's language, and only what the owner wrote beside it.
 */
export function ownerWordsOf(view: Pick<PublicScanView, "status" | "lostMessage">): string | null {
  if (view.status !== "STOLEN" || !view.lostMessage?.startsWith(STOLEN_ALERT)) return view.lostMessage;
  const rest = view.lostMessage.slice(STOLEN_ALERT.length);
  return rest.startsWith(OWNER_WORDS) ? rest.slice(OWNER_WORDS.length).trim() || null : null;
}

/** The typed profile without what a finder must not see (see publicDetailsSchema). */
export function publicDetailsOf(profile: TypedProfile | null): PublicDetails {
  switch (profile?.tagType) {
    case "PET":
      return {
        tagType: "PET",
        petName: profile.petName,
        species: profile.species,
        breed: profile.breed,
        color: profile.color,
        size: profile.size,
        distinctiveMarks: profile.distinctiveMarks,
        needsMedication: profile.needsMedication && profile.showNeedsMedication ? true : null,
      };
    case "VEHICLE":
      return { tagType: "VEHICLE", make: profile.make, model: profile.model, year: profile.year, color: profile.color, licensePlate: profile.showPlate ? profile.licensePlate : null };
    case "DEVICE":
      return { tagType: "DEVICE", deviceType: profile.deviceType, brand: profile.brand, model: profile.model, color: profile.color };
    case "TRAVEL":
      return { tagType: "TRAVEL", luggageType: profile.luggageType, brand: profile.brand, color: profile.color };
    default:
      return null;
  }
}

const publicProfileQueries = new WeakMap<Executor, ReturnType<typeof preparePublicProfile>>();

function preparePublicProfile(db: Executor) {
  return db
    .select({ description: schema.tagProfiles.description, ownerName: schema.tagProfiles.ownerName, emergencyVisible: schema.tagProfiles.emergencyVisible })
    .from(schema.tagProfiles)
    .where(eq(schema.tagProfiles.tagId, sql.placeholder("tagId")))
    .prepare("public_profile");
}

/**
 * The public view of a tag, as GET /scan/:encryptedId and the finder page show it. Built field by field
 * from what finders may see: the owner's contact e-mail and phone, and the account's, are never read (the
 * relay gives its own number and the tag's PIN, docs/relay.md).
 */
export async function publicViewOf(db: Executor, tag: Tag): Promise<PublicScanView> {
  if (!tag.ownerId) {
    const base = { tagId: tag.id, encryptedId: tag.encryptedId, tagType: tag.tagType, reward: null, rewardCurrency: null };
    return { ...base, itemName: null, description: null, ownerName: null, status: "PENDING_SETUP", lostMessage: null, photos: [], contactEnabled: false, emergencyAvailable: false, details: null, relay: null };
  }
  const reachable = finderCanReachOwner(tag);
  // A DEACTIVATED tag shows nothing of its profile (the dashboard promises so when deactivating), like PRIVATE.
  const shown = tag.visibility === "PUBLIC" && tag.status !== "DEACTIVATED";
  // The reads are independent: one round of awaits (and the hot ones prepared, db/prepared.ts).
  const [reward, general, photos, typed, emergency, relay] = await Promise.all([
    activeReward(db, tag.id, tag.ownerId),
    // Read whatever the visibility: it holds the tag's emergency choice too (its text is dropped below when not shown).
    preparedFor(publicProfileQueries, db, preparePublicProfile).execute({ tagId: tag.id }),
    shown ? listPhotos(db, tag.id) : [],
    shown ? readTypedProfile(db, tag) : null,
    reachable ? hasEmergencyProfile(db, tag.ownerId) : false,
    publicRelayOf(db, tag),
  ]);
  const base = { tagId: tag.id, encryptedId: tag.encryptedId, tagType: tag.tagType, reward: reward?.amount ?? null, rewardCurrency: reward?.currency ?? null };
  const profile = general[0];
  return {
    ...base,
    itemName: shown ? tag.itemName : null,
    description: shown ? (profile?.description ?? null) : null,
    ownerName: shown ? (profile?.ownerName ?? null) : null,
    status: tag.status,
    lostMessage: finderMessage(tag),
    photos: [...photos].sort((a, b) => Number(b.isPrimary) - Number(a.isPrimary)).map((photo) => ({ url: photo.url, isPrimary: photo.isPrimary })),
    contactEnabled: reachable,
    emergencyAvailable: emergency && emergencyVisibleFor(tag.tagType, profile?.emergencyVisible),
    details: publicDetailsOf(typed),
    relay,
  };
}
