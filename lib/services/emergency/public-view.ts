import { and, eq, sql } from "drizzle-orm";
import { schema } from "@/db/client";
import { requireUser, type ServiceContext, withTransaction } from "@/lib/services/context";
import { NotFoundError } from "@/lib/services/errors";
import { notify } from "@/lib/services/notifications";
import { emergencyVisibleFor } from "@/lib/services/profiles";
import { scanUrl } from "@/lib/services/tags";
import { hashClientIp, type Visitor } from "@/lib/services/visitor";
import { describeUserAgent } from "./agent";
import { hasContent, toProfileFields } from "./records";
import { contactRows, profileRow } from "./queries";
import type { EmergencyAccess, PublicEmergencyProfile } from "./schemas";
import { boundedTotal, keysetPage, type ListOrder, type Page, type PageRequest } from "@/lib/services/paging";

const NO_EMERGENCY_PROFILE = "No emergency information is available for this tag.";

/** The public page a tag's emergency QR code opens (the ICE card prints it). */
export function emergencyPageUrl(encryptedId: string): string {
  return `${scanUrl(encryptedId)}/emergency`;
}

function agentOf(visitor: Visitor): string | null {
  const agent = describeUserAgent(visitor.userAgent);
  return visitor.prefetch ? `${agent ?? "Browser"} (prefetch)` : agent;
}

/**
 * GET /scan/:encryptedId/emergency, and the finder's emergency page: the tag owner's emergency profile
 * as a first responder reads it, whatever the tag's visibility, with the name the owner gave finders on
 * this tag (whose information it is). Contacts carry name, relationship and phone only; nothing of the
 * owner's account is included. An unknown, unowned or DEACTIVATED tag, a tag the owner does not show it on
 * (emergencyVisible), and an owner with nothing in the profile, are the same 404. Every read is logged (tag, keyed IP hash, coarse
 * place, browser) and the owner is notified at once (EMERGENCY_ACCESSED is urgent: quiet hours don't
 * hold it back), in one transaction with the read.
 */
export async function readEmergencyProfileByTag(ctx: ServiceContext, encryptedId: string, visitor: Visitor): Promise<PublicEmergencyProfile> {
  return withTransaction(ctx, async (tx) => {
    const [tag] = await tx.db
      .select({
        id: schema.tags.id,
        ownerId: schema.tags.ownerId,
        status: schema.tags.status,
        itemName: schema.tags.itemName,
        tagType: schema.tags.tagType,
        emergencyVisible: schema.tagProfiles.emergencyVisible,
        ownerName: schema.tagProfiles.ownerName,
      })
      .from(schema.tags)
      .leftJoin(schema.tagProfiles, eq(schema.tagProfiles.tagId, schema.tags.id))
      .where(eq(schema.tags.encryptedId, encryptedId));
    // A tag where the owner does not show it (by default a PET tag) reads as having none, and logs nothing.
    if (!tag?.ownerId || tag.status === "DEACTIVATED" || !emergencyVisibleFor(tag.tagType, tag.emergencyVisible)) throw new NotFoundError(NO_EMERGENCY_PROFILE);
    const ownerId = tag.ownerId;
    const [row, contacts] = await Promise.all([profileRow(tx.db, ownerId), contactRows(tx.db, ownerId)]);
    const fields = toProfileFields(row);
    if (!row || !hasContent(fields, contacts.length)) throw new NotFoundError(NO_EMERGENCY_PROFILE);

    const city = visitor.geo?.city ?? null;
    const country = visitor.geo?.country ?? null;
    const [access] = await tx.db
      .insert(schema.emergencyAccesses)
      .values({ userId: ownerId, tagId: tag.id, ipHash: hashClientIp(visitor.ip), city, country, agent: agentOf(visitor) })
      .returning({ id: schema.emergencyAccesses.id });
    const place = [city, country].filter(Boolean).join(", ");
    await notify(tx, {
      userId: ownerId,
      type: "EMERGENCY_ACCESSED",
      title: "Your emergency information was opened",
      body: `Someone opened your emergency information through your tag “${tag.itemName ?? "Unnamed tag"}”${place ? ` near ${place}` : ""}. If this was not you or someone helping you, check on the tag.`,
      data: { tagId: tag.id, accessId: access!.id, city },
    });

    const { updatedAt, ...facts } = fields;
    return { ...facts, ownerName: tag.ownerName, emergencyContacts: contacts.map((contact) => ({ name: contact.name, relationship: contact.relationship, phone: contact.phone })), updatedAt };
  });
}

const emergencyAccessesOrder: ListOrder<{ id: string; accessedAt: Date }> = {
  name: "emergency-accesses",
  keys: [
    { column: schema.emergencyAccesses.accessedAt, direction: "desc", type: "timestamp" },
    { column: schema.emergencyAccesses.id, direction: "desc", type: "uuid" },
  ],
  valuesOf: (row) => [row.accessedAt, row.id],
};

/**
 * GET /emergency/accesses: who read the caller's emergency profile, newest first. The tag's name is
 * shown while the tag is still the caller's (a released or transferred tag keeps only its id).
 */
export async function listEmergencyAccesses(ctx: ServiceContext, page: PageRequest): Promise<Page<EmergencyAccess>> {
  const { userId } = requireUser(ctx);
  const mine = eq(schema.emergencyAccesses.userId, userId);
  const plan = keysetPage(emergencyAccessesOrder, [userId], page);
  const [rows, total] = await Promise.all([
    ctx.db
      .select({
        id: schema.emergencyAccesses.id,
        accessedAt: schema.emergencyAccesses.accessedAt,
        tagId: schema.emergencyAccesses.tagId,
        tagName: schema.tags.itemName,
        tagOwnerId: schema.tags.ownerId,
        city: schema.emergencyAccesses.city,
        country: schema.emergencyAccesses.country,
        agent: schema.emergencyAccesses.agent,
      })
      .from(schema.emergencyAccesses)
      .leftJoin(schema.tags, and(eq(schema.tags.id, schema.emergencyAccesses.tagId), eq(schema.tags.ownerId, userId)))
      .where(and(mine, plan.where))
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    boundedTotal(ctx.db, ctx.db.select({ one: sql`1` }).from(schema.emergencyAccesses).where(mine)),
  ]);
  return plan.finish(rows, ({ tagOwnerId, tagName, ...row }) => ({ ...row, tagName: tagOwnerId ? tagName : null, accessedAt: row.accessedAt.toISOString() }), total);
}
