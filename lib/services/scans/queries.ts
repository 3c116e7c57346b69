import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import type { Tag } from "@/db/schema";
import { NotFoundError } from "@/lib/services/errors";
import { hashClientIp, type Visitor } from "@/lib/services/visitor";
import type { ShareLocationInput } from "./schemas";
import { describeUserAgent } from "./user-agents";

/**
 * The scans domain's helpers on a bare database handle (or an open transaction): the tag behind a scan
 * URL, a client's recent rows on a tag, and the row of a finder's shared location. Routes, actions and pages use the verbs in index.ts instead.
 */

export const SCAN_TAG_NOT_FOUND = "No tag has this scan address.";

/** `now()` (the transaction's time, as the scan's own scannedAt) minus a fixed span; `ms` is one of our constants. */
export const sinceMs = (ms: number) => sql`now() - ${sql.raw(`interval '${Math.trunc(ms)} milliseconds'`)}`;

/** The tag behind a scan URL, or 404. */
export async function tagByEncryptedId(db: Executor, encryptedId: string): Promise<Tag> {
  const [tag] = await db.select().from(schema.tags).where(eq(schema.tags.encryptedId, encryptedId));
  if (!tag) throw new NotFoundError(SCAN_TAG_NOT_FOUND);
  return tag;
}

const sameClient = (ipHash: string | null) => (ipHash ? eq(schema.scans.ipHash, ipHash) : isNull(schema.scans.ipHash));

/** This client's (by IP hash) rows of the given kind on the tag within `withinMs`, at most one: see clientRowWithin. */
export function clientRowsWithin(db: Executor, tagId: string, ipHash: string | null, kind: "realScan" | "sharedLocation", withinMs: number) {
  return db
    .select({ id: schema.scans.id })
    .from(schema.scans)
    .where(
      and(
        eq(schema.scans.tagId, tagId),
        sameClient(ipHash),
        // Written as literals, as the partial indexes' predicates are (db/schema/tags.ts): a prepared
        // statement's generic plan can use a partial index only when its query states the predicate itself.
        kind === "realScan" ? sql`${schema.scans.scanClass} = 'REAL' and not ${schema.scans.locationShared}` : sql`${schema.scans.locationShared}`,
        gt(schema.scans.scannedAt, sinceMs(withinMs)),
      ),
    )
    .limit(1);
}

/**
 * Whether this client (by IP hash) left a row of the given kind on the tag within `withinMs`: a REAL scan
 * (the repeat window: the one alert it already caused) or a shared location (one alert per 10 minutes).
 */
export async function clientRowWithin(db: Executor, tagId: string, ipHash: string | null, kind: "realScan" | "sharedLocation", withinMs: number): Promise<boolean> {
  const [row] = await clientRowsWithin(db, tagId, ipHash, kind, withinMs);
  return Boolean(row);
}

/**
 * A shared location kept in the tag's scan list (and on its map): a row marked locationShared, class REAL,
 * that is not a scan of the tag, so it is neither counted in scanCount nor used by clone detection. The
 * client's IP is kept only as a keyed hash.
 */
export async function insertSharedLocationScan(db: Executor, tagId: string, input: ShareLocationInput, visitor: Visitor): Promise<{ id: string; scannedAt: Date }> {
  const [row] = await db
    .insert(schema.scans)
    .values({
      tagId,
      ipHash: hashClientIp(visitor.ip),
      city: visitor.geo?.city ?? null,
      country: visitor.geo?.country ?? null,
      latitude: input.latitude,
      longitude: input.longitude,
      accuracy: input.accuracy ?? null,
      locationShared: true,
      scanClass: "REAL",
      agent: describeUserAgent(visitor.userAgent),
    })
    .returning({ id: schema.scans.id, scannedAt: schema.scans.scannedAt });
  return row!;
}
