import { afterEach, describe, expect, it } from "vitest";
import { count, eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { GET as notificationsRoute } from "@/app/api/v1/notifications/route";
import { GET as tagScansRoute } from "@/app/api/v1/tags/[id]/scans/route";
import { GET as messagesRoute } from "@/app/api/v1/messages/route";
import { GET as tagsRoute } from "@/app/api/v1/tags/route";
import { GET as adminUsersRoute } from "@/app/api/v1/admin/users/route";
import { GET as adminOrdersRoute } from "@/app/api/v1/admin/orders/route";
import { GET as ordersRoute } from "@/app/api/v1/orders/route";
import { GET as auditLogRoute } from "@/app/api/v1/admin/audit-log/route";
import { GET as rewardsRoute } from "@/app/api/v1/rewards/route";
import { GET as paymentEventsRoute } from "@/app/api/v1/admin/payment-events/route";
import { GET as emergencyAccessesRoute } from "@/app/api/v1/emergency/accesses/route";
import { GET as adminReportsRoute } from "@/app/api/v1/admin/reports/route";
import { GET as blogRoute } from "@/app/api/v1/blog/route";
import { GET as blogAdminRoute } from "@/app/api/v1/blog/admin/all/route";
import { GET as careersAdminRoute } from "@/app/api/v1/careers/admin/all/route";
import { GET as productsRoute } from "@/app/api/v1/orders/products/route";
import { GET as adminProductsRoute } from "@/app/api/v1/admin/products/route";
import { GET as campaignsRoute } from "@/app/api/v1/admin/campaigns/route";
import { GET as nearbyAlertsRoute } from "@/app/api/v1/alerts/nearby/route";
import { GET as organisationAlertsRoute } from "@/app/api/v1/organisations/alerts/route";
import { GET as foundReportsRoute } from "@/app/api/v1/organisations/found/route";
import { GET as adminOrganisationsRoute } from "@/app/api/v1/admin/organisations/route";
import { pagingLimits } from "@/lib/services/paging";
import { bearer, registerAccount, setRole } from "../support/auth";
import { adminAccount } from "../support/shop";
import { testAlert, testCentre, testOrganisation } from "../support/organisations";
import { giveTestTag } from "../support/tags";
import { apiRequest, call } from "../support/http";
import { expectCursorRefused, expectKeysetList, listPage, walkByCursor, type ListCall } from "../support/cursor-walk";

afterEach(() => {
  pagingLimits.exactTotalUpTo = 10_000;
});

async function seedNotifications(userId: string, count: number, at = Date.parse("2026-02-01T10:00:00.000Z")) {
  // Pairs share a creation time, so the order's tie-break on id is exercised.
  const rows = Array.from({ length: count }, (_, index) => ({ userId, type: "TAG_SCANNED" as const, title: `N${index}`, body: "b", createdAt: new Date(at + Math.floor(index / 2) * 60_000) }));
  return getDatabase().db.insert(schema.notifications).values(rows).returning();
}

describe("GET /notifications by cursor", () => {
  it("walks the same notifications by cursor as by page, and refuses bad cursors", async () => {
    const account = await registerAccount();
    await seedNotifications(account.id, 7);
    const list: ListCall = (search) => call(notificationsRoute, apiRequest(`/api/v1/notifications?${search}`, { headers: bearer(account.accessToken) }));
    const ids = await expectKeysetList(list, 7);
    const first = await listPage(list, "limit=3");
    expect(first.meta).toMatchObject({ total: 7, page: 1, totalPages: 3, totalIsEstimate: false });
    expect(first.data.map((item) => item.id)).toEqual(ids.slice(0, 3));
  });

  it("neither repeats nor skips when notifications arrive during the walk", async () => {
    const account = await registerAccount();
    const seeded = await seedNotifications(account.id, 6);
    const list: ListCall = (search) => call(notificationsRoute, apiRequest(`/api/v1/notifications?${search}`, { headers: bearer(account.accessToken) }));
    const { ids } = await walkByCursor(list, 2, "", async () => {
      await seedNotifications(account.id, 1, Date.parse("2026-03-01T10:00:00.000Z"));
    });
    const expected = [...seeded].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)).map((row) => row.id);
    expect(ids).toEqual(expected);
  });

  it("refuses another user's cursor", async () => {
    const [alice, bob] = [await registerAccount(), await registerAccount()];
    await seedNotifications(alice.id, 3);
    await seedNotifications(bob.id, 3);
    const aliceList: ListCall = (search) => call(notificationsRoute, apiRequest(`/api/v1/notifications?${search}`, { headers: bearer(alice.accessToken) }));
    const bobList: ListCall = (search) => call(notificationsRoute, apiRequest(`/api/v1/notifications?${search}`, { headers: bearer(bob.accessToken) }));
    const cursor = (await listPage(aliceList, "limit=1")).meta.nextCursor!;
    expect(typeof cursor).toBe("string");
    const message = await expectCursorRefused(bobList, `limit=1&cursor=${encodeURIComponent(cursor)}`);
    expect(message).toMatch(/cursor/i);
  });

  it("answers an estimate above the exact-count limit, without counting every row", async () => {
    pagingLimits.exactTotalUpTo = 4;
    const account = await registerAccount();
    await seedNotifications(account.id, 9);
    const list: ListCall = (search) => call(notificationsRoute, apiRequest(`/api/v1/notifications?${search}`, { headers: bearer(account.accessToken) }));
    const first = await listPage(list, "limit=2");
    expect(first.meta.totalIsEstimate).toBe(true);
    expect(first.meta.total).toBeGreaterThanOrEqual(5);
    expect(first.meta.totalPages).toBe(Math.ceil(first.meta.total / 2));
    const { ids } = await walkByCursor(list, 2);
    expect(ids).toHaveLength(9);
  });
});

describe("GET /tags/{id}/scans by cursor", () => {
  async function seedScans(tagId: string, count: number, at = Date.parse("2026-02-01T10:00:00.000Z")) {
    const rows = Array.from({ length: count }, (_, index) => ({ tagId, ipHash: `h${index}`, scannedAt: new Date(at + Math.floor(index / 3) * 1000) }));
    return getDatabase().db.insert(schema.scans).values(rows).returning();
  }

  it("walks a tag's scans by cursor as by page; another tag's cursor is refused", async () => {
    const owner = await registerAccount();
    const [tag, other] = [await giveTestTag(owner.id), await giveTestTag(owner.id)];
    await seedScans(tag.id, 8);
    await seedScans(other.id, 3);
    const list = (tagId: string): ListCall => (search) => call(tagScansRoute, apiRequest(`/api/v1/tags/${tagId}/scans?${search}`, { headers: bearer(owner.accessToken) }), { id: tagId });
    await expectKeysetList(list(tag.id), 8);
    const cursor = (await listPage(list(other.id), "limit=1")).meta.nextCursor!;
    await expectCursorRefused(list(tag.id), `limit=1&cursor=${encodeURIComponent(cursor)}`);
  });

  it("keeps its place while new scans arrive, and estimates a long history", async () => {
    pagingLimits.exactTotalUpTo = 5;
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id);
    const seeded = await seedScans(tag.id, 9);
    const list: ListCall = (search) => call(tagScansRoute, apiRequest(`/api/v1/tags/${tag.id}/scans?${search}`, { headers: bearer(owner.accessToken) }), { id: tag.id });
    const { ids, pages } = await walkByCursor(list, 4, "", async () => {
      await seedScans(tag.id, 2, Date.parse("2026-03-01T10:00:00.000Z"));
    });
    expect(new Set(ids)).toEqual(new Set(seeded.map((row) => row.id)));
    expect(ids).toHaveLength(9);
    expect(pages[0]!.meta.totalIsEstimate).toBe(true);
    expect(pages[0]!.meta.total).toBeGreaterThanOrEqual(6);
  });
});

describe("GET /messages by cursor", () => {
  async function seedThreads(ownerId: string, tagId: string, count: number) {
    const at = Date.parse("2026-02-01T10:00:00.000Z");
    const rows = Array.from({ length: count }, (_, index) => ({ ownerId, tagId, tokenHash: `cursor-${tagId}-${index}-${Math.random()}`, lastMessageAt: new Date(at + Math.floor(index / 2) * 1000) }));
    return getDatabase().db.insert(schema.threads).values(rows).returning();
  }

  it("walks the inbox and one tag's threads by cursor as by page; the other filter's cursor is refused", async () => {
    const owner = await registerAccount();
    const [tag, other] = [await giveTestTag(owner.id), await giveTestTag(owner.id)];
    await seedThreads(owner.id, tag.id, 5);
    await seedThreads(owner.id, other.id, 2);
    const list: ListCall = (search) => call(messagesRoute, apiRequest(`/api/v1/messages?${search}`, { headers: bearer(owner.accessToken) }));
    await expectKeysetList(list, 7);
    await expectKeysetList(list, 5, `&tagId=${tag.id}`);
    const cursor = (await listPage(list, "limit=1")).meta.nextCursor!;
    await expectCursorRefused(list, `limit=1&tagId=${tag.id}&cursor=${encodeURIComponent(cursor)}`);
  });
});

describe("GET /tags by cursor", () => {
  it("walks the owner's tags, filtered or not, by cursor as by page", async () => {
    const owner = await registerAccount();
    for (let index = 0; index < 4; index += 1) await giveTestTag(owner.id, { status: index % 2 ? "LOST" : "ACTIVE" });
    const list: ListCall = (search) => call(tagsRoute, apiRequest(`/api/v1/tags?${search}`, { headers: bearer(owner.accessToken) }));
    await expectKeysetList(list, 4);
    await expectKeysetList(list, 2, "&status=LOST");
    const cursor = (await listPage(list, "limit=1")).meta.nextCursor!;
    await expectCursorRefused(list, `limit=1&status=LOST&cursor=${encodeURIComponent(cursor)}`);
  });
});

describe("admin lists and orders by cursor", () => {
  it("walks admin users (searched and not) by cursor as by page", async () => {
    const admin = await adminAccount();
    for (let index = 0; index < 3; index += 1) await registerAccount({ email: `cursorwalk${index}-${Date.now()}@example.com` });
    const list: ListCall = (search) => call(adminUsersRoute, apiRequest(`/api/v1/admin/users?${search}`, { headers: bearer(admin.accessToken) }));
    const n = (await getDatabase().db.select({ n: count() }).from(schema.users))[0]!.n;
    await expectKeysetList(list, n);
    await expectKeysetList(list, 3, "&search=cursorwalk");
    const cursor = (await listPage(list, "limit=1")).meta.nextCursor!;
    await expectCursorRefused(list, `limit=1&search=cursorwalk&cursor=${encodeURIComponent(cursor)}`);
  });

  it("walks the audit log and orders by cursor as by page", async () => {
    const superAdmin = await adminAccount();
    await setRole(superAdmin.id, "SUPER_ADMIN");
    const buyer = await registerAccount();
    const at = Date.parse("2026-02-01T10:00:00.000Z");
    await getDatabase()
      .db.insert(schema.auditLog)
      .values(Array.from({ length: 5 }, (_, index) => ({ actorId: superAdmin.id, actorEmail: superAdmin.email, action: "user.update", entityType: "user", entityId: buyer.id, createdAt: new Date(at + Math.floor(index / 2) * 1000) })));
    await getDatabase()
      .db.insert(schema.orders)
      .values(Array.from({ length: 5 }, (_, index) => ({ userId: buyer.id, totalMinor: 100, currency: "EUR", createdAt: new Date(at + Math.floor(index / 2) * 1000) })));
    const audit: ListCall = (search) => call(auditLogRoute, apiRequest(`/api/v1/admin/audit-log?${search}`, { headers: bearer(superAdmin.accessToken) }));
    await expectKeysetList(audit, 5, `&actorId=${superAdmin.id}`);
    const orderCount = (await getDatabase().db.select({ n: count() }).from(schema.orders))[0]!.n;
    const adminOrders: ListCall = (search) => call(adminOrdersRoute, apiRequest(`/api/v1/admin/orders?${search}`, { headers: bearer(superAdmin.accessToken) }));
    await expectKeysetList(adminOrders, orderCount);
    const pending = (await getDatabase().db.select({ n: count() }).from(schema.orders).where(eq(schema.orders.status, "PENDING")))[0]!.n;
    await expectKeysetList(adminOrders, pending, "&status=PENDING");
    const mine: ListCall = (search) => call(ordersRoute, apiRequest(`/api/v1/orders?${search}`, { headers: bearer(buyer.accessToken) }));
    await expectKeysetList(mine, 5);
    const adminCursor = (await listPage(adminOrders, "limit=1")).meta.nextCursor!;
    await expectCursorRefused(mine, `limit=1&cursor=${encodeURIComponent(adminCursor)}`);
  });
});

describe("rewards, emergency accesses, payment events and reports by cursor", () => {
  const at = Date.parse("2026-02-01T10:00:00.000Z");
  const when = (index: number) => new Date(at + Math.floor(index / 2) * 1000);

  it("walks the owner's rewards and emergency accesses", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id);
    const db = getDatabase().db;
    await db.insert(schema.rewards).values(Array.from({ length: 5 }, (_, index) => ({ ownerId: owner.id, tagId: tag.id, amountMinor: 500, status: "PAID" as const, createdAt: when(index) })));
    await db.insert(schema.emergencyAccesses).values(Array.from({ length: 5 }, (_, index) => ({ userId: owner.id, tagId: tag.id, accessedAt: when(index) })));
    const headers = bearer(owner.accessToken);
    const rewards: ListCall = (search) => call(rewardsRoute, apiRequest(`/api/v1/rewards?${search}`, { headers }));
    const accesses: ListCall = (search) => call(emergencyAccessesRoute, apiRequest(`/api/v1/emergency/accesses?${search}`, { headers }));
    await expectKeysetList(rewards, 5);
    await expectKeysetList(rewards, 5, `&tagId=${tag.id}`);
    await expectKeysetList(accesses, 5);
    const rewardCursor = (await listPage(rewards, "limit=1")).meta.nextCursor!;
    await expectCursorRefused(accesses, `limit=1&cursor=${encodeURIComponent(rewardCursor)}`);
  });

  it("walks payment events (text ids) and the report queue (oldest first when OPEN)", async () => {
    const admin = await adminAccount();
    const reporter = await registerAccount();
    const db = getDatabase().db;
    await db.insert(schema.paymentEvents).values(Array.from({ length: 5 }, (_, index) => ({ id: `evt_cursor_${index}_${Date.now()}`, type: "test.event", payload: {}, status: index % 2 ? ("FAILED" as const) : ("PROCESSED" as const), receivedAt: when(index) })));
    await db.insert(schema.reports).values(Array.from({ length: 5 }, (_, index) => ({ reporterId: reporter.id, type: "SPAM" as const, description: `r${index}`, status: index < 3 ? ("OPEN" as const) : ("RESOLVED" as const), createdAt: when(index) })));
    const headers = bearer(admin.accessToken);
    const events: ListCall = (search) => call(paymentEventsRoute, apiRequest(`/api/v1/admin/payment-events?${search}`, { headers }));
    const reports: ListCall = (search) => call(adminReportsRoute, apiRequest(`/api/v1/admin/reports?${search}`, { headers }));
    const eventCount = (await db.select({ n: count() }).from(schema.paymentEvents))[0]!.n;
    await expectKeysetList(events, eventCount);
    await expectKeysetList(events, 2, "&status=FAILED");
    const reportCount = (await db.select({ n: count() }).from(schema.reports))[0]!.n;
    await expectKeysetList(reports, reportCount);
    const openCount = (await db.select({ n: count() }).from(schema.reports).where(eq(schema.reports.status, "OPEN")))[0]!.n;
    const queue = await expectKeysetList(reports, openCount, "&status=OPEN");
    const rows = await db.select({ id: schema.reports.id, createdAt: schema.reports.createdAt }).from(schema.reports).where(eq(schema.reports.status, "OPEN"));
    expect(queue).toEqual(rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1)).map((row) => row.id));
  });
});

describe("content, products and campaigns by cursor", () => {
  const at = Date.parse("2026-02-01T10:00:00.000Z");
  const when = (index: number) => new Date(at + Math.floor(index / 2) * 1000);

  it("walks blog posts, positions, products (sort order, then name) and campaigns", async () => {
    const admin = await adminAccount();
    const db = getDatabase().db;
    const tag = `${Date.now()}`;
    await db.insert(schema.blogPosts).values(Array.from({ length: 5 }, (_, index) => ({ title: `P${index}`, slug: `cursor-${tag}-${index}`, excerpt: "e", content: "c", author: "a", published: index < 4, publishedAt: when(index), updatedAt: when(index) })));
    await db.insert(schema.careerPositions).values(Array.from({ length: 3 }, (_, index) => ({ title: `T${index}`, department: "D", location: "L", description: "d", applyUrl: "https://example.com/apply", updatedAt: when(index) })));
    await db.insert(schema.products).values(Array.from({ length: 5 }, (_, index) => ({ slug: `cursor-${tag}-${index}`, name: `Same ${index % 2}`, priceMinor: 100, sortOrder: index % 2, active: index !== 4 })));
    await db.insert(schema.campaigns).values(Array.from({ length: 3 }, (_, index) => ({ subject: `S${index}`, content: "c", createdAt: when(index) })));
    const headers = bearer(admin.accessToken);
    const countOf = async (table: typeof schema.products | typeof schema.blogPosts | typeof schema.careerPositions | typeof schema.campaigns, where?: ReturnType<typeof eq>) => (await db.select({ n: count() }).from(table).where(where))[0]!.n;
    const published: ListCall = (search) => call(blogRoute, apiRequest(`/api/v1/blog?${search}`));
    await expectKeysetList(published, await countOf(schema.blogPosts, eq(schema.blogPosts.published, true)));
    await expectKeysetList((search) => call(blogAdminRoute, apiRequest(`/api/v1/blog/admin/all?${search}`, { headers })), await countOf(schema.blogPosts));
    await expectKeysetList((search) => call(careersAdminRoute, apiRequest(`/api/v1/careers/admin/all?${search}`, { headers })), await countOf(schema.careerPositions));
    await expectKeysetList((search) => call(productsRoute, apiRequest(`/api/v1/orders/products?${search}`)), await countOf(schema.products, eq(schema.products.active, true)));
    await expectKeysetList((search) => call(adminProductsRoute, apiRequest(`/api/v1/admin/products?${search}`, { headers })), await countOf(schema.products));
    await expectKeysetList((search) => call(campaignsRoute, apiRequest(`/api/v1/admin/campaigns?${search}`, { headers })), await countOf(schema.campaigns));
    const blogCursor = (await listPage(published, "limit=1")).meta.nextCursor!;
    await expectCursorRefused((search) => call(blogAdminRoute, apiRequest(`/api/v1/blog/admin/all?${search}`, { headers })), `limit=1&cursor=${encodeURIComponent(blogCursor)}`);
  });
});

describe("alerts and organisation lists by cursor", () => {
  it("walks nearby alerts, an organisation's alerts and found reports, and the admin's organisations", async () => {
    const at = testCentre();
    const watcher = await registerAccount();
    const { account: organisation, organisationId } = await testOrganisation(at, { watchRadiusKm: 5 });
    await testOrganisation(at, { verified: false });
    const db = getDatabase().db;
    const when = (index: number) => new Date(Date.parse("2026-02-01T10:00:00.000Z") + Math.floor(index / 2) * 1000);
    for (let index = 0; index < 5; index += 1) {
      const { alertId } = await testAlert({ at, createdAt: when(index) });
      await db.insert(schema.lostPetAlertRecipients).values({ alertId, userId: watcher.id, distanceM: 100 });
    }
    await db.insert(schema.foundReports).values(Array.from({ length: 3 }, (_, index) => ({ organisationId, species: "DOG" as const, latitude: at.latitude, longitude: at.longitude, foundAt: when(index), note: "n", createdAt: when(index) })));
    const admin = await adminAccount();
    await expectKeysetList((search) => call(nearbyAlertsRoute, apiRequest(`/api/v1/alerts/nearby?${search}`, { headers: bearer(watcher.accessToken) })), 5, "", "alertId");
    const openNear = (await db.select({ n: count() }).from(schema.lostPetAlerts))[0]!.n;
    await expectKeysetList((search) => call(organisationAlertsRoute, apiRequest(`/api/v1/organisations/alerts?${search}`, { headers: bearer(organisation.accessToken) })), openNear, "", "alertId");
    await expectKeysetList((search) => call(foundReportsRoute, apiRequest(`/api/v1/organisations/found?${search}`, { headers: bearer(organisation.accessToken) })), 3);
    const organisations = (await db.select({ n: count() }).from(schema.organisations))[0]!.n;
    const adminList: ListCall = (search) => call(adminOrganisationsRoute, apiRequest(`/api/v1/admin/organisations?${search}`, { headers: bearer(admin.accessToken) }));
    await expectKeysetList(adminList, organisations);
    await expectKeysetList(adminList, 1, "&verified=false");
  });
});
