import { and, asc, count, desc, eq } from "drizzle-orm";
import { schema } from "@/db/client";
import type { CareerPosition } from "@/db/schema";
import { recordAudit } from "@/lib/services/audit";
import { requireAdmin, withTransaction, type ServiceContext } from "@/lib/services/context";
import { NotFoundError } from "@/lib/services/errors";
import type { AdminPosition, CreatePositionInput, Position, PositionListItem, UpdatePositionInput } from "./schemas";

const POSITION_NOT_FOUND = "Position not found.";

const iso = (date: Date) => date.toISOString();

function toListItem(row: CareerPosition): PositionListItem {
  return { id: row.id, title: row.title, department: row.department, location: row.location, type: row.type, description: row.description, publishedAt: iso(row.publishedAt ?? row.createdAt) };
}

function toPosition(row: CareerPosition): Position {
  return { ...toListItem(row), requirements: row.requirements, benefits: row.benefits, applyUrl: row.applyUrl };
}

function toAdminPosition(row: CareerPosition): AdminPosition {
  return { ...toPosition(row), open: row.open, publishedAt: row.publishedAt ? iso(row.publishedAt) : null, createdAt: iso(row.createdAt), updatedAt: iso(row.updatedAt) };
}

const isOpen = eq(schema.careerPositions.open, true);

/** GET /careers: every open position (not paginated: a company has few), by department, then title. Public. */
export async function listOpenPositions(ctx: ServiceContext): Promise<PositionListItem[]> {
  const rows = await ctx.db
    .select()
    .from(schema.careerPositions)
    .where(isOpen)
    .orderBy(asc(schema.careerPositions.department), asc(schema.careerPositions.title), asc(schema.careerPositions.id));
  return rows.map(toListItem);
}

/** GET /careers/:id: an open position; a closed or unknown one is 404. Public. */
export async function getOpenPosition(ctx: ServiceContext, positionId: string): Promise<Position> {
  const [row] = await ctx.db
    .select()
    .from(schema.careerPositions)
    .where(and(eq(schema.careerPositions.id, positionId), isOpen));
  if (!row) throw new NotFoundError(POSITION_NOT_FOUND);
  return toPosition(row);
}

/** GET /careers/admin/all: every position, open or closed, most recently changed first. */
export async function listAllPositions(ctx: ServiceContext, page: { page: number; limit: number }): Promise<{ items: AdminPosition[]; total: number }> {
  requireAdmin(ctx);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(schema.careerPositions)
      .orderBy(desc(schema.careerPositions.updatedAt), desc(schema.careerPositions.id))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    ctx.db.select({ n: count() }).from(schema.careerPositions),
  ]);
  return { items: rows.map(toAdminPosition), total: total?.n ?? 0 };
}

/** One position as admins see it (the editor), open or closed. */
export async function getPositionForAdmin(ctx: ServiceContext, positionId: string): Promise<AdminPosition> {
  requireAdmin(ctx);
  const [row] = await ctx.db.select().from(schema.careerPositions).where(eq(schema.careerPositions.id, positionId));
  if (!row) throw new NotFoundError(POSITION_NOT_FOUND);
  return toAdminPosition(row);
}

/** POST /careers: a position, open (and public) unless `open` is false. */
export async function createPosition(ctx: ServiceContext, input: CreatePositionInput): Promise<AdminPosition> {
  requireAdmin(ctx);
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.db
      .insert(schema.careerPositions)
      .values({
        title: input.title,
        department: input.department,
        location: input.location,
        type: input.type,
        description: input.description,
        requirements: input.requirements,
        benefits: input.benefits,
        applyUrl: input.applyUrl,
        open: input.open,
        publishedAt: input.open ? new Date() : null,
      })
      .returning();
    await recordAudit(tx, { action: "career_position.create", entityType: "career_position", entityId: row!.id, before: null, after: row });
    return toAdminPosition(row!);
  });
}

/** PATCH /careers/:id: the fields given. Opening sets publishedAt the first time; closing keeps it. */
export async function updatePosition(ctx: ServiceContext, positionId: string, input: UpdatePositionInput): Promise<AdminPosition> {
  requireAdmin(ctx);
  return withTransaction(ctx, async (tx) => {
    const [before] = await tx.db.select().from(schema.careerPositions).where(eq(schema.careerPositions.id, positionId)).for("update");
    if (!before) throw new NotFoundError(POSITION_NOT_FOUND);
    const changes: Partial<typeof schema.careerPositions.$inferInsert> = {};
    for (const key of ["title", "department", "location", "type", "description", "requirements", "benefits", "applyUrl"] as const) {
      if (input[key] !== undefined) Object.assign(changes, { [key]: input[key] });
    }
    if (input.open !== undefined) {
      changes.open = input.open;
      if (input.open && !before.publishedAt) changes.publishedAt = new Date();
    }
    if (!Object.keys(changes).length) return toAdminPosition(before);
    const [after] = await tx.db.update(schema.careerPositions).set(changes).where(eq(schema.careerPositions.id, before.id)).returning();
    await recordAudit(tx, { action: "career_position.update", entityType: "career_position", entityId: before.id, before, after });
    return toAdminPosition(after!);
  });
}

/** DELETE /careers/:id. */
export async function deletePosition(ctx: ServiceContext, positionId: string): Promise<{ message: string }> {
  requireAdmin(ctx);
  return withTransaction(ctx, async (tx) => {
    const [before] = await tx.db.select().from(schema.careerPositions).where(eq(schema.careerPositions.id, positionId)).for("update");
    if (!before) throw new NotFoundError(POSITION_NOT_FOUND);
    await tx.db.delete(schema.careerPositions).where(eq(schema.careerPositions.id, before.id));
    await recordAudit(tx, { action: "career_position.delete", entityType: "career_position", entityId: before.id, before, after: null });
    return { message: "The position was deleted." };
  });
}
