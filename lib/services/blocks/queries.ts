/** The blocks domain's reads on a bare handle (or the caller's transaction). */
import { and, eq } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";

/** Whether `blockerId` has blocked `userId`: a signed-in finder contacting a blocked owner is refused (403). */
export async function isBlocked(db: Executor, blockerId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ blockedId: schema.userBlocks.blockedId })
    .from(schema.userBlocks)
    .where(and(eq(schema.userBlocks.blockerId, blockerId), eq(schema.userBlocks.blockedId, userId)));
  return Boolean(row);
}
