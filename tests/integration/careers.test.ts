import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDatabase, schema } from "@/db/client";
import { GET as listRoute, POST as createRoute } from "@/app/api/v1/careers/route";
import { GET as adminListRoute } from "@/app/api/v1/careers/admin/all/route";
import { DELETE as deleteRoute, GET as getRoute, PATCH as updateRoute } from "@/app/api/v1/careers/[id]/route";
import type { AdminPosition, Position, PositionListItem } from "@/lib/services/content";
import { bearer, registerAccount, setRole, type TestAccount } from "../support/auth";
import { apiRequest, call, json, nextTestIp } from "../support/http";
import { adminAccount, errorOf, MISSING_ID, ok } from "../support/shop";

type Caller = TestAccount | null;
const auth = (account: Caller) => (account ? bearer(account.accessToken) : {});

const list = () => call(listRoute, apiRequest("/api/v1/careers", { ip: nextTestIp() }));
const byId = (id: string) => call(getRoute, apiRequest(`/api/v1/careers/${id}`, { ip: nextTestIp() }), { id });
const create = (account: Caller, body: unknown) => call(createRoute, apiRequest("/api/v1/careers", { method: "POST", headers: auth(account), body }));
const update = (account: Caller, id: string, body: unknown) => call(updateRoute, apiRequest(`/api/v1/careers/${id}`, { method: "PATCH", headers: auth(account), body }), { id });
const remove = (account: Caller, id: string) => call(deleteRoute, apiRequest(`/api/v1/careers/${id}`, { method: "DELETE", headers: auth(account) }), { id });
const adminList = (account: Caller, query = "") => call(adminListRoute, apiRequest(`/api/v1/careers/admin/all${query}`, { headers: auth(account) }));

let counter = 0;
const positionBody = (overrides: Record<string, unknown> = {}) => ({
  title: `Senior Full-stack Engineer ${Date.now().toString(36)}${++counter}`,
  department: "Engineering",
  location: "Remote (Europe)",
  type: "FULL_TIME",
  description: "You will build the pages finders see.\n\n- TypeScript\n- PostgreSQL",
  requirements: ["5+ years of TypeScript", "SQL"],
  benefits: ["Four-day week"],
  applyUrl: "mailto:jobs@tagservice.example",
  ...overrides,
});

async function createPosition(admin: TestAccount, overrides: Record<string, unknown> = {}): Promise<AdminPosition> {
  return ok<AdminPosition>(await create(admin, positionBody(overrides)), 201);
}

describe("positions (admin)", () => {
  it("opens a position, public at once; requirements and benefits default to []", async () => {
    const admin = await adminAccount();
    const position = await createPosition(admin, { requirements: undefined, benefits: undefined, type: "INTERNSHIP", open: undefined, id: MISSING_ID });
    expect(position).toMatchObject({ open: true, type: "INTERNSHIP", requirements: [], benefits: [], applyUrl: "mailto:jobs@tagservice.example" });
    expect(position.id).not.toBe(MISSING_ID);
    expect(Date.parse(position.publishedAt!)).toBeGreaterThan(Date.now() - 60_000);
    const shown = await ok<Position>(await byId(position.id));
    expect(shown).toEqual({
      id: position.id,
      title: position.title,
      department: "Engineering",
      location: "Remote (Europe)",
      type: "INTERNSHIP",
      description: position.description,
      publishedAt: position.publishedAt,
      requirements: [],
      benefits: [],
      applyUrl: "mailto:jobs@tagservice.example",
    });
  });

  it("a closed position is hidden from the public list and page; opening it later sets publishedAt once", async () => {
    const admin = await adminAccount();
    const closed = await createPosition(admin, { open: false });
    expect(closed).toMatchObject({ open: false, publishedAt: null });
    expect((await errorOf(await byId(closed.id))).status).toBe(404);
    expect((await ok<PositionListItem[]>(await list())).some((item) => item.id === closed.id)).toBe(false);

    const opened = await ok<AdminPosition>(await update(admin, closed.id, { open: true }));
    expect(opened.publishedAt).not.toBeNull();
    expect((await ok<PositionListItem[]>(await list())).some((item) => item.id === closed.id)).toBe(true);
    const reclosed = await ok<AdminPosition>(await update(admin, closed.id, { open: false }));
    expect(reclosed).toMatchObject({ open: false, publishedAt: opened.publishedAt });
    expect((await errorOf(await byId(closed.id))).status).toBe(404);
    expect((await ok<AdminPosition>(await update(admin, closed.id, { open: true }))).publishedAt).toBe(opened.publishedAt);
  });

  it("edits the fields given", async () => {
    const admin = await adminAccount();
    const position = await createPosition(admin);
    const edited = await ok<AdminPosition>(await update(admin, position.id, { location: "Lisbon", type: "CONTRACT", benefits: ["Flexible hours"], applyUrl: "https://jobs.example.com/apply" }));
    expect(edited).toMatchObject({ title: position.title, location: "Lisbon", type: "CONTRACT", benefits: ["Flexible hours"], requirements: position.requirements, applyUrl: "https://jobs.example.com/apply" });
    expect(await ok<AdminPosition>(await update(admin, position.id, {}))).toMatchObject({ location: "Lisbon" });
  });

  it("validates every field with issues and fieldErrors (400)", async () => {
    const admin = await adminAccount();
    const cases: [Record<string, unknown>, string][] = [
      [{ title: "" }, "title"],
      [{ title: "t".repeat(101) }, "title"],
      [{ department: undefined }, "department"],
      [{ location: "l".repeat(101) }, "location"],
      [{ type: "FREELANCE" }, "type"],
      [{ type: undefined }, "type"],
      [{ description: "d".repeat(2001) }, "description"],
      [{ requirements: "TypeScript" }, "requirements"],
      [{ requirements: Array.from({ length: 21 }, (_, i) => `r${i}`) }, "requirements"],
      [{ benefits: ["b".repeat(501)] }, "benefits.0"],
      [{ benefits: [""] }, "benefits.0"],
      [{ applyUrl: undefined }, "applyUrl"],
      [{ applyUrl: "http://jobs.example.com" }, "applyUrl"],
      [{ applyUrl: "javascript:alert(1)" }, "applyUrl"],
      [{ applyUrl: "JavaScript:alert(1)" }, "applyUrl"],
      [{ applyUrl: "data:text/html,<script>alert(1)</script>" }, "applyUrl"],
      [{ applyUrl: "mailto:not-an-address" }, "applyUrl"],
      [{ applyUrl: "https://user:pass@jobs.example.com" }, "applyUrl"],
      [{ applyUrl: "/careers/apply" }, "applyUrl"],
      [{ open: "yes" }, "open"],
    ];
    for (const [overrides, field] of cases) {
      const error = await errorOf(await create(admin, positionBody(overrides)));
      expect(error, JSON.stringify(overrides).slice(0, 80)).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
      expect(Object.keys((error.details as { fieldErrors: Record<string, string[]> }).fieldErrors), JSON.stringify(overrides).slice(0, 80)).toContain(field);
    }
    const position = await createPosition(admin);
    expect(await errorOf(await update(admin, position.id, { applyUrl: "ftp://jobs.example.com" }))).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    expect(await errorOf(await update(admin, position.id, { type: "full_time" }))).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
  });

  it("role rules: no credential 401, a USER 403, ADMIN and SUPER_ADMIN allowed", async () => {
    const user = await registerAccount();
    const admin = await adminAccount();
    const superAdmin = await registerAccount();
    await setRole(superAdmin.id, "SUPER_ADMIN");
    const position = await createPosition(admin);
    expect((await errorOf(await create(null, positionBody()))).status).toBe(401);
    expect(await errorOf(await create(user, positionBody()))).toMatchObject({ status: 403, code: "FORBIDDEN" });
    expect((await errorOf(await update(null, position.id, { title: "x" }))).status).toBe(401);
    expect((await errorOf(await update(user, position.id, { title: "x" }))).status).toBe(403);
    expect((await errorOf(await remove(null, position.id))).status).toBe(401);
    expect((await errorOf(await remove(user, position.id))).status).toBe(403);
    expect((await errorOf(await adminList(null))).status).toBe(401);
    expect((await errorOf(await adminList(user))).status).toBe(403);

    const bySuper = await createPosition(superAdmin);
    expect((await ok<AdminPosition>(await update(superAdmin, position.id, { location: "Porto" }))).location).toBe("Porto");
    expect((await adminList(superAdmin)).status).toBe(200);
    expect((await remove(superAdmin, bySuper.id)).status).toBe(200);
  });

  it("deletes a position; unknown and malformed ids are 404 everywhere", async () => {
    const admin = await adminAccount();
    const position = await createPosition(admin);
    expect(await ok<{ message: string }>(await remove(admin, position.id))).toEqual({ message: "The position was deleted." });
    expect((await errorOf(await byId(position.id))).status).toBe(404);
    for (const id of [position.id, MISSING_ID, "not-a-uuid", "12345"]) {
      expect(await errorOf(await byId(id)), id).toMatchObject({ status: 404, code: "NOT_FOUND" });
      expect((await errorOf(await update(admin, id, { title: "x" }))).status, id).toBe(404);
      expect((await errorOf(await remove(admin, id))).status, id).toBe(404);
    }
  });

  it("writes an audit entry per write with the position before and after", async () => {
    const admin = await adminAccount();
    const position = await createPosition(admin);
    await update(admin, position.id, { open: false });
    await remove(admin, position.id);
    const entries = await getDatabase()
      .db.select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.entityType, "career_position"), eq(schema.auditLog.entityId, position.id)))
      .orderBy(asc(schema.auditLog.createdAt));
    expect(entries.map((entry) => entry.action)).toEqual(["career_position.create", "career_position.update", "career_position.delete"]);
    for (const entry of entries) expect(entry).toMatchObject({ actorId: admin.id, actorEmail: admin.email });
    expect(entries[0]).toMatchObject({ before: null, after: { id: position.id, open: true, title: position.title } });
    expect(entries[1]).toMatchObject({ before: { open: true }, after: { open: false } });
    expect(entries[2]).toMatchObject({ before: { open: false }, after: null });
  });

  it("the admin list holds open and closed positions, paginated", async () => {
    const admin = await adminAccount();
    const open = await createPosition(admin);
    const closed = await createPosition(admin, { open: false });
    const body = await json<{ data: AdminPosition[]; meta: { total: number; page: number } }>(await adminList(admin, "?limit=100"));
    expect(body.data.find((item) => item.id === open.id)).toMatchObject({ open: true });
    expect(body.data.find((item) => item.id === closed.id)).toMatchObject({ open: false });
    expect(body.meta).toMatchObject({ total: body.data.length, page: 1 });
    expect((await errorOf(await adminList(admin, "?limit=101"))).status).toBe(400);
  });
});

describe("the careers listing (public)", () => {
  it("lists open positions only, not paginated, by department then title", async () => {
    const admin = await adminAccount();
    const design = await createPosition(admin, { department: "Design", title: "Product Designer" });
    const engineering = await createPosition(admin, { department: "Aardvark Engineering", title: "Zebra engineer" });
    const closed = await createPosition(admin, { department: "Design", open: false });
    const response = await list();
    expect(response.status).toBe(200);
    const body = await json<{ data: PositionListItem[]; meta?: unknown }>(response);
    expect(body).not.toHaveProperty("meta");
    const ids = body.data.map((item) => item.id);
    expect(ids).not.toContain(closed.id);
    expect(ids.indexOf(engineering.id)).toBeLessThan(ids.indexOf(design.id));
    expect(Object.keys(body.data.find((item) => item.id === design.id)!).sort()).toEqual(["department", "description", "id", "location", "publishedAt", "title", "type"]);
  });
});
