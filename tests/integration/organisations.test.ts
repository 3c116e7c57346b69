import { describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { JOBS_SCHEMA } from "@/lib/jobs";
import { GET as meRoute, PATCH as patchMeRoute } from "@/app/api/v1/organisations/me/route";
import { GET as alertsRoute } from "@/app/api/v1/organisations/alerts/route";
import { GET as listFoundRoute } from "@/app/api/v1/organisations/found/route";
import { GET as adminListRoute } from "@/app/api/v1/admin/organisations/route";
import { PATCH as adminPatchRoute } from "@/app/api/v1/admin/organisations/[id]/route";
import { bearer, registerAccount, setRole, type TestAccount } from "../support/auth";
import { apiRequest, call, json, nextTestIp } from "../support/http";
import { apply, fileFound, foundBody, north, testAlert, testCentre, testOrganisation, validApplication } from "../support/organisations";
import { forceTagStatus } from "../support/tags";

const db = () => getDatabase().db;
const MISSING_ID = "00000000-0000-4000-8000-000000000000";

type ErrorBody = { success: false; error: { code: string; message: string; details?: { fieldErrors?: Record<string, string[]> } } };
type Organisation = { id: string; name: string; kind: string; phone: string; website: string | null; watchRadiusKm: number; verified: boolean; verifiedAt: string | null };
type OrganisationAlert = {
  alertId: string;
  petName: string;
  species: string;
  breed: string | null;
  color: string | null;
  photoUrl: string | null;
  lastSeen: { latitude: number; longitude: number };
  lastSeenAt: string;
  createdAt: string;
  distanceText: string;
  url: string;
};

const auth = (account: TestAccount) => bearer(account.accessToken);

function me(account: TestAccount) {
  return call(meRoute, apiRequest("/api/v1/organisations/me", { headers: auth(account) }));
}
function patchMe(account: TestAccount, body: unknown) {
  return call(patchMeRoute, apiRequest("/api/v1/organisations/me", { method: "PATCH", headers: auth(account), body, ip: nextTestIp() }));
}
function orgAlerts(account: TestAccount, query = "") {
  return call(alertsRoute, apiRequest(`/api/v1/organisations/alerts${query}`, { headers: auth(account) }));
}
function adminList(account: TestAccount, query = "") {
  return call(adminListRoute, apiRequest(`/api/v1/admin/organisations${query}`, { headers: auth(account) }));
}
function adminPatch(account: TestAccount, id: string, body: unknown) {
  return call(adminPatchRoute, apiRequest(`/api/v1/admin/organisations/${id}`, { method: "PATCH", headers: auth(account), body, ip: nextTestIp() }), { id });
}

async function expectError(response: Response, status: number, code: string): Promise<ErrorBody["error"]> {
  expect(response.status).toBe(status);
  const body = await json<ErrorBody>(response);
  expect(body).toMatchObject({ success: false, error: { code } });
  return body.error;
}

async function admin(): Promise<TestAccount> {
  const account = await registerAccount();
  await setRole(account.id, "ADMIN");
  return account;
}

async function auditEntries(organisationId: string) {
  return db().select().from(schema.auditLog).where(and(eq(schema.auditLog.entityType, "organisation"), eq(schema.auditLog.entityId, organisationId)));
}

async function emailJobs(to: string): Promise<string[]> {
  const result: unknown = await db().execute(
    sql`select data->>'template' as template from ${sql.raw(JOBS_SCHEMA)}.job where name = 'email.send' and data->>'to' = ${to}
        union all
        select data->>'template' as template from ${sql.raw(JOBS_SCHEMA)}.archive where name = 'email.send' and data->>'to' = ${to}`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { template: string }[];
  return rows.map((row) => row.template).sort();
}

describe("POST /api/v1/organisations and /organisations/me", () => {
  it("registers an organisation unverified (201), shows it (GET me) and refuses a second for the account (409)", async () => {
    const account = await registerAccount();
    const at = testCentre();
    const response = await apply(account, validApplication(at));
    expect(response.status).toBe(201);
    const { data } = await json<{ data: Organisation }>(response);
    expect(data).toEqual({
      id: expect.any(String),
      name: "Riverside Animal Shelter",
      kind: "SHELTER",
      address: "12 Mill Lane, London SE1 7PB",
      latitude: at.latitude,
      longitude: at.longitude,
      phone: "+442079460958",
      website: "https://riverside-shelter.example.org",
      watchRadiusKm: 25,
      verified: false,
      verifiedAt: null,
      createdAt: expect.any(String),
    });
    const mine = await me(account);
    expect(mine.status).toBe(200);
    expect((await json<{ data: Organisation }>(mine)).data).toEqual(data);

    const again = await apply(account, validApplication(at, { name: "Another one" }));
    await expectError(again, 409, "CONFLICT");
  });

  it("creates exactly one organisation when ten applications for one account arrive at once", async () => {
    const account = await registerAccount();
    const at = testCentre();
    const responses = await Promise.all(Array.from({ length: 10 }, () => apply(account, validApplication(at))));
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    expect(await db().select().from(schema.organisations).where(eq(schema.organisations.userId, account.id))).toHaveLength(1);
  });

  it("answers 400 with the field for bad input, and 404 on GET me without an organisation", async () => {
    const account = await registerAccount();
    const at = testCentre();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: undefined }, "name"],
      [{ name: "   " }, "name"],
      [{ name: "x".repeat(101) }, "name"],
      [{ kind: "ZOO" }, "kind"],
      [{ address: "" }, "address"],
      [{ latitude: 91 }, "latitude"],
      [{ latitude: "51.5" }, "latitude"],
      [{ longitude: -181 }, "longitude"],
      [{ phone: "12345" }, "phone"],
      [{ phone: "call us" }, "phone"],
      [{ phone: undefined }, "phone"],
      [{ website: "javascript:alert(1)" }, "website"],
      [{ website: "ftp://files.example.org" }, "website"],
      [{ website: "not a url" }, "website"],
      [{ website: "https://user:pass@example.org" }, "website"],
    ];
    for (const [override, field] of cases) {
      const error = await expectError(await apply(account, validApplication(at, override)), 400, "VALIDATION_ERROR");
      expect(Object.keys(error.details?.fieldErrors ?? {}), JSON.stringify(override)).toContain(field);
    }
    await expectError(await me(account), 404, "NOT_FOUND");
    // Nothing was created by the refused ones.
    expect(await db().select().from(schema.organisations).where(eq(schema.organisations.userId, account.id))).toHaveLength(0);
  });

  it("keeps hostile text as text and refuses control characters", async () => {
    const account = await registerAccount();
    const at = testCentre();
    await expectError(await apply(account, validApplication(at, { name: "Evil\u0000Shelter" })), 400, "VALIDATION_ERROR");
    const hostile = "<script>alert(1)</script>' OR 1=1 --";
    const response = await apply(account, validApplication(at, { name: hostile, address: hostile }));
    expect(response.status).toBe(201);
    expect((await json<{ data: Organisation }>(response)).data.name).toBe(hostile);
  });

  it("PATCH me changes the watch radius (1–100), phone and website; name and place stay as verified", async () => {
    const { account } = await testOrganisation(testCentre(), { verified: false });
    for (const body of [{ watchRadiusKm: 0.5 }, { watchRadiusKm: 101 }, { watchRadiusKm: "ten" }, { phone: "000" }, { website: "data:text/html,hi" }, {}]) {
      await expectError(await patchMe(account, body), 400, "VALIDATION_ERROR");
    }
    const response = await patchMe(account, { watchRadiusKm: 42.5, phone: "+1 415 555 2671", website: null, name: "Ignored" });
    expect(response.status).toBe(200);
    const { data } = await json<{ data: Organisation }>(response);
    expect(data).toMatchObject({ watchRadiusKm: 42.5, phone: "+14155552671", website: null, name: "Riverside Animal Shelter" });

    const stranger = await registerAccount();
    await expectError(await patchMe(stranger, { watchRadiusKm: 10 }), 404, "NOT_FOUND");
  });
});

describe("verification by an admin", () => {
  it("lists the waiting ones for admins only, verifies with an audit entry and an e-mail, and withdraws it", async () => {
    const { account, organisationId } = await testOrganisation(testCentre(), { verified: false, name: "Verify Me Shelter" });
    const moderator = await admin();

    await expectError(await adminList(account), 403, "FORBIDDEN");
    await expectError(await adminPatch(account, organisationId, { verified: true }), 403, "FORBIDDEN");

    const pending = await json<{ data: { id: string; userEmail: string; verified: boolean }[] }>(await adminList(moderator, "?verified=false&limit=100"));
    expect(pending.data.find((entry) => entry.id === organisationId)).toMatchObject({ userEmail: account.email, verified: false });
    await expectError(await adminList(moderator, "?verified=maybe"), 400, "VALIDATION_ERROR");

    const verified = await adminPatch(moderator, organisationId, { verified: true });
    expect(verified.status).toBe(200);
    expect((await json<{ data: { verified: boolean; verifiedById: string } }>(verified)).data).toMatchObject({ verified: true, verifiedById: moderator.id });
    expect((await json<{ data: Organisation }>(await me(account))).data.verified).toBe(true);
    const entries = await auditEntries(organisationId);
    expect(entries.map((entry) => entry.action)).toEqual(["organisation.verify"]);
    expect(entries[0]).toMatchObject({ actorId: moderator.id, after: expect.objectContaining({ verifiedById: moderator.id }) });
    expect(await emailJobs(account.email)).toContain("organisations.verified");

    const verifiedList = await json<{ data: { id: string }[] }>(await adminList(moderator, "?verified=true&limit=100"));
    expect(verifiedList.data.map((entry) => entry.id)).toContain(organisationId);

    const withdrawn = await adminPatch(moderator, organisationId, { verified: false });
    expect((await json<{ data: { verified: boolean } }>(withdrawn)).data.verified).toBe(false);
    expect((await auditEntries(organisationId)).map((entry) => entry.action).sort()).toEqual(["organisation.unverify", "organisation.verify"]);
    await expectError(await orgAlerts(account), 403, "FORBIDDEN");

    await expectError(await adminPatch(moderator, MISSING_ID, { verified: true }), 404, "NOT_FOUND");
    await expectError(await adminPatch(moderator, organisationId, { verified: "yes" }), 400, "VALIDATION_ERROR");
  });

  it("ten identical verifications at once verify once: one audit entry, one e-mail", async () => {
    const { account, organisationId } = await testOrganisation(testCentre(), { verified: false });
    const moderator = await admin();
    const responses = await Promise.all(Array.from({ length: 10 }, () => adminPatch(moderator, organisationId, { verified: true })));
    expect(responses.every((response) => response.status === 200)).toBe(true);
    expect(await auditEntries(organisationId)).toHaveLength(1);
    expect((await emailJobs(account.email)).filter((template) => template.startsWith("organisations."))).toEqual(["organisations.verified"]);
  });
});

describe("GET /api/v1/organisations/alerts", () => {
  it("is 403 before verification and without an organisation", async () => {
    const { account } = await testOrganisation(testCentre(), { verified: false });
    const error = await expectError(await orgAlerts(account), 403, "FORBIDDEN");
    expect(error.message).toMatch(/not verified/);
    await expectError(await orgAlerts(await registerAccount()), 403, "FORBIDDEN");
    await expectError(await fileFound(account, foundBody(testCentre())), 403, "FORBIDDEN");
  });

  it("lists the open alerts within the watch radius, newest first, paginated, with the pet's card and a rounded place", async () => {
    const at = testCentre();
    const { account } = await testOrganisation(at, { watchRadiusKm: 10 });
    const hour = 3_600_000;
    const older = await testAlert({ at: north(at, 5), createdAt: new Date(Date.now() - 3 * hour), petName: "Rex", breed: "Beagle", color: "tan", photo: true });
    const newer = await testAlert({ at: north(at, 8), createdAt: new Date(Date.now() - hour), petName: "Misty", species: "CAT", breed: null, color: null });
    const outside = await testAlert({ at: north(at, 12), createdAt: new Date(Date.now() - 2 * hour) });
    const closed = await testAlert({ at: north(at, 1) });
    await forceTagStatus(closed.tagId, "FOUND");
    const removed = await testAlert({ at: north(at, 2) });
    await db().update(schema.lostPetAlerts).set({ removedAt: new Date() }).where(eq(schema.lostPetAlerts.id, removed.alertId));

    const response = await orgAlerts(account);
    expect(response.status).toBe(200);
    const page = await json<{ data: OrganisationAlert[]; meta: { total: number } }>(response);
    expect(page.data.map((item) => item.alertId)).toEqual([newer.alertId, older.alertId]);
    expect(page.meta.total).toBe(2);
    const rex = page.data[1]!;
    expect(rex).toEqual({
      alertId: older.alertId,
      petName: "Rex",
      species: "DOG",
      breed: "Beagle",
      color: "tan",
      photoUrl: `/api/photos/${older.photoId}`,
      lastSeen: { latitude: expect.any(Number), longitude: expect.any(Number) },
      lastSeenAt: expect.any(String),
      createdAt: expect.any(String),
      distanceText: "about 5 km",
      url: `/lost/${older.alertId}`,
    });
    // Rounded to the public ~500 m grid, never the precise point.
    const precise = north(at, 5);
    expect(Math.abs(rex.lastSeen.latitude - precise.latitude)).toBeLessThanOrEqual(0.0025 + 1e-9);
    const steps = rex.lastSeen.latitude / 0.005;
    expect(Math.abs(steps - Math.round(steps))).toBeLessThan(1e-6);
    expect(page.data[0]).toMatchObject({ petName: "Misty", species: "CAT", photoUrl: null, distanceText: "about 8 km" });

    const second = await json<{ data: OrganisationAlert[]; meta: { total: number; page: number } }>(await orgAlerts(account, "?limit=1&page=2"));
    expect(second.data.map((item) => item.alertId)).toEqual([older.alertId]);
    await expectError(await orgAlerts(account, "?limit=0"), 400, "VALIDATION_ERROR");

    // A wider radius reaches the one 12 km away.
    expect((await patchMe(account, { watchRadiusKm: 15 })).status).toBe(200);
    const wider = await json<{ data: OrganisationAlert[] }>(await orgAlerts(account));
    expect(wider.data.map((item) => item.alertId)).toEqual([newer.alertId, outside.alertId, older.alertId]);
  });

  it("lists the organisation's own found reports (403 without an organisation)", async () => {
    const at = testCentre();
    const { account } = await testOrganisation(at);
    await expectError(await call(listFoundRoute, apiRequest("/api/v1/organisations/found", { headers: auth(await registerAccount()) })), 403, "FORBIDDEN");
    const empty = await call(listFoundRoute, apiRequest("/api/v1/organisations/found", { headers: auth(account) }));
    expect(empty.status).toBe(200);
    expect((await json<{ data: unknown[]; meta: { total: number } }>(empty)).meta.total).toBe(0);
  });
});
