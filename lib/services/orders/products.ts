import { and, eq, inArray, sql } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import type { Product } from "@/db/schema";
import { requireAdmin, withTransaction, type ServiceContext } from "@/lib/services/context";
import { recordAudit } from "@/lib/services/audit";
import { ConflictError, isUniqueViolation, NotFoundError, ValidationError } from "@/lib/services/errors";
import { insertProduct, variantsOf } from "./queries";
import { toAdminProductRecord, toMinor, toProductRecord } from "./records";
import type { AdminProductRecord, CreateProductInput, ProductRecord, UpdateProductInput } from "./schemas";
import { boundedTotal, keysetPage, type ListOrder, type Page, type PageRequest } from "@/lib/services/paging";

const PRODUCT_NOT_FOUND = "Product not found.";
const SLUG_TAKEN = "Another product already has this slug.";



/** "Pet collar tag (blue)!" → "pet-collar-tag-blue" (accents folded); `fallback` when nothing is left. */
export function slugify(name: string, fallback = "product"): string {
  return (
    name
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 100)
      .replace(/-+$/g, "") || fallback
  );
}

const adminProductsOrder: ListOrder<Product> = {
  name: "admin-products",
  keys: [
    { column: schema.products.sortOrder, direction: "asc", type: "integer" },
    { column: schema.products.name, direction: "asc", type: "text" },
    { column: schema.products.id, direction: "asc", type: "uuid" },
  ],
  valuesOf: (row) => [row.sortOrder, row.name, row.id],
};

const productsOrder: ListOrder<Product> = {
  name: "products",
  keys: [
    { column: schema.products.sortOrder, direction: "asc", type: "integer" },
    { column: schema.products.name, direction: "asc", type: "text" },
    { column: schema.products.id, direction: "asc", type: "uuid" },
  ],
  valuesOf: (row) => [row.sortOrder, row.name, row.id],
};

/** GET /orders/products: the active catalogue, in the shop's order. Public. */
export async function listProducts(ctx: ServiceContext, page: PageRequest): Promise<Page<ProductRecord>> {
  const active = eq(schema.products.active, true);
  const plan = keysetPage(productsOrder, [], page);
  const [rows, total] = await Promise.all([
    ctx.db
      .select()
      .from(schema.products)
      .where(and(active, plan.where))
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    boundedTotal(ctx.db, ctx.db.select({ one: sql`1` }).from(schema.products).where(active)),
  ]);
  const variants = await variantsOf(ctx.db, rows.map((row) => row.id));
  return plan.finish(rows, (row) => toProductRecord(row, variants.get(row.id) ?? []), total);
}

/** GET /orders/products/:slug: an active product; an unknown or inactive one is 404. Public. */
export async function getProductBySlug(ctx: ServiceContext, slug: string): Promise<ProductRecord> {
  const [row] = await ctx.db
    .select()
    .from(schema.products)
    .where(and(eq(schema.products.slug, slug), eq(schema.products.active, true)));
  if (!row) throw new NotFoundError(PRODUCT_NOT_FOUND);
  const variants = await variantsOf(ctx.db, [row.id]);
  return toProductRecord(row, variants.get(row.id) ?? []);
}

/** Slugs the shop's own pages use (`/shop/cart`): a product there could never be reached. */
const RESERVED_SLUGS = new Set(["cart"]);

async function assertSlugFree(db: Executor, slug: string, exceptId?: string) {
  if (RESERVED_SLUGS.has(slug)) throw new ConflictError(`The slug "${slug}" is used by a shop page. Choose another.`, { field: "slug" });
  const [taken] = await db.select({ id: schema.products.id }).from(schema.products).where(eq(schema.products.slug, slug));
  if (taken && taken.id !== exceptId) throw new ConflictError(SLUG_TAKEN, { field: "slug" });
}

async function withSlugConflict<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    // Two admins saving the same slug at once: the unique index decides, answered like the check.
    if (isUniqueViolation(error)) throw new ConflictError(SLUG_TAKEN, { field: "slug" });
    throw error;
  }
}

/** POST /admin/products: a new product (slug from the name when absent; a taken slug is 409). */
export async function createProduct(ctx: ServiceContext, input: CreateProductInput): Promise<AdminProductRecord> {
  requireAdmin(ctx);
  return withSlugConflict(() =>
    withTransaction(ctx, async (tx) => {
      const slug = input.slug ?? slugify(input.name);
      await assertSlugFree(tx.db, slug);
      const { product, variants } = (await insertProduct(
        tx.db,
        {
          slug,
          name: input.name,
          description: input.description,
          priceMinor: toMinor(input.price),
          currency: input.currency,
          images: input.images,
          stock: input.stock,
          tagPack: input.tagPack,
          tagType: input.tagType,
          active: input.active,
          sortOrder: input.sortOrder,
        },
        input.variants.map((variant) => ({ name: variant.name, priceMinor: toMinor(variant.price), image: variant.image ?? null })),
      ))!;
      const record = toAdminProductRecord(product, variants);
      await recordAudit(tx, { action: "product.create", entityType: "product", entityId: record.id, before: null, after: record });
      return record;
    }),
  );
}

/**
 * PATCH /admin/products/:id: the fields given. `variants` is the whole new list (ids keep a variant,
 * entries without one are new, the rest go; past orders keep their variant's name). Stock below what
 * unpaid orders hold is 409; a taken slug is 409.
 */
export async function updateProduct(ctx: ServiceContext, productId: string, input: UpdateProductInput): Promise<AdminProductRecord> {
  requireAdmin(ctx);
  return withSlugConflict(() =>
    withTransaction(ctx, async (tx) => {
      const [product] = await tx.db.select().from(schema.products).where(eq(schema.products.id, productId)).for("update");
      if (!product) throw new NotFoundError(PRODUCT_NOT_FOUND);
      const before = toAdminProductRecord(product, (await variantsOf(tx.db, [product.id])).get(product.id) ?? []);
      if (input.slug !== undefined && input.slug !== product.slug) await assertSlugFree(tx.db, input.slug, product.id);
      if (input.stock !== undefined && input.stock < product.reserved) {
        throw new ConflictError(`Unpaid orders hold ${product.reserved} units: the stock cannot be set below that.`, { reserved: product.reserved });
      }
      const changes: Partial<Product> = {};
      if (input.name !== undefined) changes.name = input.name;
      if (input.slug !== undefined) changes.slug = input.slug;
      if (input.description !== undefined) changes.description = input.description;
      if (input.price !== undefined) changes.priceMinor = toMinor(input.price);
      if (input.currency !== undefined) changes.currency = input.currency;
      if (input.images !== undefined) changes.images = input.images;
      if (input.stock !== undefined) changes.stock = input.stock;
      if (input.tagPack !== undefined) changes.tagPack = input.tagPack;
      if (input.tagType !== undefined) changes.tagType = input.tagType;
      if (input.active !== undefined) changes.active = input.active;
      if (input.sortOrder !== undefined) changes.sortOrder = input.sortOrder;
      const [updated] = Object.keys(changes).length
        ? await tx.db.update(schema.products).set(changes).where(eq(schema.products.id, product.id)).returning()
        : [product];

      if (input.variants !== undefined) {
        const existing = (await variantsOf(tx.db, [product.id])).get(product.id) ?? [];
        const existingIds = new Set(existing.map((variant) => variant.id));
        const issues = input.variants.flatMap((variant, index) =>
          variant.id && !existingIds.has(variant.id) ? [{ field: `variants.${index}.id`, message: "No variant of this product has this id." }] : [],
        );
        if (issues.length) throw new ValidationError(issues);
        const kept = new Set(input.variants.flatMap((variant) => (variant.id ? [variant.id] : [])));
        const removed = existing.filter((variant) => !kept.has(variant.id)).map((variant) => variant.id);
        if (removed.length) await tx.db.delete(schema.productVariants).where(inArray(schema.productVariants.id, removed));
        for (const [index, variant] of input.variants.entries()) {
          const values = { name: variant.name, priceMinor: toMinor(variant.price), image: variant.image ?? null, sortOrder: index };
          if (variant.id) await tx.db.update(schema.productVariants).set(values).where(eq(schema.productVariants.id, variant.id));
          else await tx.db.insert(schema.productVariants).values({ productId: product.id, ...values });
        }
      }
      const variants = await variantsOf(tx.db, [product.id]);
      const record = toAdminProductRecord(updated!, variants.get(product.id) ?? []);
      await recordAudit(tx, { action: "product.update", entityType: "product", entityId: product.id, before, after: record });
      return record;
    }),
  );
}

/** GET /admin/products: every product, active or not, with stock and reservations. */
export async function listAdminProducts(ctx: ServiceContext, page: PageRequest): Promise<Page<AdminProductRecord>> {
  requireAdmin(ctx);
  const plan = keysetPage(adminProductsOrder, [], page);
  const [rows, total] = await Promise.all([
    ctx.db
      .select()
      .from(schema.products)
      .where(plan.where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    boundedTotal(ctx.db, ctx.db.select({ one: sql`1` }).from(schema.products)),
  ]);
  const variants = await variantsOf(ctx.db, rows.map((row) => row.id));
  return plan.finish(rows, (row) => toAdminProductRecord(row, variants.get(row.id) ?? []), total);
}
