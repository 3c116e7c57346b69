import { and, eq, sql } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import type { BlogPost as BlogPostRow } from "@/db/schema";
import { requireAdmin, type ServiceContext, withTransaction } from "@/lib/services/context";
import { ConflictError, isUniqueViolation, NotFoundError } from "@/lib/services/errors";
import { absoluteImageUrl, slugify } from "@/lib/services/orders";
import { deleteEntry, entryForAdmin, type EntryKind, givenFields, insertEntry, listAllEntries, updateEntry, visibility } from "./entries";
import type { AdminBlogPost, BlogPost, BlogPostListItem, CreatePostInput, UpdatePostInput } from "./schemas";
import { boundedTotal, keysetPage, type ListOrder, type Page, type PageRequest } from "@/lib/services/paging";

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

const POSTS: EntryKind<typeof schema.blogPosts, AdminBlogPost> = { table: schema.blogPosts, entityType: "blog_post", notFound: POST_NOT_FOUND, deleted: "The post was deleted.", toAdmin: toAdminPost };

/** A post's address from its title: "Lost mode, explained!" → "lost-mode-explained". */
export function postSlug(title: string): string {
  return slugify(title, "post");
}

const published = eq(schema.blogPosts.published, true);

const blogOrder: ListOrder<BlogPostRow> = {
  name: "blog",
  keys: [
    { column: schema.blogPosts.publishedAt, direction: "desc", type: "timestamp" },
    { column: schema.blogPosts.id, direction: "desc", type: "uuid" },
  ],
  valuesOf: (row) => [row.publishedAt, row.id],
};

/** GET /blog: published posts, newest first. Public. */
export async function listPublishedPosts(ctx: ServiceContext, page: PageRequest): Promise<Page<BlogPostListItem>> {
  const plan = keysetPage(blogOrder, [], page);
  const [rows, total] = await Promise.all([
    ctx.db
      .select()
      .from(schema.blogPosts)
      .where(and(published, plan.where))
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    boundedTotal(ctx.db, ctx.db.select({ one: sql`1` }).from(schema.blogPosts).where(published)),
  ]);
  return plan.finish(rows, toListItem, total);
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
export async function listAllPosts(ctx: ServiceContext, page: PageRequest): Promise<Page<AdminBlogPost>> {
  return listAllEntries(ctx, POSTS, page);
}

/** One post as admins see it (the editor), draft or not. */
export async function getPostForAdmin(ctx: ServiceContext, postId: string): Promise<AdminBlogPost> {
  return entryForAdmin(ctx, POSTS, postId);
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
        return insertEntry(tx, POSTS, {
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
        });
      }),
  );
}

/**
 * PATCH /blog/:id: the fields given. A new slug must be free (409). Publishing sets publishedAt the first
 * time only; unpublishing keeps it, so a post taken down and put back keeps its date.
 */
export async function updatePost(ctx: ServiceContext, postId: string, input: UpdatePostInput): Promise<AdminBlogPost> {
  return withSlugConflict(
    () => input.slug,
    () =>
      updateEntry(ctx, POSTS, postId, async (before, tx) => {
        if (input.slug !== undefined && input.slug !== before.slug) await assertSlugFree(tx.db, input.slug, before.id);
        return { ...givenFields(input, ["title", "slug", "excerpt", "content", "coverImage", "tags"]), ...visibility("published", input.published, before) };
      }),
  );
}

/** DELETE /blog/:id: the post is gone for good (its slug is free again). */
export async function deletePost(ctx: ServiceContext, postId: string): Promise<{ message: string }> {
  return deleteEntry(ctx, POSTS, postId);
}
