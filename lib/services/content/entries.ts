import { eq, getTableName, sql } from "drizzle-orm";
import { schema } from "@/db/client";
import { recordAudit } from "@/lib/services/audit";
import { requireAdmin, withTransaction, type ServiceContext } from "@/lib/services/context";
import { NotFoundError } from "@/lib/services/errors";
import { boundedTotal, keysetPage, type ListOrder, type Page, type PageRequest } from "@/lib/services/paging";

/**
 * What blog posts and career positions share: a published content entry that admins write, list with its
 * drafts, edit, publish (publishedAt set the first time, kept when taken down) and delete, each change
 * audited as `<entityType>.create|update|delete`. Each kind keeps its own fields and public reads.
 */
type EntryTable = typeof schema.blogPosts | typeof schema.careerPositions;
type Row<T extends EntryTable> = T["$inferSelect"];

export interface EntryKind<T extends EntryTable, R> {
  table: T;
  entityType: string;
  notFound: string;
  deleted: string;
  /** The entry as admins see it. */
  toAdmin: (row: Row<T>) => R;
}

// Drizzle's builders do not narrow over a union of tables: the shared columns through one table's type.
const tableOf = <T extends EntryTable>(kind: EntryKind<T, unknown>) => kind.table as typeof schema.careerPositions;

/** The admin's list: every entry, drafts too, most recently changed first. */
export async function listAllEntries<T extends EntryTable, R>(ctx: ServiceContext, kind: EntryKind<T, R>, page: PageRequest): Promise<Page<R>> {
  requireAdmin(ctx);
  const table = tableOf(kind);
  const order: ListOrder<Row<T>> = {
    name: `entries:${getTableName(table)}`,
    keys: [
      { column: table.updatedAt, direction: "desc", type: "timestamp" },
      { column: table.id, direction: "desc", type: "uuid" },
    ],
    valuesOf: (row) => [row.updatedAt, row.id],
  };
  const plan = keysetPage(order, [], page);
  const [rows, total] = await Promise.all([
    ctx.db.select().from(table).where(plan.where).orderBy(...plan.orderBy).limit(plan.limit).offset(plan.offset),
    boundedTotal(ctx.db, ctx.db.select({ one: sql`1` }).from(table)),
  ]);
  return plan.finish(rows as Row<T>[], kind.toAdmin, total);
}

/** One entry's row, published or not (`lock` in a transaction); an unknown id is 404. */
export async function entryRow<T extends EntryTable>(ctx: ServiceContext, kind: EntryKind<T, unknown>, id: string, lock = false): Promise<Row<T>> {
  const table = tableOf(kind);
  const query = ctx.db.select().from(table).where(eq(table.id, id));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw new NotFoundError(kind.notFound);
  return row as Row<T>;
}

/** One entry as admins see it (the editor). */
export async function entryForAdmin<T extends EntryTable, R>(ctx: ServiceContext, kind: EntryKind<T, R>, id: string): Promise<R> {
  requireAdmin(ctx);
  return kind.toAdmin(await entryRow(ctx, kind, id));
}

/** The visibility flag's change (`published`, `open`) when given, with publishedAt set the first time it goes public. */
export function visibility<F extends string>(flag: F, value: boolean | undefined, before: { publishedAt: Date | null }) {
  if (value === undefined) return {};
  return { [flag]: value, ...(value && !before.publishedAt ? { publishedAt: new Date() } : {}) } as Partial<Record<F, boolean> & { publishedAt: Date }>;
}

/** The fields an update gives (undefined: left as it is). */
export function givenFields<I extends object, K extends keyof I>(input: I, keys: readonly K[]): Partial<Pick<I, K>> {
  return Object.fromEntries(keys.filter((key) => input[key] !== undefined).map((key) => [key, input[key]])) as Partial<Pick<I, K>>;
}

/** Adds an entry, audited (in the caller's transaction when there is one). */
export async function insertEntry<T extends EntryTable, R>(ctx: ServiceContext, kind: EntryKind<T, R>, values: T["$inferInsert"]): Promise<R> {
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.db.insert(tableOf(kind)).values(values as typeof schema.careerPositions.$inferInsert).returning();
    await recordAudit(tx, { action: `${kind.entityType}.create`, entityType: kind.entityType, entityId: row!.id, before: null, after: row });
    return kind.toAdmin(row as Row<T>);
  });
}

/** Changes the locked entry by what `changesOf` makes of it; no change answers it as it is, else audited before and after. */
export async function updateEntry<T extends EntryTable, R>(ctx: ServiceContext, kind: EntryKind<T, R>, id: string, changesOf: (before: Row<T>, tx: ServiceContext) => Promise<Partial<T["$inferInsert"]>> | Partial<T["$inferInsert"]>): Promise<R> {
  requireAdmin(ctx);
  return withTransaction(ctx, async (tx) => {
    const before = await entryRow(tx, kind, id, true);
    const changes = await changesOf(before, tx);
    if (!Object.keys(changes).length) return kind.toAdmin(before);
    const table = tableOf(kind);
    const [after] = await tx.db.update(table).set(changes as Partial<typeof schema.careerPositions.$inferInsert>).where(eq(table.id, before.id)).returning();
    await recordAudit(tx, { action: `${kind.entityType}.update`, entityType: kind.entityType, entityId: before.id, before, after });
    return kind.toAdmin(after as Row<T>);
  });
}

/** Deletes an entry for good, audited; an unknown id is 404. */
export async function deleteEntry<T extends EntryTable>(ctx: ServiceContext, kind: EntryKind<T, unknown>, id: string): Promise<{ message: string }> {
  requireAdmin(ctx);
  return withTransaction(ctx, async (tx) => {
    const before = await entryRow(tx, kind, id, true);
    await tx.db.delete(tableOf(kind)).where(eq(tableOf(kind).id, before.id));
    await recordAudit(tx, { action: `${kind.entityType}.delete`, entityType: kind.entityType, entityId: before.id, before, after: null });
    return { message: kind.deleted };
  });
}
