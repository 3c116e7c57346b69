import { and, desc, eq, or, sql } from "drizzle-orm";
import { z } from "zod";
import { schema } from "@/db/client";
import { scanClass } from "@/db/schema";
import type { ServiceContext } from "@/lib/services/context";
import { boundedTotal, keysetPage, type ListOrder, type Page, type PageRequest } from "@/lib/services/paging";
import { ownedTag } from "./access";

export const scanRecordSchema = z
  .object({
    id: z.uuid(),
    scannedAt: z.iso.datetime(),
    city: z.string().nullable(),
    country: z.string().nullable(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    suspicious: z.boolean().meta({ description: "Scanned minutes after a scan too far away for one tag to travel: a possible copy of the tag's code or link, or a VPN placing a finder elsewhere. Answered as any scan; the owner is alerted (TAG_CLONE_DETECTED) at most once per tag per 10 minutes" }),
    scanClass: z.enum(scanClass.enumValues).meta({
      description:
        "REAL: a person's scan (the only kind that alerts you); BOT: a crawler, link preview or link scanner; PREFETCH: a HEAD request or browser prefetch; REPEAT: the same client again within 10 minutes of its real scan; OWNER: your own signed-in browser. A shared location is REAL.",
    }),
    agent: z.string().nullable().meta({ description: "The kind of client, never the raw user agent", example: "iPhone · Safari" }),
    locationShared: z.boolean().meta({ description: "A finder shared this precise location (latitude, longitude, accuracy) with consent; not counted as a scan" }),
    accuracy: z.number().nullable().meta({ description: "Radius of a shared location's uncertainty, in metres" }),
  })
  .meta({ id: "TagScan" });

export type ScanRecord = z.infer<typeof scanRecordSchema>;

const scanColumns = {
  id: schema.scans.id,
  scannedAt: schema.scans.scannedAt,
  city: schema.scans.city,
  country: schema.scans.country,
  latitude: schema.scans.latitude,
  longitude: schema.scans.longitude,
  suspicious: schema.scans.suspicious,
  scanClass: schema.scans.scanClass,
  agent: schema.scans.agent,
  locationShared: schema.scans.locationShared,
  accuracy: schema.scans.accuracy,
};

const toScanRecord = (row: Omit<ScanRecord, "scannedAt"> & { scannedAt: Date }): ScanRecord => ({ ...row, scannedAt: row.scannedAt.toISOString() });

const scanOrder: ListOrder<Omit<ScanRecord, "scannedAt"> & { scannedAt: Date }> = {
  name: "tag-scans",
  keys: [
    { column: schema.scans.scannedAt, direction: "desc", type: "timestamp" },
    { column: schema.scans.id, direction: "desc", type: "uuid" },
  ],
  valuesOf: (row) => [row.scannedAt, row.id],
};

/**
 * GET /tags/:id/scans: the owner's view of a tag's scans, newest first, by page or by cursor (index
 * scans_tag_scanned_id_idx). The IP hash never leaves the service.
 */
export async function listTagScans(ctx: ServiceContext, tagId: string, page: PageRequest): Promise<Page<ScanRecord>> {
  const tag = await ownedTag(ctx, tagId);
  const where = eq(schema.scans.tagId, tag.id);
  const plan = keysetPage(scanOrder, [tag.id], page);
  const [rows, total] = await Promise.all([
    ctx.db
      .select(scanColumns)
      .from(schema.scans)
      .where(and(where, plan.where))
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    boundedTotal(ctx.db, ctx.db.select({ one: sql`1` }).from(schema.scans).where(where)),
  ]);
  return plan.finish(rows, toScanRecord, total);
}

/** The newest places a tag's map shows at most. */
export const TAG_MAP_PLACES = 200;

export interface TagMapPlaces {
  /** Shared locations and real scans with coordinates, newest first: the map's markers. */
  located: ScanRecord[];
  /** Real scans that only name a city or a country, newest first: listed beside the map. */
  cityOnly: ScanRecord[];
  /** Whether older places were left out (more than TAG_MAP_PLACES). */
  truncated: boolean;
}

/**
 * The places of the tag's map page: the finders' shared locations (from the finder page or a
 * conversation) and the real scans, newest first, at most TAG_MAP_PLACES. Bots, prefetches, repeats
 * and the owner's own scans say nothing of where the item is and are left out, as are scans with no
 * place at all. Another owner's tag is 404.
 */
export async function tagMapPlaces(ctx: ServiceContext, tagId: string): Promise<TagMapPlaces> {
  const tag = await ownedTag(ctx, tagId);
  const rows = await ctx.db
    .select(scanColumns)
    .from(schema.scans)
    .where(and(eq(schema.scans.tagId, tag.id), or(eq(schema.scans.locationShared, true), eq(schema.scans.scanClass, "REAL"))))
    .orderBy(desc(schema.scans.scannedAt), desc(schema.scans.id))
    .limit(TAG_MAP_PLACES + 1);
  const places = rows.slice(0, TAG_MAP_PLACES).map(toScanRecord);
  return {
    located: places.filter((scan) => scan.latitude !== null && scan.longitude !== null),
    cityOnly: places.filter((scan) => (scan.latitude === null || scan.longitude === null) && (scan.city !== null || scan.country !== null)),
    truncated: rows.length > TAG_MAP_PLACES,
  };
}

/** A tag's scans past the raw history's retention, kept as daily counts (tag_scan_days): what the list no longer shows. */
export interface RolledUpScans {
  /** Real scans (the ones that alerted the owner). */
  real: number;
  /** Every scan of any class. */
  all: number;
  /** Places finders shared. */
  sharedLocations: number;
  /** The first and last UTC day with a count, YYYY-MM-DD. */
  firstDay: string;
  lastDay: string;
}

/**
 * The owner's older history: scans the retention run removed from the list after RETENTION_SCANS_MONTHS
 * (docs/decisions/0048-data-retention.md), summed from their per-day counts; null when there are none.
 * Another owner's tag is 404.
 */
export async function rolledUpScans(ctx: ServiceContext, tagId: string): Promise<RolledUpScans | null> {
  const tag = await ownedTag(ctx, tagId);
  const days = schema.tagScanDays;
  const [row] = await ctx.db
    .select({
      real: sql<string>`coalesce(sum(${days.scans}) filter (where ${days.scanClass} = 'REAL'), 0)`,
      all: sql<string>`coalesce(sum(${days.scans}), 0)`,
      sharedLocations: sql<string>`coalesce(sum(${days.sharedLocations}), 0)`,
      firstDay: sql<string | null>`min(${days.day})::text`,
      lastDay: sql<string | null>`max(${days.day})::text`,
    })
    .from(days)
    .where(eq(days.tagId, tag.id));
  if (!row?.firstDay || !row.lastDay) return null;
  return { real: Number(row.real), all: Number(row.all), sharedLocations: Number(row.sharedLocations), firstDay: row.firstDay, lastDay: row.lastDay };
}
