import { and, count, desc, eq } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import type { BlogPost as BlogPostRow } from "@/db/schema";
import { recordAudit } from "@/lib/services/audit";
import { requireAdmin, type ServiceContext, withTransaction } from "@/lib/services/context";
import { ConflictError, isUniqueViolation, NotFoundError } from "@/lib/services/errors";
import { absoluteImageUrl, slugify } from "@/lib/services/orders";
import type { AdminBlogPost, BlogPost, BlogPostListItem, CreatePostInput, UpdatePostInput } from "./schemas";

const POST_NOT_FOUND = "Post not found.";
const SLUG_TAKEN = "Another post already has this slug.";
/** The byline when the writing admin has no name on record. */
export const TEAM_AUTHOR = "Tag Service team";

const iso = (date: Date) => date.toISOString();
const cover = (ref: string | null) => (ref ? absoluteImageUrl(ref) : null);

function toListItem(row: BlogPostRow): BlogPostListItem {
  return { id: row.id, title: row.title, slug: row.slug, excerpt: row.excerpt, author: row.author, publishedAt: iso(row.publishedAt!), coverImage: cover(row.coverImage) };
}

function toPost(row: BlogPostRow): BlogPost {
  return { id: row.id, title: row.title, slug: row.slug, author: row.author, publishedAt: iso(row.publishedAt!), coverImage: cover(row.coverImage), content: row.content, tags: row.tags };
}

function toAdminPost(row: BlogPostRow): AdminBlogPost {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    excerpt: row.excerpt,
    content: row.content,
    coverImage: cover(row.coverImage),
    tags: row.tags,
    author: row.author,
    authorId: row.authorId,
    published: row.published,
    publishedAt: row.publishedAt ? iso(row.publishedAt) : null,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** A post's address from its title: "Lost mode, explained!" → "lost-mode-explained". */
export function postSlug(title: string): string {
  return slugify(title, "post");
}

const published = eq(schema.blogPosts.published, true);

/** GET /blog: published posts, newest first. Public. */
export async function listPublishedPosts(ctx: ServiceContext, page: { page: number; limit: number }): Promise<{ items: BlogPostListItem[]; total: number }> {
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(schema.blogPosts)
      .where(published)
      .orderBy(desc(schema.blogPosts.publishedAt), desc(schema.blogPosts.id))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    ctx.db.select({ n: count() }).from(schema.blogPosts).where(published),
  ]);
  return { items: rows.map(toListItem), total: total?.n ?? 0 };
}

async function publishedRow(ctx: ServiceContext, slug: string): Promise<BlogPostRow> {
  const [row] = await ctx.db
    .select()
    .from(schema.blogPosts)
    .where(and(eq(schema.blogPosts.slug, slug), published));
  if (!row) throw new NotFoundError(POST_NOT_FOUND);
  return row;
}

/** GET /blog/:slug: a published post; a draft or an unknown slug is 404. Public. */
export async function getPublishedPost(ctx: ServiceContext, slug: string): Promise<BlogPost> {
  return toPost(await publishedRow(ctx, slug));
}

/** The post's page: the same post, with the excerpt its description and preview cards use. */
export async function getPublishedPostPage(ctx: ServiceContext, slug: string): Promise<BlogPost & { excerpt: string }> {
  const row = await publishedRow(ctx, slug);
  return { ...toPost(row), excerpt: row.excerpt };
}

/** The latest published posts with their excerpts, for the RSS feed. */
export async function latestPublishedPosts(ctx: ServiceContext, limit: number): Promise<BlogPostListItem[]> {
  return (await listPublishedPosts(ctx, { page: 1, limit })).items;
}

/** GET /blog/admin/all: every post, drafts too, most recently changed first. */
export async function listAllPosts(ctx: ServiceContext, page: { page: number; limit: number }): Promise<{ items: AdminBlogPost[]; total: number }> {
  requireAdmin(ctx);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(schema.blogPosts)
      .orderBy(desc(schema.blogPosts.updatedAt), desc(schema.blogPosts.id))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    ctx.db.select({ n: count() }).from(schema.blogPosts),
  ]);
  return { items: rows.map(toAdminPost), total: total?.n ?? 0 };
}

/** One post as admins see it (the editor), draft or not. */
export async function getPostForAdmin(ctx: ServiceContext, postId: string): Promise<AdminBlogPost> {
  requireAdmin(ctx);
  const [row] = await ctx.db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, postId));
  if (!row) throw new NotFoundError(POST_NOT_FOUND);
  return toAdminPost(row);
}

async function assertSlugFree(db: Executor, slug: string, exceptId?: string) {
  const [taken] = await db.select({ id: schema.blogPosts.id }).from(schema.blogPosts).where(eq(schema.blogPosts.slug, slug));
  if (taken && taken.id !== exceptId) throw new ConflictError(SLUG_TAKEN, { field: "slug", slug });
}

async function withSlugConflict<T>(slug: () => string | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    // Two admins saving the same slug at once: the unique index decides, answered like the check.
    if (isUniqueViolation(error)) throw new ConflictError(SLUG_TAKEN, { field: "slug", slug: slug() });
    throw error;
  }
}

async function bylineOf(db: Executor, userId: string): Promise<string> {
  const [user] = await db.select({ firstName: schema.users.firstName, lastName: schema.users.lastName }).from(schema.users).where(eq(schema.users.id, userId));
  return `${user?.firstName ?? ""} ${user?.lastName ?? ""}`.trim() || TEAM_AUTHOR;
}

/**
 * POST /blog: a post by the acting admin (the byline is their name). The slug is the given one or the
 * title's; either way a taken slug is 409. Published at once when `published` is true.
 */
export async function createPost(ctx: ServiceContext, input: CreatePostInput): Promise<AdminBlogPost> {
  const admin = requireAdmin(ctx);
  const slug = input.slug ?? postSlug(input.title);
  return withSlugConflict(
    () => slug,
    () =>
      withTransaction(ctx, async (tx) => {
        await assertSlugFree(tx.db, slug);
        const [row] = await tx.db
          .insert(schema.blogPosts)
          .values({
            title: input.title,
            slug,
            excerpt: input.excerpt,
            content: input.content,
            coverImage: input.coverImage ?? null,
            tags: input.tags,
            authorId: admin.userId,
            author: await bylineOf(tx.db, admin.userId),
            published: input.published,
            publishedAt: input.published ? new Date() : null,
          })
          .returning();
        await recordAudit(tx, { action: "blog_post.create", entityType: "blog_post", entityId: row!.id, before: null, after: row });
        return toAdminPost(row!);
      }),
  );
}

/**
 * PATCH /blog/:id: the fields given. A new slug must be free (409). Publishing sets publishedAt the first
 * time only; unpublishing keeps it, so a post taken down and put back keeps its date.
 */
export async function updatePost(ctx: ServiceContext, postId: string, input: UpdatePostInput): Promise<AdminBlogPost> {
  requireAdmin(ctx);
  return withSlugConflict(
    () => input.slug,
    () =>
      withTransaction(ctx, async (tx) => {
        const [before] = await tx.db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, postId)).for("update");
        if (!before) throw new NotFoundError(POST_NOT_FOUND);
        if (input.slug !== undefined && input.slug !== before.slug) await assertSlugFree(tx.db, input.slug, before.id);
        const changes: Partial<typeof schema.blogPosts.$inferInsert> = {};
        if (input.title !== undefined) changes.title = input.title;
        if (input.slug !== undefined) changes.slug = input.slug;
        if (input.excerpt !== undefined) changes.excerpt = input.excerpt;
        if (input.content !== undefined) changes.content = input.content;
        if (input.coverImage !== undefined) changes.coverImage = input.coverImage;
        if (input.tags !== undefined) changes.tags = input.tags;
        if (input.published !== undefined) {
          changes.published = input.published;
          if (input.published && !before.publishedAt) changes.publishedAt = new Date();
        }
        if (!Object.keys(changes).length) return toAdminPost(before);
        const [after] = await tx.db.update(schema.blogPosts).set(changes).where(eq(schema.blogPosts.id, before.id)).returning();
        await recordAudit(tx, { action: "blog_post.update", entityType: "blog_post", entityId: before.id, before, after });
        return toAdminPost(after!);
      }),
  );
}

/** DELETE /blog/:id: the post is gone for good (its slug is free again). */
export async function deletePost(ctx: ServiceContext, postId: string): Promise<{ message: string }> {
  requireAdmin(ctx);
  return withTransaction(ctx, async (tx) => {
    const [before] = await tx.db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, postId)).for("update");
    if (!before) throw new NotFoundError(POST_NOT_FOUND);
    await tx.db.delete(schema.blogPosts).where(eq(schema.blogPosts.id, before.id));
    await recordAudit(tx, { action: "blog_post.delete", entityType: "blog_post", entityId: before.id, before, after: null });
    return { message: "The post was deleted." };
  });
}
