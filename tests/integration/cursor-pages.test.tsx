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
const { default: AdminUsersPage } = await import("@/app/(admin)/admin/users/page");
const { default: AdminOrdersPage } = await import("@/app/(admin)/admin/orders/page");
const { default: PaymentEventsPage } = await import("@/app/(admin)/admin/payment-events/page");
const { default: AuditLogPage } = await import("@/app/(admin)/admin/audit-log/page");
const { backToUsers } = await import("@/app/(admin)/admin/users/users-path");
const { default: OrdersPage } = await import("@/app/(dashboard)/dashboard/orders/page");
const { default: RewardsPage } = await import("@/app/(dashboard)/dashboard/rewards/page");
const { default: EmergencyPage } = await import("@/app/(dashboard)/dashboard/emergency/page");
const { default: ReportsPage } = await import("@/app/(admin)/admin/reports/page");
const { backToQueue } = await import("@/app/(admin)/admin/reports/queue-path");
const { default: AlertsPage } = await import("@/app/(dashboard)/dashboard/alerts/page");
const { testAlert, testCentre } = await import("../support/organisations");
const { registerAccount, setRole } = await import("../support/auth");
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

describe("the admin lists by cursor", () => {
  const hrefOf = (html: string, text: string) => [...html.matchAll(/<a[^>]*href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].find((match) => match[2] === text)?.[1]?.replaceAll("&amp;", "&");
  const paramsOf = (href: string) => Object.fromEntries(new URL(href, "http://localhost").searchParams);

  it("users, orders, payment events and the audit log link to older pages by cursor, keeping the filters", async () => {
    const admin = await registerAccount();
    await setRole(admin.id, "SUPER_ADMIN");
    request.cookie = admin.cookie;
    const db = getDatabase().db;
    const stamp = Date.now();
    for (let index = 0; index < 22; index += 1) await registerAccount({ email: `pagewalk${stamp}-${index}@example.com` });
    const at = Date.parse("2026-02-01T10:00:00.000Z");
    await db.insert(schema.orders).values(Array.from({ length: 22 }, (_, index) => ({ userId: admin.id, totalMinor: 100, currency: "EUR", status: "SHIPPED" as const, createdAt: new Date(at + index * 1000) })));
    await db.insert(schema.paymentEvents).values(Array.from({ length: 22 }, (_, index) => ({ id: `evt_pages_${stamp}_${index}`, type: "test.event", payload: {}, status: "FAILED" as const, receivedAt: new Date(at + index * 1000) })));
    await db.insert(schema.auditLog).values(Array.from({ length: 30 }, (_, index) => ({ actorId: admin.id, actorEmail: admin.email, action: "user.update", entityType: "user", entityId: admin.id, createdAt: new Date(at + index * 1000) })));

    const users = renderToStaticMarkup(await AdminUsersPage({ searchParams: Promise.resolve({ search: `pagewalk${stamp}` }) }));
    const olderUsers = hrefOf(users, "Older users")!;
    expect(paramsOf(olderUsers)).toMatchObject({ search: `pagewalk${stamp}` });
    const usersPage2 = renderToStaticMarkup(await AdminUsersPage({ searchParams: Promise.resolve(paramsOf(olderUsers)) }));
    expect(usersPage2).toContain("22 users, page 2 of 2.");
    const cursor = paramsOf(olderUsers).cursor!;
    expect(usersPage2).toContain(`name="view-cursor" value="${cursor}"`);
    const data = new FormData();
    data.set("view-search", `pagewalk${stamp}`);
    data.set("view-cursor", cursor);
    data.set("userId", admin.id);
    expect(paramsOf(backToUsers(data, "suspended"))).toEqual({ search: `pagewalk${stamp}`, cursor, notice: "suspended" });

    const orders = renderToStaticMarkup(await AdminOrdersPage({ searchParams: Promise.resolve({ status: "SHIPPED" }) }));
    const olderOrders = hrefOf(orders, "Older orders")!;
    expect(paramsOf(olderOrders)).toMatchObject({ status: "SHIPPED" });
    expect(renderToStaticMarkup(await AdminOrdersPage({ searchParams: Promise.resolve(paramsOf(olderOrders)) }))).toContain("22 orders, page 2 of 2.");

    const events = renderToStaticMarkup(await PaymentEventsPage({ searchParams: Promise.resolve({ status: "FAILED" }) }));
    const olderEvents = hrefOf(events, "Older events")!;
    expect(renderToStaticMarkup(await PaymentEventsPage({ searchParams: Promise.resolve(paramsOf(olderEvents)) }))).toContain("page 2 of 2.");

    const audit = renderToStaticMarkup(await AuditLogPage({ searchParams: Promise.resolve({ actorId: admin.id }) }));
    const olderAudit = hrefOf(audit, "Older entries")!;
    expect(paramsOf(olderAudit)).toMatchObject({ actorId: admin.id });
    const auditPage2 = renderToStaticMarkup(await AuditLogPage({ searchParams: Promise.resolve(paramsOf(olderAudit)) }));
    expect(auditPage2).toContain("30 entries, page 2 of 2.");
    expect(hrefOf(auditPage2, "Newest entries")).toBe(`/admin/audit-log?actorId=${admin.id}`);
  });
});

describe("the owner's orders, rewards and emergency log, and the report queue, by cursor", () => {
  const hrefOf = (html: string, text: string) => [...html.matchAll(/<a[^>]*href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].find((match) => match[2] === text)?.[1]?.replaceAll("&amp;", "&");
  const paramsOf = (href: string) => Object.fromEntries(new URL(href, "http://localhost").searchParams);
  const at = Date.parse("2026-02-01T10:00:00.000Z");
  const when = (index: number) => new Date(at + index * 1000);

  it("link to the next page by cursor", async () => {
    const owner = await registerAccount();
    await setRole(owner.id, "ADMIN");
    request.cookie = owner.cookie;
    const tag = await giveTestTag(owner.id);
    const db = getDatabase().db;
    await db.insert(schema.orders).values(Array.from({ length: 12 }, (_, index) => ({ userId: owner.id, totalMinor: 100, currency: "EUR", createdAt: when(index) })));
    await db.insert(schema.rewards).values(Array.from({ length: 22 }, (_, index) => ({ ownerId: owner.id, tagId: tag.id, amountMinor: 500, status: "PAID" as const, createdAt: when(index) })));
    await db.insert(schema.emergencyAccesses).values(Array.from({ length: 12 }, (_, index) => ({ userId: owner.id, tagId: tag.id, accessedAt: when(index) })));
    await db.insert(schema.reports).values(Array.from({ length: 22 }, (_, index) => ({ reporterId: owner.id, type: "SPAM" as const, description: `r${index}`, createdAt: when(index) })));

    const render = async (Page: (props: { searchParams: Promise<Record<string, string>> }) => Promise<React.ReactElement>, params: Record<string, string>) => renderToStaticMarkup(await Page({ searchParams: Promise.resolve(params) }));
    for (const [Page, older, newest] of [
      [OrdersPage, "Older orders", "Newest orders"],
      [RewardsPage, "Older rewards", "Newest rewards"],
      [EmergencyPage, "Older accesses", "Newest accesses"],
    ] as const) {
      const first = await render(Page as never, {});
      const next = hrefOf(first, older)!;
      expect(paramsOf(next).cursor, older).toBeTruthy();
      const second = await render(Page as never, paramsOf(next));
      expect(hrefOf(second, newest), newest).toBeTruthy();
      expect(hrefOf(second, older), older).toBeUndefined();
    }

    const queue = await render(ReportsPage as never, { status: "OPEN" });
    const next = hrefOf(queue, "Next page")!;
    expect(paramsOf(next)).toMatchObject({ status: "OPEN" });
    const second = await render(ReportsPage as never, paramsOf(next));
    expect(second).toContain("22 reports, page 2 of 2.");
    const data = new FormData();
    data.set("view-status", "OPEN");
    data.set("view-cursor", paramsOf(next).cursor!);
    expect(paramsOf(backToQueue(data, "updated"))).toEqual({ status: "OPEN", cursor: paramsOf(next).cursor, notice: "updated" });
  });
});

describe("the lost pets near you page by cursor", () => {
  it("links to older alerts by cursor", async () => {
    const watcher = await registerAccount();
    request.cookie = watcher.cookie;
    const at = testCentre();
    for (let index = 0; index < 21; index += 1) {
      const { alertId } = await testAlert({ at, createdAt: new Date(Date.parse("2026-02-01T10:00:00.000Z") + index * 1000) });
      await getDatabase().db.insert(schema.lostPetAlertRecipients).values({ alertId, userId: watcher.id, distanceM: 100 });
    }
    const render = async (params: Record<string, string>) => renderToStaticMarkup(await AlertsPage({ searchParams: Promise.resolve(params) }));
    const first = await render({});
    const older = /<a[^>]*href="([^"]*)"[^>]*>Older alerts<\/a>/.exec(first)?.[1]?.replaceAll("&amp;", "&");
    expect(older).toMatch(/^\/dashboard\/alerts\?cursor=/);
    const second = await render(Object.fromEntries(new URL(older!, "http://localhost").searchParams));
    expect(second).toMatch(/<a[^>]*href="\/dashboard\/alerts"[^>]*>Newest alerts<\/a>/);
    expect(second).not.toContain(">Older alerts<");
  });
});
