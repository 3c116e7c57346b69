import { sql } from "drizzle-orm";
import { check, date, integer, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";
import { scanClass, tags } from "./tags";

/**
 * Scans past their retention (RETENTION_SCANS_MONTHS, lib/services/retention) rolled up per tag, UTC day
 * and class: the retention run deletes a batch of old `scans` rows and adds them here in the same
 * transaction, so a tag's history by day survives the raw rows. `scans` counts the scans proper;
 * `sharedLocations` the finder-shared places (scans rows marked locationShared, never counted as scans).
 * tags.scan_count is not touched: it already counts every scan, old or new.
 */
export const tagScanDays = pgTable(
  "tag_scan_days",
  {
    tagId: uuid()
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
    day: date({ mode: "string" }).notNull(),
    scanClass: scanClass().notNull(),
    scans: integer().notNull().default(0),
    sharedLocations: integer().notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.tagId, table.day, table.scanClass] }),
    check("tag_scan_days_counts", sql`${table.scans} >= 0 and ${table.sharedLocations} >= 0`),
  ],
);

export type TagScanDay = typeof tagScanDays.$inferSelect;
