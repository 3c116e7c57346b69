import { count, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { schema } from "@/db/client";
import type { ServiceContext } from "@/lib/services/context";
import { ownedTag } from "./access";

export const scanRecordSchema = z
  .object({
    id: z.uuid(),
    scannedAt: z.iso.datetime(),
    city: z.string().nullable(),
    country: z.string().nullable(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    suspicious: z.boolean(),
  })
  .meta({ id: "TagScan" });

export type ScanRecord = z.infer<typeof scanRecordSchema>;

/** GET /tags/:id/scans: the owner's view of a tag's scans, newest first. The IP hash never leaves the service. */
export async function listTagScans(ctx: ServiceContext, tagId: string, page: { page: number; limit: number }): Promise<{ items: ScanRecord[]; total: number }> {
  const tag = await ownedTag(ctx, tagId);
  const where = eq(schema.scans.tagId, tag.id);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({
        id: schema.scans.id,
        scannedAt: schema.scans.scannedAt,
        city: schema.scans.city,
        country: schema.scans.country,
        latitude: schema.scans.latitude,
        longitude: schema.scans.longitude,
        suspicious: schema.scans.suspicious,
      })
      .from(schema.scans)
      .where(where)
      .orderBy(desc(schema.scans.scannedAt), desc(schema.scans.id))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    ctx.db.select({ n: count() }).from(schema.scans).where(where),
  ]);
  return { items: rows.map((row) => ({ ...row, scannedAt: row.scannedAt.toISOString() })), total: total?.n ?? 0 };
}
