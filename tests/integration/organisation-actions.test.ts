import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { form, mockNextRequestScope, redirectOf } from "../support/next-request-scope";

/**
 * The organisation's and the admin's forms (action.for / rowAction.for over the organisations' contracts):
 * coordinates west of Greenwich, the photo as a file, the found time on the viewer's wall clock, and the
 * admin's Verify button. Only Next's request scope is given (tests/support/next-request-scope.ts).
 */
const request = mockNextRequestScope("192.0.2.47");
const { eq } = await import("drizzle-orm");
const sharp = (await import("sharp")).default;
const { getDatabase, schema } = await import("@/db/client");
const { applyOrganisationAction, fileFoundReportAction, updateOrganisationAction } = await import("@/app/(dashboard)/dashboard/organisation/actions");
const { setVerifiedAction } = await import("@/app/(admin)/admin/organisations/actions");
const { createReportAction } = await import("@/app/(dashboard)/dashboard/account/safety/actions");
const { prepareJobs, stopJobs } = await import("@/lib/jobs");
const { registerAccount, setRole } = await import("../support/auth");
const { nextTestIp } = await import("../support/http");
const { north, notificationsOf, testAlert } = await import("../support/organisations");

type TestAccount = Awaited<ReturnType<typeof registerAccount>>;

beforeAll(async () => {
  await prepareJobs();
});
afterAll(async () => {
  request.cookie = "";
  await stopJobs();
});

async function as<T>(account: TestAccount, run: () => Promise<T>): Promise<T> {
  request.ip = nextTestIp();
  request.cookie = account.cookie;
  try {
    return await run();
  } finally {
    request.cookie = "";
  }
}

const db = () => getDatabase().db;
const MADRID = { latitude: 40.41, longitude: -3.69 };

describe("the organisation's forms", () => {
  it("applies with a negative longitude, keeps the typed values on an error, saves settings, and an admin's Verify button verifies", async () => {
    const shelter = await registerAccount();
    const fields = { name: "Retiro Shelter", kind: "SHELTER", address: "Calle de Alfonso XII 1", latitude: String(MADRID.latitude), longitude: String(MADRID.longitude), phone: "+34 915 30 00 00" };

    const refused = await as(shelter, () => applyOrganisationAction({ status: "idle" }, form({ ...fields, website: "javascript:alert(1)" })));
    expect(refused).toMatchObject({ status: "error", values: { name: "Retiro Shelter", longitude: "-3.69" }, fieldErrors: { website: [expect.stringContaining("http")] } });

    const applied = await as(shelter, () => applyOrganisationAction({ status: "idle" }, form({ ...fields, website: "" })));
    expect(applied).toMatchObject({ status: "success" });
    const [row] = await db().select().from(schema.organisations).where(eq(schema.organisations.userId, shelter.id));
    expect(row).toMatchObject({ latitude: MADRID.latitude, longitude: MADRID.longitude, phone: "+34915300000", website: null, verifiedAt: null });

    const again = await as(shelter, () => applyOrganisationAction({ status: "idle" }, form({ ...fields, website: "" })));
    expect(again).toMatchObject({ status: "error", message: expect.stringContaining("already has an organisation") });

    const saved = await as(shelter, () => updateOrganisationAction({ status: "idle" }, form({ watchRadiusKm: "40", phone: "+34 915 30 00 01", website: "https://retiro.example.org" })));
    expect(saved).toMatchObject({ status: "success", values: { watchRadiusKm: "40", phone: "+34915300001", website: "https://retiro.example.org" } });
    const tooFar = await as(shelter, () => updateOrganisationAction({ status: "idle" }, form({ watchRadiusKm: "500", phone: "+34 915 30 00 01", website: "" })));
    expect(tooFar).toMatchObject({ status: "error", fieldErrors: { watchRadiusKm: [expect.any(String)] } });

    // Before verification the found-report form says why it cannot file.
    const early = await as(shelter, () => fileFoundReportAction({ status: "idle" }, form({ species: "DOG", latitude: "40.4", longitude: "-3.7", foundAt: "2026-01-01T10:00", timeZone: "Europe/Madrid", note: "x" })));
    expect(early).toMatchObject({ status: "error", message: expect.stringContaining("not verified") });

    const admin = await registerAccount();
    await setRole(admin.id, "ADMIN");
    const target = await as(admin, () => redirectOf(setVerifiedAction(form({ organisationId: row!.id, verified: "true", "view-show": "pending", "view-page": "1" }))));
    expect(target).toBe(`/admin/organisations?show=pending&notice=verified#organisation-${row!.id}`);
    const [verified] = await db().select().from(schema.organisations).where(eq(schema.organisations.id, row!.id));
    expect(verified!.verifiedById).toBe(admin.id);
    const withdrawn = await as(admin, () => redirectOf(setVerifiedAction(form({ organisationId: row!.id, verified: "false", "view-show": "verified", "view-page": "1" }))));
    expect(withdrawn).toContain("notice=unverified");
    const missing = await as(admin, () => redirectOf(setVerifiedAction(form({ organisationId: "00000000-0000-4000-8000-000000000000", verified: "true", "view-show": "all", "view-page": "1" }))));
    expect(missing).toContain("notice=missing");
  });

  it("files a found report with a photo file, the time on the viewer's wall clock, and tells the matched owner", async () => {
    const shelter = await registerAccount();
    await as(shelter, () =>
      applyOrganisationAction({ status: "idle" }, form({ name: "Shelter", kind: "VET", address: "1 Street", latitude: "-33.9", longitude: "-70.6", phone: "+1 415 555 2671", website: "" })),
    );
    await db().update(schema.organisations).set({ verifiedAt: new Date() }).where(eq(schema.organisations.userId, shelter.id));
    const place = { latitude: -33.9, longitude: -70.6 };
    const alert = await testAlert({ at: north(place, 2), color: "black and tan" });

    const photo = await sharp({ create: { width: 30, height: 20, channels: 3, background: "#333" } })
      .jpeg()
      .withExif({ IFD0: { Make: "Spy" } })
      .toBuffer();
    const body = form({ species: "DOG", breed: "", colour: "Tan", latitude: String(place.latitude), longitude: String(place.longitude), foundAt: "2026-11-20T09:30", timeZone: "America/Santiago", note: "Found by the river." });
    body.set("photo", new File([new Uint8Array(photo)], "dog.jpg", { type: "image/jpeg" }));

    const badPhoto = form({ species: "DOG", latitude: "-33.9", longitude: "-70.6", foundAt: "2026-11-20T09:30", timeZone: "America/Santiago", note: "Found." });
    badPhoto.set("photo", new File([new TextEncoder().encode("not an image")], "dog.jpg", { type: "image/jpeg" }));
    const refused = await as(shelter, () => fileFoundReportAction({ status: "idle" }, badPhoto));
    expect(refused).toMatchObject({ status: "error", fieldErrors: { photo: [expect.stringContaining("JPEG, PNG or WebP")] } });

    const filed = await as(shelter, () => fileFoundReportAction({ status: "idle" }, body));
    expect(filed).toMatchObject({ status: "success", message: "Your report is filed. It matches 1 lost pet: its owner is told now." });
    const [report] = await db().select().from(schema.foundReports).where(eq(schema.foundReports.note, "Found by the river."));
    // 09:30 in Santiago on 20 November 2026 (UTC−3, summer time) is 12:30 UTC.
    expect(report!.foundAt.toISOString()).toBe("2026-11-20T12:30:00.000Z");
    expect(report).toMatchObject({ latitude: -33.9, longitude: -70.6, color: "Tan", breed: null });
    const [stored] = await db().select().from(schema.foundReportPhotos).where(eq(schema.foundReportPhotos.reportId, report!.id));
    expect((await sharp(stored!.data).metadata()).exif).toBeUndefined();
    expect(await notificationsOf(alert.owner.id)).toHaveLength(1);

    const invalid = await as(shelter, () => fileFoundReportAction({ status: "idle" }, form({ species: "DOG", latitude: "", longitude: "west", foundAt: "soon", timeZone: "UTC", note: "" })));
    expect(invalid).toMatchObject({ status: "error", values: { longitude: "west", foundAt: "soon" } });
    expect(Object.keys((invalid as { fieldErrors?: Record<string, unknown> }).fieldErrors ?? {}).sort()).toEqual(["foundAt", "latitude", "longitude", "note"]);
  });
});

describe("the report form", () => {
  it("reports an alert or a found report named by its link's hidden field", async () => {
    const place = { latitude: 12.3, longitude: -45.6 };
    const alert = await testAlert({ at: place });
    const reporter = await registerAccount();
    const sent = await as(reporter, () => createReportAction({ status: "idle" }, form({ type: "SCAM", description: "Asks for money up front.", alertId: alert.alertId })));
    expect(sent).toMatchObject({ status: "success" });
    const [row] = await db().select().from(schema.reports).where(eq(schema.reports.reporterId, reporter.id));
    expect(row).toMatchObject({ alertId: alert.alertId, targetUserId: alert.owner.id, foundReportId: null });

    const unknown = await as(reporter, () => createReportAction({ status: "idle" }, form({ type: "SPAM", description: "Spam.", foundReportId: "00000000-0000-4000-8000-000000000000" })));
    expect(unknown).toMatchObject({ status: "error", message: expect.stringContaining("not found") });
  });
});
