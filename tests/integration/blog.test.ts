import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDatabase, schema } from "@/db/client";
import { GET as listRoute, POST as createRoute, PUT as putRoute } from "@/app/api/v1/blog/route";
import { GET as adminListRoute } from "@/app/api/v1/blog/admin/all/route";
import { DELETE as deleteRoute, GET as getRoute, PATCH as updateRoute } from "@/app/api/v1/blog/[slugOrId]/route";
import { GET as rssRoute } from "@/app/(site)/blog/rss.xml/route";
import { systemContext } from "@/lib/services/context";
import { seedDatabase } from "@/lib/services/system/seed";
import { DEMO_POSTS } from "@/lib/services/content/seed";
import type { AdminBlogPost, BlogPost, BlogPostListItem } from "@/lib/services/content";
import { bearer, registerAccount, setRole, type TestAccount } from "../support/auth";
import { apiRequest, call, json, nextTestIp } from "../support/http";
import { adminAccount, errorOf, MISSING_ID, ok } from "../support/shop";

type Caller = TestAccount | null;
const auth = (account: Caller) => (account ? bearer(account.accessToken) : {});

const list = (query = "") => call(listRoute, apiRequest(`/api/v1/blog${query}`, { ip: nextTestIp() }));
const bySlug = (slug: string) => call(getRoute, apiRequest(`/api/v1/blog/${encodeURIComponent(slug)}`, { ip: nextTestIp() }), { slugOrId: slug });
const create = (account: Caller, body: unknown) => call(createRoute, apiRequest("/api/v1/blog", { method: "POST", headers: auth(account), body }));
const update = (account: Caller, id: string, body: unknown) => call(updateRoute, apiRequest(`/api/v1/blog/${id}`, { method: "PATCH", headers: auth(account), body }), { slugOrId: id });
const remove = (account: Caller, id: string) => call(deleteRoute, apiRequest(`/api/v1/blog/${id}`, { method: "DELETE", headers: auth(account) }), { slugOrId: id });
const adminList = (account: Caller, query = "") => call(adminListRoute, apiRequest(`/api/v1/blog/admin/all${query}`, { headers: auth(account) }));

let counter = 0;
const unique = () => `${Date.now().toString(36)}${++counter}`;
const postBody = (overrides: Record<string, unknown> = {}) => ({
  title: `Lost mode, explained ${unique()}`,
  excerpt: "What happens when you mark a tag as lost.",
  content: "## What changes\n\n- The finder sees your message.\n- You get a notification per scan.",
  ...overrides,
});

async function createPost(admin: TestAccount, overrides: Record<string, unknown> = {}): Promise<AdminBlogPost> {
  return ok<AdminBlogPost>(await create(admin, postBody(overrides)), 201);
}

async function auditEntries(entityId: string) {
  return getDatabase().db.select().from(schema.auditLog).where(and(eq(schema.auditLog.entityType, "blog_post"), eq(schema.auditLog.entityId, entityId))).orderBy(asc(schema.auditLog.createdAt));
}

describe("writing posts (admin)", () => {
  it("creates a draft with the slug from the title (accents folded) and the admin's name as the byline", async () => {
    const admin = await adminAccount();
    const post = await ok<AdminBlogPost>(
      await create(admin, postBody({ title: `Crème brûlée & NFC — or QR? ${unique()}`, tags: ["nfc", "qr", "nfc"], coverImage: "/blog/nfc-or-qr.svg", authorId: MISSING_ID, author: "Mallory" })),
      201,
    );
    expect(post.slug).toMatch(/^creme-brulee-nfc-or-qr-[a-z0-9]+$/);
    expect(post).toMatchObject({ published: false, publishedAt: null, author: "Ada Lovelace", authorId: admin.id, tags: ["nfc", "qr"], coverImage: "http://localhost:3000/blog/nfc-or-qr.svg" });
    // A draft is nowhere public.
    expect((await errorOf(await bySlug(post.slug))).status).toBe(404);
    expect((await ok<BlogPostListItem[]>(await list("?limit=100"))).some((item) => item.id === post.id)).toBe(false);
  });

  it("publishes at once when asked, and the public list and post show it; https covers are kept", async () => {
    const admin = await adminAccount();
    const post = await createPost(admin, { published: true, coverImage: "https://images.example.com/cover.png", tags: ["privacy"] });
    expect(post.published).toBe(true);
    expect(Date.parse(post.publishedAt!)).toBeGreaterThan(Date.now() - 60_000);
    const shown = await ok<BlogPost>(await bySlug(post.slug));
    expect(shown).toEqual({ id: post.id, title: post.title, slug: post.slug, author: "Ada Lovelace", publishedAt: post.publishedAt, coverImage: "https://images.example.com/cover.png", content: post.content, tags: ["privacy"] });
    expect(shown).not.toHaveProperty("excerpt");
  });

  it("refuses a taken slug, given or derived from the title, with 409", async () => {
    const admin = await adminAccount();
    const title = `NFC or QR ${unique()}`;
    const first = await createPost(admin, { title });
    expect(await errorOf(await create(admin, postBody({ title })))).toMatchObject({ status: 409, code: "CONFLICT", details: { field: "slug", slug: first.slug } });
    expect(await errorOf(await create(admin, postBody({ slug: first.slug })))).toMatchObject({ status: 409, code: "CONFLICT" });
    // A draft holds its slug too; a given free slug is taken as is.
    const other = await createPost(admin, { title, slug: `${first.slug}-2` });
    expect(other.slug).toBe(`${first.slug}-2`);
  });

  it("ten admins creating the same title at once: exactly one 201, the others 409", async () => {
    const admin = await adminAccount();
    const title = `Race for one slug ${unique()}`;
    const responses = await Promise.all(Array.from({ length: 10 }, () => create(admin, postBody({ title }))));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, ...Array<number>(9).fill(409)]);
    for (const response of responses.filter((r) => r.status === 409)) expect((await errorOf(response)).code).toBe("CONFLICT");
    const rows = await getDatabase().db.select().from(schema.blogPosts).where(eq(schema.blogPosts.title, title));
    expect(rows).toHaveLength(1);
    expect(await auditEntries(rows[0]!.id)).toHaveLength(1);
  });

  it("validates every field with issues and fieldErrors (400)", async () => {
    const admin = await adminAccount();
    const cases: [Record<string, unknown>, string][] = [
      [{ title: "" }, "title"],
      [{ title: "t".repeat(101) }, "title"],
      [{ title: 5 }, "title"],
      [{ excerpt: "e".repeat(501) }, "excerpt"],
      [{ excerpt: undefined }, "excerpt"],
      [{ content: "c".repeat(100_001) }, "content"],
      [{ content: "" }, "content"],
      [{ slug: "Not A Slug" }, "slug"],
      [{ slug: "double--hyphen" }, "slug"],
      [{ slug: "-leading" }, "slug"],
      [{ slug: "x".repeat(101) }, "slug"],
      [{ coverImage: "http://images.example.com/cover.png" }, "coverImage"],
      [{ coverImage: "data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=" }, "coverImage"],
      [{ coverImage: "javascript:alert(1)" }, "coverImage"],
      [{ coverImage: "//evil.example/x.png" }, "coverImage"],
      [{ coverImage: "/\\evil.example/x.png" }, "coverImage"],
      [{ coverImage: "https://x.example/a b.png" }, "coverImage"],
      [{ tags: Array.from({ length: 11 }, (_, i) => `tag${i}`) }, "tags"],
      [{ tags: ["t".repeat(31)] }, "tags.0"],
      [{ tags: "privacy" }, "tags"],
      [{ published: "yes" }, "published"],
    ];
    for (const [overrides, field] of cases) {
      const error = await errorOf(await create(admin, postBody(overrides)));
      expect(error, JSON.stringify(overrides).slice(0, 80)).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
      expect(Object.keys((error.details as { fieldErrors: Record<string, string[]> }).fieldErrors), JSON.stringify(overrides).slice(0, 80)).toContain(field);
      expect((error.details as { issues: unknown[] }).issues.length).toBeGreaterThan(0);
    }
    // At the limits exactly: accepted.
    const atLimits = await createPost(admin, { title: `${"t".repeat(90)}${unique()}`.slice(0, 100), excerpt: "e".repeat(500), content: "c".repeat(100_000), tags: Array.from({ length: 10 }, (_, i) => `${i}${"t".repeat(29)}`) });
    expect(atLimits.content).toHaveLength(100_000);
  });

  it("role rules: no credential 401, a USER 403, ADMIN and SUPER_ADMIN allowed", async () => {
    const user = await registerAccount();
    const admin = await adminAccount();
    const superAdmin = await registerAccount();
    await setRole(superAdmin.id, "SUPER_ADMIN");
    const post = await createPost(admin);

    expect((await errorOf(await create(null, postBody()))).status).toBe(401);
    expect(await errorOf(await create(user, postBody()))).toMatchObject({ status: 403, code: "FORBIDDEN" });
    expect((await errorOf(await update(null, post.id, { title: "x" }))).status).toBe(401);
    expect((await errorOf(await update(user, post.id, { title: "x" }))).status).toBe(403);
    expect((await errorOf(await remove(null, post.id))).status).toBe(401);
    expect((await errorOf(await remove(user, post.id))).status).toBe(403);
    expect((await errorOf(await adminList(null))).status).toBe(401);
    expect((await errorOf(await adminList(user))).status).toBe(403);
    // An API key of a plain user is no better than its user.
    expect((await errorOf(await call(createRoute, apiRequest("/api/v1/blog", { method: "POST", headers: { "X-API-Key": "tag_dev_notakey" }, body: postBody() })))).status).toBe(401);

    const bySuper = await createPost(superAdmin, { published: true });
    expect(bySuper.authorId).toBe(superAdmin.id);
    expect((await ok<AdminBlogPost>(await update(superAdmin, post.id, { excerpt: "By the super admin." }))).excerpt).toBe("By the super admin.");
    expect((await adminList(superAdmin)).status).toBe(200);
    expect((await remove(superAdmin, bySuper.id)).status).toBe(200);
  });
});

describe("editing and deleting posts (admin)", () => {
  it("edits the fields given; publishing sets publishedAt once, unpublishing hides the post and keeps it", async () => {
    const admin = await adminAccount();
    const post = await createPost(admin, { coverImage: "/blog/lost-mode.svg" });
    const edited = await ok<AdminBlogPost>(await update(admin, post.id, { excerpt: "New excerpt", coverImage: null, tags: ["lost"] }));
    expect(edited).toMatchObject({ title: post.title, excerpt: "New excerpt", coverImage: null, tags: ["lost"], published: false });

    const published = await ok<AdminBlogPost>(await update(admin, post.id, { published: true }));
    expect(published.publishedAt).not.toBeNull();
    expect((await bySlug(post.slug)).status).toBe(200);

    const hidden = await ok<AdminBlogPost>(await update(admin, post.id, { published: false }));
    expect(hidden).toMatchObject({ published: false, publishedAt: published.publishedAt });
    expect((await errorOf(await bySlug(post.slug))).status).toBe(404);

    const again = await ok<AdminBlogPost>(await update(admin, post.id, { published: true }));
    expect(again.publishedAt).toBe(published.publishedAt);

    const renamed = await ok<AdminBlogPost>(await update(admin, post.id, { slug: `renamed-${unique()}` }));
    expect((await errorOf(await bySlug(post.slug))).status).toBe(404);
    expect((await ok<BlogPost>(await bySlug(renamed.slug))).id).toBe(post.id);
    // Unknown fields are ignored; an empty patch changes nothing.
    expect((await ok<AdminBlogPost>(await update(admin, post.id, { author: "Mallory", published_at: "2000-01-01" }))).author).toBe("Ada Lovelace");
  });

  it("refuses a taken slug (409), invalid fields (400), and answers 404 for unknown and malformed ids", async () => {
    const admin = await adminAccount();
    const [a, b] = [await createPost(admin), await createPost(admin)];
    expect(await errorOf(await update(admin, a.id, { slug: b.slug }))).toMatchObject({ status: 409, code: "CONFLICT" });
    expect((await ok<AdminBlogPost>(await update(admin, a.id, { slug: a.slug }))).slug).toBe(a.slug);
    expect(await errorOf(await update(admin, a.id, { title: "" }))).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    expect(await errorOf(await update(admin, a.id, { coverImage: "http://insecure.example/x.png" }))).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    for (const id of [MISSING_ID, "not-a-uuid", "lost-mode-explained"]) {
      expect((await errorOf(await update(admin, id, { title: "x" }))).status, id).toBe(404);
      expect((await errorOf(await remove(admin, id))).status, id).toBe(404);
    }
  });

  it("deletes a post: gone from the public and admin lists, its slug free again; a second delete is 404", async () => {
    const admin = await adminAccount();
    const post = await createPost(admin, { published: true });
    expect(await ok<{ message: string }>(await remove(admin, post.id))).toEqual({ message: "The post was deleted." });
    expect((await errorOf(await bySlug(post.slug))).status).toBe(404);
    expect((await ok<AdminBlogPost[]>(await adminList(admin, "?limit=100"))).some((item) => item.id === post.id)).toBe(false);
    expect((await errorOf(await remove(admin, post.id))).status).toBe(404);
    expect((await createPost(admin, { slug: post.slug })).slug).toBe(post.slug);
  });

  it("writes an audit entry per write, in the same transaction, with the post before and after", async () => {
    const admin = await adminAccount();
    const post = await createPost(admin);
    await update(admin, post.id, { title: "Audited title" });
    await update(admin, post.id, {});
    await remove(admin, post.id);
    // A refused write leaves no entry.
    await update(admin, post.id, { title: "Too late" });

    const entries = await auditEntries(post.id);
    expect(entries.map((entry) => entry.action)).toEqual(["blog_post.create", "blog_post.update", "blog_post.delete"]);
    for (const entry of entries) expect(entry).toMatchObject({ actorId: admin.id, actorEmail: admin.email, entityType: "blog_post", entityId: post.id });
    const [created, updated, deleted] = entries;
    expect(created!.before).toBeNull();
    expect(created!.after).toMatchObject({ id: post.id, title: post.title, slug: post.slug, published: false });
    expect(updated!.before).toMatchObject({ title: post.title });
    expect(updated!.after).toMatchObject({ title: "Audited title" });
    expect(deleted!.before).toMatchObject({ title: "Audited title" });
    expect(deleted!.after).toBeNull();
  });

  it("the admin list holds drafts and published posts, paginated", async () => {
    const admin = await adminAccount();
    const draft = await createPost(admin);
    const live = await createPost(admin, { published: true });
    const response = await adminList(admin, "?limit=100");
    expect(response.status).toBe(200);
    const body = await json<{ data: AdminBlogPost[]; meta: { total: number; page: number; totalPages: number } }>(response);
    expect(body.data.find((item) => item.id === draft.id)).toMatchObject({ published: false, content: draft.content });
    expect(body.data.find((item) => item.id === live.id)).toMatchObject({ published: true });
    expect(body.meta).toMatchObject({ total: body.data.length, page: 1, totalPages: 1 });
    const paged = await json<{ data: AdminBlogPost[]; meta: { totalPages: number } }>(await adminList(admin, "?limit=1&page=2"));
    expect(paged.data).toHaveLength(1);
    expect(paged.meta.totalPages).toBe(body.meta.total);
    for (const query of ["?limit=0", "?limit=101", "?page=0", "?page=x"]) expect((await errorOf(await adminList(admin, query))).status, query).toBe(400);
  });
});

describe("reading the blog (public)", () => {
  it("lists published posts only, newest first, with pagination meta; bad paging is 400", async () => {
    const admin = await adminAccount();
    const older = await createPost(admin, { published: true });
    const draft = await createPost(admin);
    const newer = await createPost(admin, { published: true });
    const response = await list("?limit=100");
    expect(response.status).toBe(200);
    expect(response.headers.get("X-RateLimit-Limit")).toBe("100");
    const body = await json<{ data: BlogPostListItem[]; meta: { total: number; page: number; totalPages: number } }>(response);
    const ids = body.data.map((item) => item.id);
    expect(ids).not.toContain(draft.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(Object.keys(body.data[0]!).sort()).toEqual(["author", "coverImage", "excerpt", "id", "publishedAt", "slug", "title"]);
    expect(body.meta).toMatchObject({ total: body.data.length, page: 1, totalPages: 1 });
    const firstPage = await json<{ data: BlogPostListItem[]; meta: { total: number; totalPages: number } }>(await list("?limit=1"));
    expect(firstPage.data).toHaveLength(1);
    expect(firstPage.meta.totalPages).toBe(firstPage.meta.total);
    for (const query of ["?limit=0", "?limit=101", "?page=0", "?limit=abc"]) {
      const error = await errorOf(await list(query));
      expect(error, query).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    }
  });

  it("answers 404 for a draft, an unknown slug and anything that is not a slug", async () => {
    const admin = await adminAccount();
    const draft = await createPost(admin);
    for (const slug of [draft.slug, `no-such-post-${unique()}`, "Not_A_Slug", "a/b", "x".repeat(200), "ünïcode"]) {
      expect(await errorOf(await bySlug(slug)), slug).toMatchObject({ status: 404, code: "NOT_FOUND" });
    }
  });

  it("other methods are 405 with the Allow header", async () => {
    const response = await call(putRoute, apiRequest("/api/v1/blog", { method: "PUT", body: {} }));
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toContain("POST");
  });
});

describe("the RSS feed", () => {
  it("is RSS 2.0 of the latest 20 published posts, escaped, with absolute links", async () => {
    const admin = await adminAccount();
    const hostile = await createPost(admin, { published: true, title: `Tom & Jerry's <script>alert("x")</script> ${unique()}`, excerpt: "Less < more & \"quotes\" ]]> end" });
    const draft = await createPost(admin, { title: `Secret draft ${unique()}` });
    for (let i = 0; i < 21; i++) await createPost(admin, { published: true });

    const response = await rssRoute();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    const xml = await response.text();
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"')).toBe(true);
    expect(xml).toContain('<atom:link href="http://localhost:3000/blog/rss.xml" rel="self" type="application/rss+xml"/>');
    expect(xml.match(/<item>/g)).toHaveLength(20);
    expect(xml).not.toContain(draft.title);
    // The hostile post is older than the 21 after it: the newest 20 only.
    expect(xml).not.toContain("Tom &amp; Jerry");
    expect(xml).not.toContain("<script>");

    // Bring the hostile post to the top: its title and excerpt are escaped, never markup.
    await update(admin, hostile.id, { published: false });
    await getDatabase().db.update(schema.blogPosts).set({ published: true, publishedAt: new Date(Date.now() + 60_000) }).where(eq(schema.blogPosts.id, hostile.id));
    const top = await (await rssRoute()).text();
    expect(top).toContain(`<title>Tom &amp; Jerry&apos;s &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; `);
    expect(top).toContain("<description>Less &lt; more &amp; &quot;quotes&quot; ]]&gt; end</description>");
    expect(top).toContain(`<link>http://localhost:3000/blog/${hostile.slug}</link>`);
    expect(top).not.toMatch(/<script/i);
    // Well-formed as far as tags go: every element opened is closed, in order.
    const stack: string[] = [];
    for (const [, closing, name, selfClosing] of top.matchAll(/<(\/?)([a-zA-Z:]+)[^>]*?(\/?)>/g)) {
      if (selfClosing) continue;
      if (closing) expect(stack.pop()).toBe(name);
      else stack.push(name!);
    }
    expect(stack).toEqual([]);
  });
});

describe("demo content", () => {
  it("seeds published posts, one draft, open and closed positions, once", async () => {
    const options = { demo: true };
    await seedDatabase(systemContext(getDatabase().db), options);
    await seedDatabase(systemContext(getDatabase().db), options);
    const posts = await getDatabase().db.select().from(schema.blogPosts);
    for (const demo of DEMO_POSTS) expect(posts.filter((post) => post.slug === demo.slug), demo.slug).toHaveLength(1);
    const seeded = posts.filter((post) => DEMO_POSTS.some((demo) => demo.slug === post.slug));
    expect(seeded.filter((post) => post.published).length).toBeGreaterThanOrEqual(4);
    expect(seeded.filter((post) => !post.published)).toHaveLength(1);
    for (const post of seeded) {
      expect(post.content).toMatch(/^## /m);
      expect(post.content).toMatch(/^- /m);
      expect(post.content).toMatch(/\]\((https:\/\/|\/|mailto:)/);
      expect(post.coverImage).toMatch(/^\/blog\/[a-z0-9-]+\.svg$/);
    }
    const positions = await getDatabase().db.select().from(schema.careerPositions);
    expect(positions.filter((position) => position.open).length).toBeGreaterThanOrEqual(3);
    expect(positions.filter((position) => !position.open)).toHaveLength(1);
    expect(new Set(positions.map((position) => position.title)).size).toBe(positions.length);
  });
});
