import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { form, mockNextRequestScope, redirectOf } from "../support/next-request-scope";

/**
 * The dashboard's lists page by cursor (docs/decisions/0046-cursor-pagination.md): server-rendered links
 * carry the next page's cursor, a form on a later page comes back to it, and a cursor the list refuses
 * shows the first page. The page, its service and the database are the real ones.
 */
const request = mockNextRequestScope("203.0.113.46");
const { getDatabase, schema } = await import("@/db/client");
const { default: NotificationsPage } = await import("@/app/(dashboard)/dashboard/notifications/page");
const { markReadAction } = await import("@/app/(dashboard)/dashboard/notifications/actions");
const { default: TagsPage } = await import("@/app/(dashboard)/dashboard/tags/page");
const { default: MessagesPage } = await import("@/app/(dashboard)/dashboard/messages/page");
const { registerAccount } = await import("../support/auth");
const { giveTestTag } = await import("../support/tags");

const render = async (params: Record<string, string>) => renderToStaticMarkup(await NotificationsPage({ searchParams: Promise.resolve(params) }));
const titles = (html: string) => [...html.matchAll(/<span class="break-words">(N\d+)<\/span>/g)].map((match) => match[1]);
const olderHref = (html: string) => /<a[^>]*href="([^"]*)"[^>]*>Older notifications<\/a>/.exec(html)?.[1]?.replaceAll("&amp;", "&");

describe("the notifications page by cursor", () => {
  it("links to older pages by cursor, comes back to the page after marking one read, and survives a bad cursor", async () => {
    const account = await registerAccount();
    request.cookie = account.cookie;
    const at = Date.parse("2026-02-01T10:00:00.000Z");
    await getDatabase()
      .db.insert(schema.notifications)
      .values(Array.from({ length: 45 }, (_, index) => ({ userId: account.id, type: "TAG_SCANNED" as const, title: `N${index}`, body: "b", createdAt: new Date(at + index * 1000) })));

    const first = await render({});
    expect(titles(first)).toEqual(Array.from({ length: 20 }, (_, index) => `N${44 - index}`));
    expect(first).toContain("Page 1 of 3");
    expect(first).not.toContain("Newest notifications");
    const second = new URL(olderHref(first)!, "http://localhost").searchParams.get("cursor")!;
    expect(second).toBeTruthy();

    const page2 = await render({ cursor: second });
    expect(titles(page2)).toEqual(Array.from({ length: 20 }, (_, index) => `N${24 - index}`));
    expect(page2).toContain("Page 2 of 3");
    expect(page2).toMatch(/<a[^>]*href="\/dashboard\/notifications"[^>]*>Newest notifications<\/a>/);
    const third = new URL(olderHref(page2)!, "http://localhost").searchParams.get("cursor")!;
    const page3 = await render({ cursor: third });
    expect(titles(page3)).toEqual(["N4", "N3", "N2", "N1", "N0"]);
    expect(olderHref(page3)).toBeUndefined();

    const [row] = await getDatabase().db.select({ id: schema.notifications.id }).from(schema.notifications).where((await import("drizzle-orm")).eq(schema.notifications.title, "N20"));
    const back = await redirectOf(markReadAction(form({ notificationId: row!.id, cursor: second })));
    expect(back).toBe(`/dashboard/notifications?notice=read&cursor=${encodeURIComponent(second)}`);

    const altered = await render({ cursor: `${second.slice(0, -2)}AA` });
    expect(titles(altered)).toEqual(titles(first));
  });
});

describe("the tags and messages pages by cursor", () => {
  it("keep the filter in the Older link and walk every row once", async () => {
    const account = await registerAccount();
    request.cookie = account.cookie;
    for (let index = 0; index < 22; index += 1) await giveTestTag(account.id, { status: "LOST", itemName: `Lost ${index}` });
    await giveTestTag(account.id, { itemName: "Active one" });
    const tagsPage = async (params: Record<string, string>) => renderToStaticMarkup(await TagsPage({ searchParams: Promise.resolve(params) }));
    const first = await tagsPage({ status: "LOST" });
    const older = /<a[^>]*href="([^"]*)"[^>]*>Older tags<\/a>/.exec(first)?.[1]?.replaceAll("&amp;", "&");
    expect(older).toMatch(/^\/dashboard\/tags\?status=LOST&cursor=/);
    const second = await tagsPage(Object.fromEntries(new URL(older!, "http://localhost").searchParams));
    const names = (html: string) => [...html.matchAll(/>(Lost \d+|Active one)</g)].map((match) => match[1]);
    expect(new Set([...names(first), ...names(second)]).size).toBe(22);
    expect(names(second)).toHaveLength(2);
    expect(second).toMatch(/<a[^>]*href="\/dashboard\/tags\?status=LOST"[^>]*>Newest tags<\/a>/);

    const tag = await giveTestTag(account.id);
    const at = Date.parse("2026-02-01T10:00:00.000Z");
    await getDatabase()
      .db.insert(schema.threads)
      .values(Array.from({ length: 23 }, (_, index) => ({ ownerId: account.id, tagId: tag.id, tokenHash: `pages-${tag.id}-${index}`, finderName: `Finder ${index}`, lastMessageAt: new Date(at + index * 1000) })));
    const inbox = renderToStaticMarkup(await MessagesPage({ searchParams: Promise.resolve({}) }));
    const next = /<a[^>]*href="([^"]*)"[^>]*>Older conversations<\/a>/.exec(inbox)?.[1]?.replaceAll("&amp;", "&");
    const rest = renderToStaticMarkup(await MessagesPage({ searchParams: Promise.resolve(Object.fromEntries(new URL(next!, "http://localhost").searchParams)) }));
    expect([...rest.matchAll(/Finder (\d+)/g)].map((match) => match[1])).toEqual(["2", "1", "0"]);
  });
});
