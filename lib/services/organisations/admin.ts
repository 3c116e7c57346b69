import { createElement } from "react";
import { and, eq, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { schema } from "@/db/client";
import { NoticeEmail } from "@/emails/notice";
import { queueEmail } from "@/lib/email/queue";
import { recordAudit } from "@/lib/services/audit";
import { requireAdmin, withTransaction, type ServiceContext } from "@/lib/services/context";
import { NotFoundError } from "@/lib/services/errors";
import { boundedTotal, keysetPage, type ListOrder, type Page, type PageRequest } from "@/lib/services/paging";
import { toAdminOrganisation } from "./queries";
import type { AdminOrganisation } from "./schemas";

const ORGANISATION_NOT_FOUND = "Organisation not found.";
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface AdminOrganisationQuery extends PageRequest {
  verified?: boolean;
}

const organisationOrderOf = (direction: "asc" | "desc", name: string): ListOrder<{ organisation: typeof schema.organisations.$inferSelect }> => ({
  name,
  keys: [
    { column: schema.organisations.createdAt, direction, type: "timestamp" },
    { column: schema.organisations.id, direction, type: "uuid" },
  ],
  valuesOf: (row) => [row.organisation.createdAt, row.organisation.id],
});
const organisationOrder = organisationOrderOf("desc", "admin-organisations");
const organisationQueueOrder = organisationOrderOf("asc", "admin-organisations-queue");

/** GET /admin/organisations: those waiting (verified=false) oldest first, as a queue; otherwise newest first. */
export async function listOrganisationsForAdmin(ctx: ServiceContext, query: AdminOrganisationQuery): Promise<Page<AdminOrganisation>> {
  requireAdmin(ctx);
  const filters: SQL[] = [];
  if (query.verified === true) filters.push(isNotNull(schema.organisations.verifiedAt));
  if (query.verified === false) filters.push(isNull(schema.organisations.verifiedAt));
  const where = filters.length ? and(...filters) : undefined;
  const plan = keysetPage(query.verified === false ? organisationQueueOrder : organisationOrder, [query.verified ?? null], query);
  const [rows, total] = await Promise.all([
    ctx.db
      .select({ organisation: schema.organisations, email: schema.users.email })
      .from(schema.organisations)
      .leftJoin(schema.users, eq(schema.users.id, schema.organisations.userId))
      .where(and(where, plan.where))
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    boundedTotal(ctx.db, ctx.db.select({ one: sql`1` }).from(schema.organisations).where(where)),
  ]);
  return plan.finish(rows, (row) => toAdminOrganisation(row.organisation, row.email ?? null), total);
}

/** What the audit log keeps of an organisation's verification. */
const auditFields = (row: typeof schema.organisations.$inferSelect) => ({ name: row.name, kind: row.kind, verifiedAt: row.verifiedAt, verifiedById: row.verifiedById });

/**
 * PATCH /admin/organisations/:id `{ verified }`: verifies or withdraws verification under the row's lock.
 * A change is audited and the applicant is told by e-mail in the same transaction; setting what already
 * holds changes nothing and tells no one.
 */
export async function setOrganisationVerified(ctx: ServiceContext, organisationId: string, input: { verified: boolean }): Promise<AdminOrganisation> {
  const admin = requireAdmin(ctx);
  if (!UUID_PATTERN.test(organisationId)) throw new NotFoundError(ORGANISATION_NOT_FOUND);
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.db.select().from(schema.organisations).where(eq(schema.organisations.id, organisationId)).for("update");
    if (!row) throw new NotFoundError(ORGANISATION_NOT_FOUND);
    const [user] = await tx.db.select({ email: schema.users.email, firstName: schema.users.firstName }).from(schema.users).where(eq(schema.users.id, row.userId));
    if ((row.verifiedAt !== null) === input.verified) return toAdminOrganisation(row, user?.email ?? null);

    const [updated] = await tx.db
      .update(schema.organisations)
      .set(input.verified ? { verifiedAt: new Date(), verifiedById: admin.userId } : { verifiedAt: null, verifiedById: null })
      .where(eq(schema.organisations.id, row.id))
      .returning();
    await recordAudit(tx, { action: input.verified ? "organisation.verify" : "organisation.unverify", entityType: "organisation", entityId: row.id, before: auditFields(row), after: auditFields(updated!) });
    if (user) {
      const heading = input.verified ? `${row.name} is verified` : `${row.name} is no longer verified`;
      const paragraphs = input.verified
        ? [
            `Hello ${user.firstName}, we checked ${row.name} and verified it.`,
            "You can now see the open lost-pet alerts near you and report animals you have found: the owners of matching lost pets are told at once.",
          ]
        : [`Hello ${user.firstName}, our moderators withdrew the verification of ${row.name}.`, "Until it is verified again, it cannot see lost-pet alerts or report found animals. Contact support if you think this is a mistake."];
      await queueEmail(tx, {
        to: user.email,
        subject: heading,
        template: createElement(NoticeEmail, { heading, paragraphs, action: { label: "Open your organisation", path: "/dashboard/organisation" }, reason: "You receive this e-mail because you applied to register an organisation." }),
        templateName: input.verified ? "organisations.verified" : "organisations.unverified",
      });
    }
    return toAdminOrganisation(updated!, user?.email ?? null);
  });
}
