import { eq } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import type { Tag } from "@/db/schema";

const typedTables = {
  PET: schema.petProfiles,
  VEHICLE: schema.vehicleProfiles,
  DEVICE: schema.deviceProfiles,
  TRAVEL: schema.travelProfiles,
} as const;

/** decisions.md: complete when itemName is set and, for a typed tag, its typed profile is saved. */
export async function isProfileComplete(db: Executor, tag: Tag): Promise<boolean> {
  if (!tag.itemName?.trim()) return false;
  if (tag.tagType === "GENERAL") return true;
  const table = typedTables[tag.tagType];
  const [row] = await db.select({ tagId: table.tagId }).from(table).where(eq(table.tagId, tag.id));
  return Boolean(row);
}
