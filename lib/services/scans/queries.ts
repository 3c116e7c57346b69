import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import type { Tag } from "@/db/schema";
import { NotFoundError } from "@/lib/services/errors";

/**
 * The scans domain's reads on a bare database handle (or an open transaction): the tag behind a scan URL
 * and a client's recent rows on a tag. Routes, actions and pages use the verbs in index.ts instead.
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
        kind === "realScan" ? and(eq(schema.scans.scanClass, "REAL"), eq(schema.scans.locationShared, false)) : eq(schema.scans.locationShared, true),
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
