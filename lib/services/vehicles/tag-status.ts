import { requireUser, type ServiceContext, withTransaction } from "@/lib/services/context";
import { ValidationError } from "@/lib/services/errors";
import { changeTagStatus, ownedTag, type TagRecord, type TagStatus, toTagRecord } from "@/lib/services/tags";
import { assertReactivationKeepsVin } from "./vin-claims";

/**
 * PATCH /tags/:id/status. It sits in the vehicles domain, above tags (docs/architecture.md, Domain
 * boundaries): a DEACTIVATED tag coming back claims its vehicle profile's VIN again (vin-claims.ts).
 */
export async function setTagStatus(ctx: ServiceContext, id: string, input: { status: TagStatus; lostMessage?: string | null }): Promise<TagRecord> {
  const { userId } = requireUser(ctx);
  return withTransaction(ctx, async (tx) => {
    const tag = await ownedTag(tx, id, { lock: true });
    if (input.lostMessage && input.status !== "LOST" && input.status !== "STOLEN") {
      throw ValidationError.field("lostMessage", "A message for finders goes with LOST or STOLEN only.");
    }
    // A deactivated tag's VIN may have been claimed by another tag since: coming back claims it again (409).
    if (tag.status === "DEACTIVATED" && input.status !== "DEACTIVATED") await assertReactivationKeepsVin(tx, tag);
    return toTagRecord(await changeTagStatus(tx.db, tag, { to: input.status, actor: { kind: "user", userId }, lostMessage: input.lostMessage }));
  });
}
