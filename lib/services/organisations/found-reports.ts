import { and, eq, inArray, sql } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { publicLastSeenPoint } from "@/lib/services/alerts";
import { requireUser, withTransaction, type ServiceContext } from "@/lib/services/context";
import { ForbiddenError, NotFoundError, ValidationError } from "@/lib/services/errors";
import { notify } from "@/lib/services/notifications";
import { processPhoto } from "@/lib/services/profiles";
import { fieldMatches } from "./matching";
import { NO_ORGANISATION, requireVerifiedOrganisation } from "./organisations";
import { matchesOfReport, openAlertsOfSpeciesNear, organisationOfUser, toOrganisationAlert, type AlertCardRow } from "./queries";
import { MATCH_RADIUS_KM, type FileFoundReportInput, type FoundReport, type FoundReportFiled, type OrganisationAlert } from "./schemas";
import { boundedTotal, keysetPage, type ListOrder, type Page, type PageRequest } from "@/lib/services/paging";

const REPORT_NOT_FOUND = "Found report not found.";
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type ReportRow = typeof schema.foundReports.$inferSelect;
type OrganisationRow = typeof schema.organisations.$inferSelect;

/** Who reads a report: the filing organisation and admins see all of it; a matched owner the rounded place and their own matches. */
type Viewer = { kind: "organisation" } | { kind: "admin" } | { kind: "owner"; userId: string };

const speciesWords = { DOG: "dog", CAT: "cat", BIRD: "bird", RABBIT: "rabbit", OTHER: "animal" } as const;
const kindWords = { SHELTER: "an animal shelter", VET: "a vet", POLICE: "a police station" } as const;

export function foundReportPhotoPath(reportId: string): string {
  return `/api/v1/found-reports/${reportId}/photo`;
}

async function hasPhoto(db: Executor, reportIds: string[]): Promise<Set<string>> {
  if (reportIds.length === 0) return new Set();
  const rows = await db.select({ reportId: schema.foundReportPhotos.reportId }).from(schema.foundReportPhotos).where(inArray(schema.foundReportPhotos.reportId, reportIds));
  return new Set(rows.map((row) => row.reportId));
}

function toFoundReport(report: ReportRow, organisation: OrganisationRow, viewer: Viewer, withPhoto: boolean, matches: OrganisationAlert[]): FoundReport {
  const place = viewer.kind === "owner" ? publicLastSeenPoint(report.latitude, report.longitude) : { latitude: report.latitude, longitude: report.longitude };
  return {
    id: report.id,
    species: report.species,
    breed: report.breed,
    colour: report.color,
    photoUrl: withPhoto ? foundReportPhotoPath(report.id) : null,
    latitude: place.latitude,
    longitude: place.longitude,
    foundAt: report.foundAt.toISOString(),
    note: report.note,
    createdAt: report.createdAt.toISOString(),
    removed: report.removedAt !== null,
    organisation: { id: organisation.id, name: organisation.name, kind: organisation.kind, phone: organisation.phone, address: organisation.address, website: organisation.website },
    matches,
  };
}

async function readPhoto(bytes: Buffer) {
  try {
    return await processPhoto(bytes);
  } catch (error) {
    // processPhoto names the upload's `file` field; here the photo is the body's `photo`.
    if (error instanceof ValidationError) throw ValidationError.field("photo", error.message);
    throw error;
  }
}

/** "a dog", "an animal", "an orange cat": the article by the first letter, which is right for these words. */
function withArticle(words: string, capital = false): string {
  const article = /^[aeiou]/i.test(words) ? "an" : "a";
  return `${capital ? article[0]!.toUpperCase() + article.slice(1) : article} ${words}`;
}

function notificationOf(organisation: OrganisationRow, report: ReportRow, alert: AlertCardRow) {
  const pet = alert.petName ?? alert.itemName ?? "your pet";
  const animal = speciesWords[report.species];
  const described = [report.color, report.breed].filter(Boolean).join(" ");
  const found = `${described ? `${described} ` : ""}${animal}`;
  return {
    title: `${withArticle(animal, true)} found nearby may be ${pet}`,
    body: `${organisation.name}, ${kindWords[organisation.kind]}, found ${withArticle(found)} ${toOrganisationAlert(alert).distanceText} from where ${pet} was last seen. See the report and contact them.`,
  };
}

/**
 * POST /organisations/found: a verified organisation's found animal (403 otherwise). The photo is checked
 * and re-encoded without metadata before the transaction; in it, the report, its photo, its matches (open
 * alerts of the same species within 20 km whose colour and breed pass the report's: matching.ts) and one
 * FOUND_PET_MATCH per matched owner (naming their nearest matched alert) commit together.
 */
export async function fileFoundReport(ctx: ServiceContext, input: FileFoundReportInput): Promise<FoundReportFiled> {
  await requireVerifiedOrganisation(ctx);
  const photo = input.photo ? await readPhoto(input.photo) : null;
  return withTransaction(ctx, async (tx) => {
    const organisation = await requireVerifiedOrganisation(tx, { lock: true });
    const [report] = await tx.db
      .insert(schema.foundReports)
      .values({ organisationId: organisation.id, species: input.species, breed: input.breed ?? null, color: input.colour ?? null, latitude: input.latitude, longitude: input.longitude, foundAt: input.foundAt, note: input.note })
      .returning();
    if (photo) {
      await tx.db.insert(schema.foundReportPhotos).values({ reportId: report!.id, contentType: photo.contentType, data: photo.data, byteSize: photo.byteSize, width: photo.width, height: photo.height });
    }
    const candidates = await openAlertsOfSpeciesNear(tx.db, { latitude: input.latitude, longitude: input.longitude, metres: MATCH_RADIUS_KM * 1000 }, input.species);
    const matched = candidates.filter((alert) => fieldMatches(input.colour, alert.color) && fieldMatches(input.breed, alert.breed));
    if (matched.length) {
      await tx.db.insert(schema.foundReportMatches).values(matched.map((alert) => ({ reportId: report!.id, alertId: alert.id, distanceM: Math.round(alert.distanceM) })));
    }
    // Nearest first, so an owner with several open alerts (one pet alerted twice) hears once, of the nearest.
    const told = new Set<string>([organisation.userId]);
    for (const alert of matched) {
      if (told.has(alert.ownerId)) continue;
      told.add(alert.ownerId);
      await notify(tx, {
        userId: alert.ownerId,
        type: "FOUND_PET_MATCH",
        ...notificationOf(organisation, report!, alert),
        data: { foundReportId: report!.id, alertId: alert.id, organisationName: organisation.name },
      });
    }
    const matches = matched.map(toOrganisationAlert);
    return { report: toFoundReport(report!, organisation, { kind: "organisation" }, photo !== null, matches), matches };
  });
}

const foundReportsOrder: ListOrder<ReportRow> = {
  name: "found-reports",
  keys: [
    { column: schema.foundReports.createdAt, direction: "desc", type: "timestamp" },
    { column: schema.foundReports.id, direction: "desc", type: "uuid" },
  ],
  valuesOf: (row) => [row.createdAt, row.id],
};

/** GET /organisations/found: the caller's organisation's reports, newest first, each with its matches (403 without an organisation). */
export async function listMyFoundReports(ctx: ServiceContext, page: PageRequest): Promise<Page<FoundReport>> {
  const { userId } = requireUser(ctx);
  const organisation = await organisationOfUser(ctx.db, userId);
  if (!organisation) throw new ForbiddenError(NO_ORGANISATION);
  const where = eq(schema.foundReports.organisationId, organisation.id);
  const plan = keysetPage(foundReportsOrder, [organisation.id], page);
  const [rows, total] = await Promise.all([
    ctx.db
      .select()
      .from(schema.foundReports)
      .where(and(where, plan.where))
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    boundedTotal(ctx.db, ctx.db.select({ one: sql`1` }).from(schema.foundReports).where(where)),
  ]);
  const photos = await hasPhoto(
    ctx.db,
    rows.map((row) => row.id),
  );
  const items = await Promise.all(rows.slice(0, page.limit).map(async (row) => toFoundReport(row, organisation, { kind: "organisation" }, photos.has(row.id), (await matchesOfReport(ctx.db, row)).map(toOrganisationAlert))));
  return plan.finish(rows, (_, index) => items[index]!, total);
}

/**
 * Whether the caller may read the report, and as whom: the filing organisation's account, an admin, or
 * the owner of an alert it matched (not once a moderator removed it). Anyone else: 404, as if it did not exist.
 */
async function readableReport(ctx: ServiceContext, reportId: string): Promise<{ report: ReportRow; organisation: OrganisationRow; viewer: Viewer }> {
  const actor = requireUser(ctx);
  if (!UUID_PATTERN.test(reportId)) throw new NotFoundError(REPORT_NOT_FOUND);
  const [row] = await ctx.db
    .select({ report: schema.foundReports, organisation: schema.organisations })
    .from(schema.foundReports)
    .innerJoin(schema.organisations, eq(schema.organisations.id, schema.foundReports.organisationId))
    .where(eq(schema.foundReports.id, reportId));
  if (!row) throw new NotFoundError(REPORT_NOT_FOUND);
  if (row.organisation.userId === actor.userId) return { ...row, viewer: { kind: "organisation" } };
  if (actor.role === "ADMIN" || actor.role === "SUPER_ADMIN") return { ...row, viewer: { kind: "admin" } };
  if (!row.report.removedAt) {
    const [owned] = await ctx.db
      .select({ alertId: schema.foundReportMatches.alertId })
      .from(schema.foundReportMatches)
      .innerJoin(schema.lostPetAlerts, eq(schema.lostPetAlerts.id, schema.foundReportMatches.alertId))
      .where(and(eq(schema.foundReportMatches.reportId, reportId), eq(schema.lostPetAlerts.ownerId, actor.userId)))
      .limit(1);
    if (owned) return { ...row, viewer: { kind: "owner", userId: actor.userId } };
  }
  throw new NotFoundError(REPORT_NOT_FOUND);
}

/** GET /found-reports/:id. */
export async function getFoundReport(ctx: ServiceContext, reportId: string): Promise<FoundReport> {
  const { report, organisation, viewer } = await readableReport(ctx, reportId);
  const [photos, matches] = await Promise.all([hasPhoto(ctx.db, [report.id]), matchesOfReport(ctx.db, report, viewer.kind === "owner" ? { ownerId: viewer.userId } : {})]);
  return toFoundReport(report, organisation, viewer, photos.has(report.id), matches.map(toOrganisationAlert));
}

/** GET /found-reports/:id/photo: the re-encoded photo's bytes, to the same readers as the report (404 when it has none). */
export async function getFoundReportPhoto(ctx: ServiceContext, reportId: string): Promise<{ contentType: string; data: Buffer }> {
  const { report } = await readableReport(ctx, reportId);
  const [photo] = await ctx.db
    .select({ contentType: schema.foundReportPhotos.contentType, data: schema.foundReportPhotos.data })
    .from(schema.foundReportPhotos)
    .where(eq(schema.foundReportPhotos.reportId, report.id));
  if (!photo) throw new NotFoundError("This report has no photo.");
  return photo;
}
