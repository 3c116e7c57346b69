import { sql } from "drizzle-orm";
import { check, doublePrecision, index, integer, pgEnum, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { notifications } from "./notifications";
import { bytea, tags } from "./tags";
import { users } from "./users";

const ts = () => timestamp({ withTimezone: true, precision: 3 });

/**
 * Lost-pet alerts (docs/alerts.md). Places are plain latitude/longitude columns; the radius searches use
 * the `cube` + `earthdistance` extensions through GiST indexes on `earth_point(latitude, longitude)`, which
 * exist in PostgreSQL's contrib and in the embedded PGlite alike (decision 0045). `earth_point` is
 * `ll_to_earth` with a body bound when it was created (migration 0024): `ll_to_earth`'s body names `cube`
 * and `earth` unqualified, so pg_restore (which runs with an empty search_path) could not rebuild an index
 * on it. Queries must use `earth_point` on the columns for the index to serve them.
 */
const earthIndex = (name: string, table: { latitude: unknown; longitude: unknown }) =>
  index(name).using("gist", sql`earth_point(${table.latitude}, ${table.longitude})`);

/** A pet's kind as alerts match it; a profile's free-text species is read into one of these. */
export const petSpecies = pgEnum("pet_species", ["DOG", "CAT", "BIRD", "RABBIT", "OTHER"]);

/** The one area an account watches for lost pets (its home), stored rounded to ~100 m. */
export const alertAreas = pgTable(
  "alert_areas",
  {
    userId: uuid()
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    latitude: doublePrecision().notNull(),
    longitude: doublePrecision().notNull(),
    radiusKm: doublePrecision().notNull(),
    /** Null: every species. */
    species: petSpecies(),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts()
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [earthIndex("alert_areas_earth_idx", table), check("alert_areas_radius_check", sql`${table.radiusKm} between 1 and 50`)],
);

/**
 * An owner's alert for a LOST pet tag. The last-seen place is kept precise for the owner and the fan-out;
 * public pages round it. `closedAt` is set by a trigger when the tag leaves LOST (migration 0022), so
 * every path that changes a tag's status closes its alerts; `removedAt` by a moderator.
 */
export const lostPetAlerts = pgTable(
  "lost_pet_alerts",
  {
    id: uuid().primaryKey().defaultRandom(),
    tagId: uuid()
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
    ownerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    species: petSpecies().notNull(),
    latitude: doublePrecision().notNull(),
    longitude: doublePrecision().notNull(),
    lastSeenAt: ts().notNull(),
    radiusKm: doublePrecision().notNull(),
    note: text(),
    /** How many watchers the fan-out found (answered by the POST; the job notifies them). */
    recipientCount: integer().notNull().default(0),
    createdAt: ts().notNull().defaultNow(),
    closedAt: ts(),
    /** The tag's status that closed it (FOUND, ACTIVE, DEACTIVATED, …). */
    closedReason: text(),
    removedAt: ts(),
    removedById: uuid().references(() => users.id, { onDelete: "set null" }),
  },
  (table) => [
    index("lost_pet_alerts_tag_created_idx").on(table.tagId, table.createdAt),
    index("lost_pet_alerts_owner_created_idx").on(table.ownerId, table.createdAt),
    earthIndex("lost_pet_alerts_open_earth_idx", table).where(sql`${table.closedAt} is null and ${table.removedAt} is null`),
    index("lost_pet_alerts_open_created_idx").on(table.createdAt).where(sql`${table.closedAt} is null and ${table.removedAt} is null`),
    check("lost_pet_alerts_radius_check", sql`${table.radiusKm} between 1 and 20`),
  ],
);

/**
 * The watchers an alert reaches, written by the fan-out's one query with their distance; a row's
 * `notificationId` is set when the batch that notified it commits, so a retried job skips it.
 */
export const lostPetAlertRecipients = pgTable(
  "lost_pet_alert_recipients",
  {
    alertId: uuid()
      .notNull()
      .references(() => lostPetAlerts.id, { onDelete: "cascade" }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    distanceM: integer().notNull(),
    notificationId: uuid().references(() => notifications.id, { onDelete: "set null" }),
    notifiedAt: ts(),
  },
  (table) => [primaryKey({ columns: [table.alertId, table.userId] }), index("lost_pet_alert_recipients_user_idx").on(table.userId)],
);

export const organisationKind = pgEnum("organisation_kind", ["SHELTER", "VET", "POLICE"]);

/** A shelter, vet or police station: one per account, verified by an admin before it may file reports. */
export const organisations = pgTable(
  "organisations",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text().notNull(),
    kind: organisationKind().notNull(),
    address: text().notNull(),
    latitude: doublePrecision().notNull(),
    longitude: doublePrecision().notNull(),
    phone: text().notNull(),
    website: text(),
    /** How far around it the organisation sees open alerts (up to 100 km). */
    watchRadiusKm: doublePrecision().notNull().default(25),
    verifiedAt: ts(),
    verifiedById: uuid().references(() => users.id, { onDelete: "set null" }),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts()
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [index("organisations_created_idx").on(table.createdAt), check("organisations_watch_radius_check", sql`${table.watchRadiusKm} between 1 and 100`)],
);

/** An animal a verified organisation has found, matched against open alerts within 20 km. */
export const foundReports = pgTable(
  "found_reports",
  {
    id: uuid().primaryKey().defaultRandom(),
    organisationId: uuid()
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    species: petSpecies().notNull(),
    breed: text(),
    color: text(),
    latitude: doublePrecision().notNull(),
    longitude: doublePrecision().notNull(),
    foundAt: ts().notNull(),
    note: text().notNull(),
    createdAt: ts().notNull().defaultNow(),
    removedAt: ts(),
    removedById: uuid().references(() => users.id, { onDelete: "set null" }),
  },
  (table) => [index("found_reports_organisation_created_idx").on(table.organisationId, table.createdAt), earthIndex("found_reports_earth_idx", table)],
);

/** A found report's photo, re-encoded without metadata like a tag's; apart so lists never read the bytes. */
export const foundReportPhotos = pgTable("found_report_photos", {
  reportId: uuid()
    .primaryKey()
    .references(() => foundReports.id, { onDelete: "cascade" }),
  contentType: text().notNull(),
  data: bytea().notNull(),
  byteSize: integer().notNull(),
  width: integer().notNull(),
  height: integer().notNull(),
});

/** Which open alerts a found report matched when it was filed. */
export const foundReportMatches = pgTable(
  "found_report_matches",
  {
    reportId: uuid()
      .notNull()
      .references(() => foundReports.id, { onDelete: "cascade" }),
    alertId: uuid()
      .notNull()
      .references(() => lostPetAlerts.id, { onDelete: "cascade" }),
    distanceM: integer().notNull(),
    createdAt: ts().notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.reportId, table.alertId] }), index("found_report_matches_alert_idx").on(table.alertId)],
);

export type AlertArea = typeof alertAreas.$inferSelect;
export type LostPetAlert = typeof lostPetAlerts.$inferSelect;
export type Organisation = typeof organisations.$inferSelect;
export type FoundReport = typeof foundReports.$inferSelect;
