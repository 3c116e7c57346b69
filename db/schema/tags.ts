import { sql } from "drizzle-orm";
import { bigint, boolean, customType, date, doublePrecision, index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

const ts = () => timestamp({ withTimezone: true, precision: 3 });
/** Binary columns (photos); PGlite hands them back as Uint8Array, postgres.js as Buffer. */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});

export const tagStatus = pgEnum("tag_status", ["PENDING_SETUP", "ACTIVE", "LOST", "FOUND", "STOLEN", "DEACTIVATED", "EXPIRED"]);
export const tagType = pgEnum("tag_type", ["GENERAL", "PET", "VEHICLE", "DEVICE", "TRAVEL"]);
export const profileVisibility = pgEnum("profile_visibility", ["PUBLIC", "PRIVATE"]);

/**
 * A physical tag. Minted as unowned PENDING_SETUP inventory; claimed by its printed code. The
 * encryptedId (scan URL) is opaque random and replaced when the tag is released.
 */
export const tags = pgTable(
  "tags",
  {
    id: uuid().primaryKey().defaultRandom(),
    /** 10 Crockford base32 characters, canonical (upper case, no hyphen). */
    code: text().notNull(),
    encryptedId: text().notNull(),
    ownerId: uuid().references(() => users.id, { onDelete: "cascade" }),
    status: tagStatus().notNull().default("PENDING_SETUP"),
    tagType: tagType().notNull().default("GENERAL"),
    itemName: text(),
    lostMessage: text(),
    /** Where and when the owner last saw a lost item, in their words: printed on the lost poster. */
    lastSeenPlace: text(),
    lastSeenWhen: text(),
    visibility: profileVisibility().notNull().default("PUBLIC"),
    scanCount: integer().notNull().default(0),
    lastScannedAt: ts(),
    activatedAt: ts(),
    /** When the typed profile of the tag's type was last saved (profile completeness). */
    typedProfileSavedAt: ts(),
    policeReportRef: text(),
    stolenReportedAt: ts(),
    /**
     * Bumped by triggers on every write to a table the finder's view reads besides this row (rewards,
     * profiles, photos, relay, the owner's phone and emergency profile): the scan's cache key
     * (docs/decisions, the public view's cache; lib/services/finder/view.ts).
     */
    viewVersion: bigint({ mode: "number" }).notNull().default(0),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts()
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [
    uniqueIndex("tags_code_key").on(table.code),
    uniqueIndex("tags_encrypted_id_key").on(table.encryptedId),
    index("tags_owner_created_id_idx").on(table.ownerId, table.createdAt, table.id),
    index("tags_owner_status_idx").on(table.ownerId, table.status),
  ],
);

/** Every status move, with who made it. */
export const tagEvents = pgTable(
  "tag_events",
  {
    id: uuid().primaryKey().defaultRandom(),
    tagId: uuid()
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
    fromStatus: tagStatus(),
    toStatus: tagStatus().notNull(),
    actorUserId: uuid().references(() => users.id, { onDelete: "set null" }),
    /** user | admin | system */
    actorKind: text().notNull(),
    reason: text(),
    createdAt: ts().notNull().defaultNow(),
  },
  (table) => [index("tag_events_tag_idx").on(table.tagId, table.createdAt)],
);

/** The general profile fields beside the tag's own itemName/visibility. */
export const tagProfiles = pgTable("tag_profiles", {
  tagId: uuid()
    .primaryKey()
    .references(() => tags.id, { onDelete: "cascade" }),
  description: text(),
  ownerName: text(),
  contactEmail: text(),
  contactPhone: text(),
  /**
   * Whether this tag's finder page offers the owner's emergency information. Null is the tag type's
   * default, read at scan time: off for PET tags (a lost pet's finder has no use for its owner's medical
   * data), on for the others; so a tag keeps following its type until the owner chooses.
   */
  emergencyVisible: boolean(),
  updatedAt: ts()
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
});

const typedKey = () =>
  uuid()
    .primaryKey()
    .references(() => tags.id, { onDelete: "cascade" });

export const petProfiles = pgTable("pet_profiles", {
  tagId: typedKey(),
  petName: text().notNull(),
  species: text().notNull(),
  breed: text(),
  color: text(),
  microchip: text(),
  vetInfo: text(),
  /** Shown to finders: what tells this animal apart. */
  size: text(),
  distinctiveMarks: text(),
  needsMedication: boolean().notNull().default(false),
  /** Finders read "needs medication" only when the owner chose to show it. */
  showNeedsMedication: boolean().notNull().default(false),
});

export const vehicleProfiles = pgTable(
  "vehicle_profiles",
  {
    tagId: typedKey(),
    make: text().notNull(),
    model: text().notNull(),
    year: integer(),
    color: text(),
    licensePlate: text(),
    /** Finders see the plate only when the owner chose to show it. */
    showPlate: boolean().notNull().default(false),
    /** Upper case, for GET /vehicles/verify/:vin. */
    vin: text(),
  },
  (table) => [index("vehicle_profiles_vin_idx").on(table.vin)],
);

export const deviceProfiles = pgTable("device_profiles", {
  tagId: typedKey(),
  deviceType: text().notNull(),
  brand: text(),
  model: text(),
  serialNumber: text(),
  color: text(),
});

export const travelProfiles = pgTable("travel_profiles", {
  tagId: typedKey(),
  luggageType: text().notNull(),
  color: text(),
  brand: text(),
  flightNumber: text(),
  destination: text(),
});

/** Photos are re-encoded (metadata stripped) and stored here by default; served by the app. */
export const tagPhotos = pgTable(
  "tag_photos",
  {
    id: uuid().primaryKey().defaultRandom(),
    tagId: uuid()
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
    contentType: text().notNull(),
    data: bytea().notNull(),
    byteSize: integer().notNull(),
    width: integer().notNull(),
    height: integer().notNull(),
    isPrimary: boolean().notNull().default(false),
    createdAt: ts().notNull().defaultNow(),
  },
  (table) => [
    index("tag_photos_tag_idx").on(table.tagId, table.createdAt),
    uniqueIndex("tag_photos_one_primary_key").on(table.tagId).where(sql`${table.isPrimary}`),
  ],
);

export const transferStatus = pgEnum("transfer_status", ["PENDING", "ACCEPTED", "DECLINED", "CANCELLED", "EXPIRED"]);

export const tagTransfers = pgTable(
  "tag_transfers",
  {
    id: uuid().primaryKey().defaultRandom(),
    tagId: uuid()
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
    fromUserId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    toEmail: text().notNull(),
    status: transferStatus().notNull().default("PENDING"),
    expiresAt: ts().notNull(),
    respondedAt: ts(),
    createdAt: ts().notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("tag_transfers_one_pending_key").on(table.tagId).where(sql`${table.status} = 'PENDING'`),
    index("tag_transfers_to_email_idx").on(table.toEmail, table.status),
    index("tag_transfers_from_user_idx").on(table.fromUserId, table.createdAt),
  ],
);

export const tagInsurance = pgTable("tag_insurance", {
  tagId: uuid()
    .primaryKey()
    .references(() => tags.id, { onDelete: "cascade" }),
  provider: text().notNull(),
  policyNumber: text().notNull(),
  /** Minor units. */
  coverageAmount: integer(),
  currency: text(),
  validUntil: date({ mode: "string" }),
  contactPhone: text(),
  createdAt: ts().notNull().defaultNow(),
  updatedAt: ts()
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
});

/**
 * What a scan was, for the scan-quality filter: only REAL scans alert the owner; every scan is kept.
 * BOT: a crawler or link-preview fetcher; PREFETCH: a HEAD request or browser prefetch; REPEAT: the same
 * client within 10 minutes; OWNER: the owner's own signed-in browser.
 */
export const scanClass = pgEnum("scan_class", ["REAL", "BOT", "PREFETCH", "REPEAT", "OWNER"]);

/** One row per scan of a tag's public page. The finder's IP is kept only as a keyed hash. */
export const scans = pgTable(
  "scans",
  {
    id: uuid().primaryKey().defaultRandom(),
    tagId: uuid()
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
    scannedAt: ts().notNull().defaultNow(),
    ipHash: text(),
    city: text(),
    country: text(),
    latitude: doublePrecision(),
    longitude: doublePrecision(),
    /** Location shared by the finder with consent (POST /scan/:encryptedId/location), in metres. */
    accuracy: doublePrecision(),
    locationShared: boolean().notNull().default(false),
    suspicious: boolean().notNull().default(false),
    scanClass: scanClass().notNull().default("REAL"),
    /** The user-agent class: the browser or bot family and device kind ("iPhone Safari", "Slackbot"), never the raw string. */
    agent: text(),
  },
  (table) => [
    index("scans_tag_scanned_id_idx").on(table.tagId, table.scannedAt, table.id),
    // A client's rows of a tag (lib/services/scans/queries.ts clientRowsWithin), in two partial indexes
    // rather than one of every scan: the repeat check of every scan (scan_repeat_remaining_ms) finds the
    // client's latest REAL scan at once however many REPEAT scans it made since (a phone reloading, a script
    // hammering), and those REPEAT, bot and prefetch scans, most of the rows, maintain neither.
    index("scans_tag_ip_real_idx").on(table.tagId, table.ipHash, table.scannedAt).where(sql`${table.scanClass} = 'REAL' and not ${table.locationShared}`),
    index("scans_tag_ip_shared_idx").on(table.tagId, table.ipHash, table.scannedAt).where(sql`${table.locationShared}`),
    // Admin analytics: scans per day across all tags.
    index("scans_scanned_idx").on(table.scannedAt),
    // The retention run's finder traces (lib/services/retention): only rows still holding an IP hash or a
    // shared place, about the last RETENTION_FINDER_TRACES_DAYS, so a run never walks the erased ones.
    index("scans_ip_hash_scanned_idx").on(table.scannedAt).where(sql`${table.ipHash} is not null`),
    index("scans_shared_place_scanned_idx").on(table.scannedAt).where(sql`${table.locationShared} and ${table.latitude} is not null`),
  ],
);

export type Tag = typeof tags.$inferSelect;
