import { and, asc, eq } from "drizzle-orm";
import { schema } from "@/db/client";
import type { CareerPosition } from "@/db/schema";
import { requireAdmin, type ServiceContext } from "@/lib/services/context";
import { NotFoundError } from "@/lib/services/errors";
import type { Page, PageRequest } from "@/lib/services/paging";
import { deleteEntry, entryForAdmin, type EntryKind, givenFields, insertEntry, listAllEntries, updateEntry, visibility } from "./entries";
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

const POSITIONS: EntryKind<typeof schema.careerPositions, AdminPosition> = { table: schema.careerPositions, entityType: "career_position", notFound: POSITION_NOT_FOUND, deleted: "The position was deleted.", toAdmin: toAdminPosition };

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
export async function listAllPositions(ctx: ServiceContext, page: PageRequest): Promise<Page<AdminPosition>> {
  return listAllEntries(ctx, POSITIONS, page);
}

/** One position as admins see it (the editor), open or closed. */
export async function getPositionForAdmin(ctx: ServiceContext, positionId: string): Promise<AdminPosition> {
  return entryForAdmin(ctx, POSITIONS, positionId);
}

/** POST /careers: a position, open (and public) unless `open` is false. */
export async function createPosition(ctx: ServiceContext, input: CreatePositionInput): Promise<AdminPosition> {
  requireAdmin(ctx);
  return insertEntry(ctx, POSITIONS, {
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
  });
}

/** PATCH /careers/:id: the fields given. Opening sets publishedAt the first time; closing keeps it. */
export async function updatePosition(ctx: ServiceContext, positionId: string, input: UpdatePositionInput): Promise<AdminPosition> {
  return updateEntry(ctx, POSITIONS, positionId, (before) => ({
    ...givenFields(input, ["title", "department", "location", "type", "description", "requirements", "benefits", "applyUrl"]),
    ...visibility("open", input.open, before),
  }));
}

/** DELETE /careers/:id. */
export async function deletePosition(ctx: ServiceContext, positionId: string): Promise<{ message: string }> {
  return deleteEntry(ctx, POSITIONS, positionId);
}
