import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { getDatabase, schema } from "@/db/client";
import { GET as foundReportRoute } from "@/app/api/v1/found-reports/[id]/route";
import { GET as foundPhotoRoute } from "@/app/api/v1/found-reports/[id]/photo/route";
import { GET as listFoundRoute } from "@/app/api/v1/organisations/found/route";
import { GET as orgAlertsRoute } from "@/app/api/v1/organisations/alerts/route";
import { POST as reportRoute } from "@/app/api/v1/reports/route";
import { POST as adminActionRoute } from "@/app/api/v1/admin/reports/[id]/action/route";
import { GET as publicLostRoute } from "@/app/api/v1/lost/[alertId]/route";
import { GET as exportRoute } from "@/app/api/v1/auth/me/export/route";
import { fieldMatches } from "@/lib/services/organisations";
import { bearer, registerAccount, setRole, type TestAccount } from "../support/auth";
import { apiRequest, call, json, nextTestIp } from "../support/http";
import { fileFound, filed, foundBody, north, notificationsOf, testAlert, testCentre, testOrganisation } from "../support/organisations";
import { forceTagStatus } from "../support/tags";

const db = () => getDatabase().db;
const MISSING_ID = "00000000-0000-4000-8000-000000000000";

type ErrorBody = { success: false; error: { code: string; message: string; details?: { fieldErrors?: Record<string, string[]> } } };
type FoundReport = {
  id: string;
  species: string;
  breed: string | null;
  colour: string | null;
  photoUrl: string | null;
  latitude: number;
  longitude: number;
  foundAt: string;
  note: string;
  removed: boolean;
  organisation: { id: string; name: string; kind: string; phone: string; address: string; website: string | null };
  matches: { alertId: string; petName: string }[];
};

const auth = (account: TestAccount) => bearer(account.accessToken);

async function expectError(response: Response, status: number, code: string): Promise<ErrorBody["error"]> {
  expect(response.status).toBe(status);
  const body = await json<ErrorBody>(response);
  expect(body).toMatchObject({ success: false, error: { code } });
  return body.error;
}

function getReport(account: TestAccount, id: string) {
  return call(foundReportRoute, apiRequest(`/api/v1/found-reports/${id}`, { headers: auth(account) }), { id });
}
function getPhoto(account: TestAccount, id: string) {
  return call(foundPhotoRoute, apiRequest(`/api/v1/found-reports/${id}/photo`, { headers: auth(account) }), { id });
}
function reportAbuse(account: TestAccount, body: unknown) {
  return call(reportRoute, apiRequest("/api/v1/reports", { method: "POST", headers: auth(account), body, ip: nextTestIp() }));
}
function adminAction(account: TestAccount, id: string, body: unknown) {
  return call(adminActionRoute, apiRequest(`/api/v1/admin/reports/${id}/action`, { method: "POST", headers: auth(account), body, ip: nextTestIp() }), { id });
}

async function admin(): Promise<TestAccount> {
  const account = await registerAccount();
  await setRole(account.id, "ADMIN");
  return account;
}

const dataUrl = (bytes: Buffer, type = "image/jpeg") => `data:${type};base64,${bytes.toString("base64")}`;

async function jpegWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 30, channels: 3, background: "#c93" } })
    .jpeg()
    .withExif({
      IFD0: { Make: "TestCam", Copyright: "Finder" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 2400/100", GPSLongitudeRef: "E", GPSLongitude: "2/1 21/1 300/100" },
    })
    .toBuffer();
}

describe("matching words (pure)", () => {
  it("shares a word of 3 letters or more, ignoring case and filler; an empty side does not exclude", () => {
    expect(fieldMatches("white", "Brown and white")).toBe(true);
    expect(fieldMatches("WHITE", "brown/white")).toBe(true);
    expect(fieldMatches("black", "Brown and white")).toBe(false);
    expect(fieldMatches("brown mix", "black mix")).toBe(false);
    expect(fieldMatches("dark grey", "dark brown")).toBe(false);
    expect(fieldMatches("Labrador mix", "labrador")).toBe(true);
    expect(fieldMatches(null, "anything")).toBe(true);
    expect(fieldMatches("black", null)).toBe(true);
    expect(fieldMatches("black", "")).toBe(true);
    expect(fieldMatches("and", "brown")).toBe(true);
  });
});

describe("POST /api/v1/organisations/found: matching and notifications", () => {
  it("matches open alerts of the species within 20 km whose colour and breed share a word, and tells each owner once", async () => {
    const at = testCentre();
    const { account } = await testOrganisation(at, { name: "Riverside Animal Shelter" });
    const near = await testAlert({ at: north(at, 19.9), color: "Brown and white", breed: "Labrador", petName: "Bella" });
    const tooFar = await testAlert({ at: north(at, 21), color: "white" });
    const otherSpecies = await testAlert({ at: north(at, 1), species: "CAT", color: "white" });
    const otherColour = await testAlert({ at: north(at, 2), color: "black" });
    const noColour = await testAlert({ at: north(at, 3), color: null, breed: null, petName: "Nameless" });
    const otherBreed = await testAlert({ at: north(at, 4), color: "white", breed: "Poodle" });
    const closed = await testAlert({ at: north(at, 5), color: "white" });
    await forceTagStatus(closed.tagId, "FOUND");
    const removed = await testAlert({ at: north(at, 6), color: "white" });
    await db().update(schema.lostPetAlerts).set({ removedAt: new Date() }).where(eq(schema.lostPetAlerts.id, removed.alertId));
    // The same owner alerted twice (two open alerts, both matching): one notification, of the nearer.
    const twiceFar = await testAlert({ at: north(at, 9), color: "white" });
    const twiceNear = await testAlert({ owner: twiceFar.owner, at: north(at, 8), color: "white" });

    const response = await fileFound(account, foundBody(at, { colour: "white", breed: "labrador retriever" }));
    expect(response.status).toBe(201);
    const { data } = await json<{ data: { report: FoundReport; matches: { alertId: string; petName: string; distanceText: string; url: string }[] } }>(response);
    const matched = data.matches.map((match) => match.alertId);
    expect(matched).toEqual([noColour.alertId, twiceNear.alertId, twiceFar.alertId, near.alertId]);
    expect(data.report.matches.map((match) => match.alertId)).toEqual(matched);
    expect(data.matches[3]).toMatchObject({ petName: "Bella", distanceText: "about 19.9 km", url: `/lost/${near.alertId}` });
    expect(data.report).toMatchObject({ species: "DOG", breed: "labrador retriever", colour: "white", photoUrl: null, latitude: at.latitude, longitude: at.longitude, removed: false });
    expect(data.report.organisation).toMatchObject({ name: "Riverside Animal Shelter", kind: "SHELTER", phone: "+442079460958" });

    const rows = await db().select().from(schema.foundReportMatches).where(eq(schema.foundReportMatches.reportId, data.report.id));
    expect(rows.map((row) => row.alertId).sort()).toEqual([...matched].sort());

    for (const alert of [near, noColour]) {
      const notes = await notificationsOf(alert.owner.id);
      expect(notes).toHaveLength(1);
      expect(notes[0]!.data).toEqual({ foundReportId: data.report.id, alertId: alert.alertId, organisationName: "Riverside Animal Shelter" });
      expect(notes[0]!.title).toMatch(/^A dog found nearby may be /);
    }
    const twice = await notificationsOf(twiceFar.owner.id);
    expect(twice).toHaveLength(1);
    expect(twice[0]!.data).toMatchObject({ alertId: twiceNear.alertId });
    for (const alert of [tooFar, otherSpecies, otherColour, otherBreed, closed, removed]) {
      expect(await notificationsOf(alert.owner.id)).toHaveLength(0);
    }
    expect(await notificationsOf(account.id)).toHaveLength(0);
  });

  it("without colour or breed, matches every open alert of the species nearby", async () => {
    const at = testCentre();
    const { account } = await testOrganisation(at);
    const black = await testAlert({ at: north(at, 1), color: "black", species: "RABBIT" });
    const white = await testAlert({ at: north(at, 2), color: "white", species: "RABBIT" });
    const result = await filed(account, foundBody(at, { species: "RABBIT", colour: "", breed: null }));
    expect(result.matches.map((match) => match.alertId)).toEqual([black.alertId, white.alertId]);
  });

  it("words the notification: the organisation, what it found and how far from where the pet was last seen", async () => {
    const at = testCentre();
    const { account } = await testOrganisation(at, { name: "Harbour Vets" });
    const alert = await testAlert({ at: north(at, 2), species: "OTHER", color: "orange", petName: "Nemo" });
    await filed(account, foundBody(at, { species: "OTHER", colour: "Orange" }));
    const [note] = await notificationsOf(alert.owner.id);
    expect(note!.title).toBe("An animal found nearby may be Nemo");
    expect(note!.body).toBe("Harbour Vets, an animal shelter, found an Orange animal about 2 km from where Nemo was last seen. See the report and contact them.");
  });

  it("ten identical requests with one Idempotency-Key file one report and notify once", async () => {
    const at = testCentre();
    const { account } = await testOrganisation(at);
    const alert = await testAlert({ at: north(at, 1) });
    const key = `found-${Date.now()}`;
    const body = foundBody(at);
    const responses = await Promise.all(Array.from({ length: 10 }, () => fileFound(account, body, { "Idempotency-Key": key })));
    expect(responses.every((response) => response.status === 201 || response.status === 409)).toBe(true);
    const organisation = await db().select().from(schema.organisations).where(eq(schema.organisations.userId, account.id));
    expect(await db().select().from(schema.foundReports).where(eq(schema.foundReports.organisationId, organisation[0]!.id))).toHaveLength(1);
    expect(await notificationsOf(alert.owner.id)).toHaveLength(1);
  });

  it("validates the body (400) and refuses unverified organisations and accounts without one (403)", async () => {
    const at = testCentre();
    const { account } = await testOrganisation(at);
    const cases: [Record<string, unknown>, string][] = [
      [{ species: "DRAGON" }, "species"],
      [{ species: undefined }, "species"],
      [{ latitude: 100 }, "latitude"],
      [{ foundAt: new Date(Date.now() + 3_600_000).toISOString() }, "foundAt"],
      [{ foundAt: "yesterday" }, "foundAt"],
      [{ note: "" }, "note"],
      [{ note: "x".repeat(1001) }, "note"],
      [{ colour: "c".repeat(101) }, "colour"],
      [{ photo: "https://example.org/cat.jpg" }, "photo"],
      [{ photo: "data:image/svg+xml;base64,PHN2Zz4=" }, "photo"],
      [{ photo: dataUrl(Buffer.from("not an image at all")) }, "photo"],
      [{ photo: "data:image/jpeg;base64,@@@" }, "photo"],
    ];
    for (const [override, field] of cases) {
      const error = await expectError(await fileFound(account, foundBody(at, override)), 400, "VALIDATION_ERROR");
      expect(Object.keys(error.details?.fieldErrors ?? {}), JSON.stringify(override).slice(0, 80)).toContain(field);
    }
    await expectError(await fileFound(account, foundBody(at, { note: "a\u0007b" })), 400, "VALIDATION_ERROR");

    const unverified = await testOrganisation(testCentre(), { verified: false });
    await expectError(await fileFound(unverified.account, foundBody(at)), 403, "FORBIDDEN");
    await expectError(await fileFound(await registerAccount(), foundBody(at)), 403, "FORBIDDEN");
  });
});

describe("reading a found report", () => {
  it("is readable by the organisation, the matched owner (rounded place, own matches) and admins; anyone else gets 404", async () => {
    const at = testCentre();
    const { account } = await testOrganisation(at);
    const mine = await testAlert({ at: north(at, 1), petName: "Bella" });
    const theirs = await testAlert({ at: north(at, 2), petName: "Rex" });
    const found = { latitude: at.latitude + 0.00123, longitude: at.longitude + 0.00234 };
    const result = await filed(account, foundBody(found, { photo: dataUrl(await jpegWithGps()) }));
    const id = result.report.id;
    expect(result.report.photoUrl).toBe(`/api/v1/found-reports/${id}/photo`);

    const asOrganisation = await json<{ data: FoundReport }>(await getReport(account, id));
    expect(asOrganisation.data).toMatchObject({ latitude: found.latitude, longitude: found.longitude });
    expect(asOrganisation.data.matches.map((match) => match.alertId).sort()).toEqual([mine.alertId, theirs.alertId].sort());

    const asOwner = await getReport(mine.owner, id);
    expect(asOwner.status).toBe(200);
    const ownerView = (await json<{ data: FoundReport }>(asOwner)).data;
    expect(ownerView.matches.map((match) => match.alertId)).toEqual([mine.alertId]);
    expect(ownerView.latitude).not.toBe(found.latitude);
    expect(Math.abs(ownerView.latitude / 0.005 - Math.round(ownerView.latitude / 0.005))).toBeLessThan(1e-6);
    expect(ownerView.organisation).toMatchObject({ name: "Riverside Animal Shelter", phone: "+442079460958", address: "12 Mill Lane, London SE1 7PB", website: "https://riverside-shelter.example.org" });

    const moderator = await admin();
    expect((await getReport(moderator, id)).status).toBe(200);

    const stranger = await registerAccount();
    await expectError(await getReport(stranger, id), 404, "NOT_FOUND");
    await expectError(await getPhoto(stranger, id), 404, "NOT_FOUND");
    await expectError(await getReport(stranger, MISSING_ID), 404, "NOT_FOUND");
    await expectError(await getReport(stranger, "not-an-id"), 404, "NOT_FOUND");
    expect((await call(foundReportRoute, apiRequest(`/api/v1/found-reports/${id}`), { id })).status).toBe(401);

    // The photo: to the same readers, re-encoded without EXIF or GPS.
    for (const reader of [account, mine.owner, moderator]) {
      const photo = await getPhoto(reader, id);
      expect(photo.status).toBe(200);
      expect(photo.headers.get("content-type")).toBe("image/jpeg");
      expect(photo.headers.get("cache-control")).toContain("private");
      const bytes = Buffer.from(await photo.arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.width).toBe(40);
    }
    const [stored] = await db().select().from(schema.foundReportPhotos).where(eq(schema.foundReportPhotos.reportId, id));
    expect((await sharp(stored!.data).metadata()).exif).toBeUndefined();

    const noPhoto = await filed(account, foundBody(at, { species: "BIRD" }));
    await expectError(await getPhoto(account, noPhoto.report.id), 404, "NOT_FOUND");

    // The organisation's list has both, newest first, with their matches.
    const list = await json<{ data: FoundReport[]; meta: { total: number } }>(await call(listFoundRoute, apiRequest("/api/v1/organisations/found", { headers: auth(account) })));
    expect(list.data.map((report) => report.id)).toEqual([noPhoto.report.id, id]);
    expect(list.data[1]!.matches).toHaveLength(2);
  });
});

describe("reports of alerts and found reports", () => {
  it("reports an alert (its owner the target), REMOVE_ALERT hides it everywhere; a removed or unknown alert cannot be reported (404)", async () => {
    const at = testCentre();
    const { account: organisation } = await testOrganisation(at);
    const alert = await testAlert({ at: north(at, 1), petName: "Bella" });
    const reporter = await registerAccount();

    await expectError(await reportAbuse(reporter, { type: "SCAM", description: "Fake alert.", alertId: MISSING_ID }), 404, "NOT_FOUND");
    const created = await reportAbuse(reporter, { type: "SCAM", description: "Fake alert asking for money.", alertId: alert.alertId });
    expect(created.status).toBe(201);
    const reportId = (await json<{ data: { id: string } }>(created)).data.id;
    const [row] = await db().select().from(schema.reports).where(eq(schema.reports.id, reportId));
    expect(row).toMatchObject({ alertId: alert.alertId, targetUserId: alert.owner.id });

    const moderator = await admin();
    const acted = await adminAction(moderator, reportId, { action: "REMOVE_ALERT", note: "Scam." });
    expect(acted.status).toBe(200);
    expect((await json<{ data: { alert: { removed: boolean } } }>(acted)).data.alert).toMatchObject({ id: alert.alertId, petName: "Bella", removed: true });
    const [alertRow] = await db().select().from(schema.lostPetAlerts).where(eq(schema.lostPetAlerts.id, alert.alertId));
    expect(alertRow!.removedAt).not.toBeNull();
    expect(alertRow!.removedById).toBe(moderator.id);

    const publicView = await call(publicLostRoute, apiRequest(`/api/v1/lost/${alert.alertId}`), { alertId: alert.alertId });
    await expectError(publicView, 404, "NOT_FOUND");
    const orgList = await json<{ data: { alertId: string }[] }>(await call(orgAlertsRoute, apiRequest("/api/v1/organisations/alerts", { headers: auth(organisation) })));
    expect(orgList.data.map((item) => item.alertId)).not.toContain(alert.alertId);
    // Nor does a found report match it any more.
    expect((await filed(organisation, foundBody(at))).matches).toEqual([]);

    await expectError(await reportAbuse(reporter, { type: "SCAM", description: "Again.", alertId: alert.alertId }), 404, "NOT_FOUND");
  });

  it("reports a found report (the organisation's account the target); REMOVE_FOUND_REPORT hides it from the owners it matched", async () => {
    const at = testCentre();
    const { account: organisation } = await testOrganisation(at);
    const alert = await testAlert({ at: north(at, 1) });
    const result = await filed(organisation, foundBody(at));
    const id = result.report.id;

    await expectError(await reportAbuse(alert.owner, { type: "SPAM", description: "Not a real report.", foundReportId: MISSING_ID }), 404, "NOT_FOUND");
    await expectError(await reportAbuse(alert.owner, { type: "SPAM", description: "Not a real report.", foundReportId: "nope" }), 400, "VALIDATION_ERROR");
    const created = await reportAbuse(alert.owner, { type: "SPAM", description: "Not a real report.", foundReportId: id });
    expect(created.status).toBe(201);
    const reportId = (await json<{ data: { id: string } }>(created)).data.id;
    const [row] = await db().select().from(schema.reports).where(eq(schema.reports.id, reportId));
    expect(row).toMatchObject({ foundReportId: id, targetUserId: organisation.id });

    const moderator = await admin();
    const acted = await adminAction(moderator, reportId, { action: "REMOVE_FOUND_REPORT" });
    expect(acted.status).toBe(200);
    expect((await json<{ data: { foundReport: { removed: boolean; organisationName: string } } }>(acted)).data.foundReport).toMatchObject({ id, removed: true, organisationName: "Riverside Animal Shelter" });

    await expectError(await getReport(alert.owner, id), 404, "NOT_FOUND");
    await expectError(await getPhoto(alert.owner, id), 404, "NOT_FOUND");
    const asOrganisation = await json<{ data: FoundReport }>(await getReport(organisation, id));
    expect(asOrganisation.data.removed).toBe(true);
    expect((await getReport(moderator, id)).status).toBe(200);
    await expectError(await reportAbuse(alert.owner, { type: "SPAM", description: "Again.", foundReportId: id }), 404, "NOT_FOUND");
  });
});

describe("the data export", () => {
  it("carries the account's organisation and its found reports (with how many alerts each matched), not the photo", async () => {
    const at = testCentre();
    const { account, organisationId } = await testOrganisation(at);
    await testAlert({ at: north(at, 1) });
    const result = await filed(account, foundBody(at, { colour: "brown" }));
    const response = await call(exportRoute, apiRequest("/api/v1/auth/me/export", { headers: auth(account), ip: nextTestIp() }));
    expect(response.status).toBe(200);
    const { data } = await json<{ data: { organisation: unknown[]; foundReports: unknown[] } }>(response);
    expect(data.organisation).toEqual([expect.objectContaining({ id: organisationId, name: "Riverside Animal Shelter", phone: "+442079460958", verifiedAt: expect.any(String) })]);
    expect(data.foundReports).toEqual([expect.objectContaining({ id: result.report.id, species: "DOG", colour: "brown", matchedAlerts: 1, removedAt: null })]);
    expect(JSON.stringify(data.foundReports)).not.toContain("base64");
  });
});
