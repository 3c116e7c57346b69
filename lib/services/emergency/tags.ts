import { and, asc, eq, ne } from "drizzle-orm";
import { schema } from "@/db/client";
import { requireUser, type ServiceContext } from "@/lib/services/context";
import { emergencyVisibleFor } from "@/lib/services/profiles";

export interface EmergencyTag {
  id: string;
  itemName: string | null;
  tagType: string;
}

/**
 * The caller's tags whose finder page offers the emergency information (each tag's emergencyVisible,
 * else its type's default), oldest first. DEACTIVATED tags serve nothing and are left out.
 */
export async function listTagsShowingEmergency(ctx: ServiceContext): Promise<EmergencyTag[]> {
  const { userId } = requireUser(ctx);
  const rows = await ctx.db
    .select({ id: schema.tags.id, itemName: schema.tags.itemName, tagType: schema.tags.tagType, emergencyVisible: schema.tagProfiles.emergencyVisible })
    .from(schema.tags)
    .leftJoin(schema.tagProfiles, eq(schema.tagProfiles.tagId, schema.tags.id))
    .where(and(eq(schema.tags.ownerId, userId), ne(schema.tags.status, "DEACTIVATED")))
    .orderBy(asc(schema.tags.createdAt), asc(schema.tags.id));
  return rows.filter((row) => emergencyVisibleFor(row.tagType, row.emergencyVisible)).map(({ id, itemName, tagType }) => ({ id, itemName, tagType }));
}
