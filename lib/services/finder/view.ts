import { eq, sql } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { preparedFor } from "@/db/prepared";
import type { Tag } from "@/db/schema";
import { hasEmergencyProfile } from "@/lib/services/emergency";
import { emergencyVisibleFor, listPhotos, type Photo, readTypedProfile, type TypedProfile } from "@/lib/services/profiles";
import { publicRelayFrom, relayPinOf } from "@/lib/services/relay";
import { activeReward, type RewardOffer } from "@/lib/services/rewards";
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
 * What the view reads besides the tag row, for an owned tag. It depends on the tag's id, owner and type
 * only (never on its status or visibility, which the composition applies), so it can be kept while the
 * tag's view_version stays the same: triggers bump it on every write to these tables (docs/database.md).
 */
export interface ViewReads {
  reward: RewardOffer | null;
  profile: { description: string | null; ownerName: string | null; emergencyVisible: boolean | null } | null;
  /** The primary photo first. */
  photos: readonly Photo[];
  typed: TypedProfile | null;
  /** The owner's emergency profile has something to serve (hasEmergencyProfile). */
  emergency: boolean;
  /** relayPinOf for the owner: a PIN only while the relay is on and the owner's number verified. */
  relayPin: string | null;
}

type OwnedTag = Pick<Tag, "id" | "tagType"> & { ownerId: string };

/** The view's reads, at once (one round of awaits; the hot ones prepared, db/prepared.ts). */
export async function readView(db: Executor, tag: OwnedTag): Promise<ViewReads> {
  const [reward, general, photos, typed, emergency, relayPin] = await Promise.all([
    activeReward(db, tag.id, tag.ownerId),
    preparedFor(publicProfileQueries, db, preparePublicProfile).execute({ tagId: tag.id }),
    listPhotos(db, tag.id),
    readTypedProfile(db, tag),
    hasEmergencyProfile(db, tag.ownerId),
    relayPinOf(db, tag.id, tag.ownerId),
  ]);
  return { reward, profile: general[0] ?? null, photos: [...photos].sort((a, b) => Number(b.isPrimary) - Number(a.isPrimary)), typed, emergency, relayPin };
}

/**
 * The public view of a tag, as GET /scan/:encryptedId and the finder page show it, from the tag row and
 * readView's answer (null for an unowned tag). Built field by field from what finders may see: the owner's
 * contact e-mail and phone, and the account's, are never read (the relay gives its own number and the
 * tag's PIN, docs/relay.md). Pure: every field of the tag row (status, visibility, item name, message,
 * whether the owner can be reached) is taken from `tag` as given.
 */
export function composePublicView(tag: Tag, reads: ViewReads | null): PublicScanView {
  if (!tag.ownerId || !reads) {
    const base = { tagId: tag.id, encryptedId: tag.encryptedId, tagType: tag.tagType, reward: null, rewardCurrency: null };
    return { ...base, itemName: null, description: null, ownerName: null, status: "PENDING_SETUP", lostMessage: null, photos: [], contactEnabled: false, emergencyAvailable: false, details: null, relay: null };
  }
  const reachable = finderCanReachOwner(tag);
  // A DEACTIVATED tag shows nothing of its profile (the dashboard promises so when deactivating), like PRIVATE.
  const shown = tag.visibility === "PUBLIC" && tag.status !== "DEACTIVATED";
  // The profile row is read whatever the visibility: it holds the tag's emergency choice too.
  const { reward, profile } = reads;
  return {
    tagId: tag.id,
    encryptedId: tag.encryptedId,
    tagType: tag.tagType,
    reward: reward?.amount ?? null,
    rewardCurrency: reward?.currency ?? null,
    itemName: shown ? tag.itemName : null,
    description: shown ? (profile?.description ?? null) : null,
    ownerName: shown ? (profile?.ownerName ?? null) : null,
    status: tag.status,
    lostMessage: finderMessage(tag),
    photos: shown ? reads.photos.map((photo) => ({ url: photo.url, isPrimary: photo.isPrimary })) : [],
    contactEnabled: reachable,
    emergencyAvailable: reachable && reads.emergency && emergencyVisibleFor(tag.tagType, profile?.emergencyVisible),
    details: shown ? publicDetailsOf(reads.typed) : null,
    relay: publicRelayFrom(tag, reads.relayPin),
  };
}

/** The public view read now, without the cache: the owner's preview (lib/services/finder/preview.ts), tests. */
export async function publicViewOf(db: Executor, tag: Tag): Promise<PublicScanView> {
  return composePublicView(tag, tag.ownerId ? await readView(db, { id: tag.id, tagType: tag.tagType, ownerId: tag.ownerId }) : null);
}

/**
 * How many tags' reads a process keeps (the least recently scanned go first). A few thousand entries of a
 * few hundred bytes each (photos are ids, not images): some megabytes at most.
 */
export const VIEW_CACHE_ENTRIES = 5_000;

/** readView's answer and what it was read for: it holds only while all four still match the scanned row. */
interface CachedView {
  version: number;
  ownerId: string;
  tagType: Tag["tagType"];
  reads: ViewReads;
}

// Per tag id, in least recently used order (a Map keeps insertion order). On globalThis, as the metrics and
// the database handle, so the API's route handlers and the finder page (separate Next bundles) share it.
const viewCacheStore = globalThis as { __tagServiceViewCache?: Map<string, CachedView> };
const viewCache = (viewCacheStore.__tagServiceViewCache ??= new Map<string, CachedView>());

/**
 * The public view of a tag row just returned by its scan (recordScan): the reads come from this process's
 * cache while the row's view_version, owner and type are those they were read for, else are read and kept.
 * Each instance keeps its own cache and stays right, since the version comes from the row every scan
 * returns. Reads made after seeing version v hold at least v's data, so keeping them under v is safe.
 */
export async function scanViewOf(db: Executor, tag: Tag): Promise<PublicScanView> {
  if (!tag.ownerId) return composePublicView(tag, null);
  const cached = viewCache.get(tag.id);
  if (cached && cached.version === tag.viewVersion && cached.ownerId === tag.ownerId && cached.tagType === tag.tagType) {
    viewCache.delete(tag.id);
    viewCache.set(tag.id, cached);
    return composePublicView(tag, cached.reads);
  }
  const reads = await readView(db, { id: tag.id, tagType: tag.tagType, ownerId: tag.ownerId });
  // Always the latest read, even of an older version than one stored meanwhile (the next scan then reads
  // again): only an exact match is used, and a version set back by restoring a backup into the live
  // database is replaced at its first scan (restart the instances after such a restore: docs/operations.md).
  viewCache.delete(tag.id);
  viewCache.set(tag.id, { version: tag.viewVersion, ownerId: tag.ownerId, tagType: tag.tagType, reads });
  if (viewCache.size > VIEW_CACHE_ENTRIES) viewCache.delete(viewCache.keys().next().value!);
  return composePublicView(tag, reads);
}

/** Empties this process's cache of view reads (tests that count a cold scan's statements). */
export function clearViewCache(): void {
  viewCache.clear();
}
