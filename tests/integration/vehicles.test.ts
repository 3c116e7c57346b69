import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { POST as reportStolenRoute, GET as reportStolenOther } from "@/app/api/v1/vehicles/[tagId]/report-stolen/route";
import { GET as verifyRoute } from "@/app/api/v1/vehicles/verify/[vin]/route";
import { PUT as putVehicleRoute } from "@/app/api/v1/profiles/[tagId]/vehicle/route";
import { PATCH as statusRoute } from "@/app/api/v1/tags/[id]/status/route";
import { GET as adminReportsRoute } from "@/app/api/v1/admin/reports/route";
import { GET as myReportsRoute } from "@/app/api/v1/reports/my/route";
import { POST as clearStolenRoute, GET as clearStolenOther } from "@/app/api/v1/admin/tags/[tagId]/clear-stolen/route";
import { saveTagDetails } from "@/lib/services/profiles";
import { bearer, registerAccount, setRole, type TestAccount } from "../support/auth";
import { apiRequest, call, json, nextTestIp, awayFromWindowEdge } from "../support/http";
import { forceTagStatus, giveTestTag, tagEventsOf, tagRow } from "../support/tags";

const MISSING_ID = "00000000-0000-4000-8000-000000000000";

type ErrorBody = { success: false; error: { code: string; message: string } };
type StolenBody = { data: { tagId: string; status: string; policeReportRef: string | null; reportedAt: string; message: string } };
type VinBody = { data: { vin: string; stolen: boolean; tagged: boolean; message: string; reportedAt?: string; reportedBy?: string; policeReportOnFile: boolean } };
const REF = { policeReportRef: "PR-2026-777" };

let vinCounter = 0;
/** A well-formed VIN, unique per call (digits only, so never I, O or Q). */
function uniqueVin(): string {
  vinCounter += 1;
  return `1HGCM8263${String(Date.now() % 1e5).padStart(5, "0")}${String(vinCounter).padStart(3, "0")}`.slice(0, 17);
}

function reportStolen(account: TestAccount | null, tagId: string, body: unknown = {}) {
  return call(
    reportStolenRoute,
    apiRequest(`/api/v1/vehicles/${tagId}/report-stolen`, { method: "POST", headers: account ? bearer(account.accessToken) : {}, body }),
    { tagId },
  );
}

function verify(vin: string, ip = nextTestIp()) {
  return call(verifyRoute, apiRequest(`/api/v1/vehicles/verify/${encodeURIComponent(vin)}`, { ip }), { vin });
}

async function vehicleTag(owner: TestAccount, options: { status?: "ACTIVE" | "LOST" | "FOUND" | "PENDING_SETUP" | "STOLEN"; vin?: string } = {}) {
  const tag = await giveTestTag(owner.id, { tagType: "VEHICLE", status: options.status ?? "ACTIVE", itemName: "Family car" });
  await getDatabase().db.insert(schema.vehicleProfiles).values({ tagId: tag.id, make: "Honda", model: "Accord", vin: options.vin ?? null });
  return tag;
}

describe("POST /vehicles/:tagId/report-stolen", () => {
  it("moves an ACTIVE vehicle tag to STOLEN with the police reference, through the status table", async () => {
    const owner = await registerAccount();
    const tag = await vehicleTag(owner);
    const response = await reportStolen(owner, tag.id, { policeReportRef: "PR-2026-001" });
    expect(response.status).toBe(200);
    const { data } = await json<StolenBody>(response);
    expect(data).toMatchObject({ tagId: tag.id, status: "STOLEN", policeReportRef: "PR-2026-001" });
    expect(data.message).toBeTruthy();
    const row = await tagRow(tag.id);
    expect(row?.status).toBe("STOLEN");
    expect(row?.policeReportRef).toBe("PR-2026-001");
    expect(row?.stolenReportedAt?.toISOString()).toBe(data.reportedAt);
    const events = await tagEventsOf(tag.id);
    expect(events.at(-1)).toMatchObject({ fromStatus: "ACTIVE", toStatus: "STOLEN", actorUserId: owner.id });
  });

  it("moves a LOST vehicle tag to STOLEN with the reference trimmed, and the message for finders", async () => {
    const owner = await registerAccount();
    const tag = await vehicleTag(owner, { status: "LOST" });
    const response = await reportStolen(owner, tag.id, { policeReportRef: "  PR-7  ", lostMessage: "Taken from Elm Street." });
    expect(response.status).toBe(200);
    expect((await json<StolenBody>(response)).data).toMatchObject({ status: "STOLEN", policeReportRef: "PR-7" });
    expect(await tagRow(tag.id)).toMatchObject({ policeReportRef: "PR-7", lostMessage: "Taken from Elm Street." });
  });

  it("takes a report without a police reference (the contract has it optional) but refuses a malformed one: 400 on the field", async () => {
    const owner = await registerAccount();
    const tag = await vehicleTag(owner);
    for (const body of [{ policeReportRef: 42 }, { policeReportRef: "x".repeat(101) }, { policeReportRef: ["PR"] }]) {
      const response = await reportStolen(owner, tag.id, body);
      expect(response.status).toBe(400);
      const error = (await json<{ error: { code: string; details: { fieldErrors: Record<string, string[]> } } }>(response)).error;
      expect(error.code).toBe("VALIDATION_ERROR");
      expect(Object.keys(error.details.fieldErrors)).toEqual(["policeReportRef"]);
    }
    expect(await tagRow(tag.id)).toMatchObject({ status: "ACTIVE", policeReportRef: null, stolenReportedAt: null });
    for (const body of [{}, { policeReportRef: null }, { policeReportRef: "   " }]) {
      const other = await vehicleTag(owner);
      const response = await reportStolen(owner, other.id, body);
      expect(response.status).toBe(200);
      const { data } = await json<StolenBody>(response);
      expect(data).toMatchObject({ status: "STOLEN", policeReportRef: null });
      expect(data.message).toContain("only once you add the reference");
      expect(await tagRow(other.id)).toMatchObject({ status: "STOLEN", policeReportRef: null });
    }
  });

  it("adds a police reference to a STOLEN vehicle that had none, and the VIN check then lists it; a second reference is 400 INVALID_TRANSITION", async () => {
    const owner = await registerAccount();
    const vin = uniqueVin();
    const tag = await vehicleTag(owner, { vin });
    expect((await reportStolen(owner, tag.id, {})).status).toBe(200);
    const before = await json<{ data: { stolen: boolean; tagged: boolean } }>(await verify(vin));
    expect(before.data).toMatchObject({ stolen: false, tagged: true });
    const added = await reportStolen(owner, tag.id, { policeReportRef: "PR-LATE-1" });
    expect(added.status).toBe(200);
    expect((await json<StolenBody>(added)).data).toMatchObject({ status: "STOLEN", policeReportRef: "PR-LATE-1" });
    const after = await json<{ data: { stolen: boolean; tagged: boolean } }>(await verify(vin));
    expect(after.data).toMatchObject({ stolen: true, tagged: true });
    const again = await reportStolen(owner, tag.id, { policeReportRef: "PR-LATE-2" });
    expect(again.status).toBe(400);
    expect((await json<ErrorBody>(again)).error.code).toBe("INVALID_TRANSITION");
    expect((await tagRow(tag.id))?.policeReportRef).toBe("PR-LATE-1");
  });

  it("refuses other statuses with 400 INVALID_TRANSITION (STOLEN with a reference on file: see above)", async () => {
    const owner = await registerAccount();
    for (const status of ["PENDING_SETUP", "FOUND"] as const) {
      const tag = await vehicleTag(owner, { status });
      const response = await reportStolen(owner, tag.id, REF);
      expect(response.status).toBe(400);
      expect((await json<ErrorBody>(response)).error.code).toBe("INVALID_TRANSITION");
      expect((await tagRow(tag.id))?.status).toBe(status);
    }
  });

  it("refuses a tag that is not a VEHICLE tag with 422", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { tagType: "PET", status: "ACTIVE" });
    const response = await reportStolen(owner, tag.id, REF);
    expect(response.status).toBe(422);
    expect((await json<ErrorBody>(response)).error.code).toBe("UNPROCESSABLE_ENTITY");
    expect((await tagRow(tag.id))?.status).toBe("ACTIVE");
  });

  it("is 404 for another user's tag, a missing and a malformed id; 401 anonymous; 400 for a bad body; 405 for GET", async () => {
    const owner = await registerAccount();
    const intruder = await registerAccount();
    const tag = await vehicleTag(owner);
    expect((await reportStolen(intruder, tag.id, REF)).status).toBe(404);
    expect((await reportStolen(intruder, MISSING_ID, REF)).status).toBe(404);
    expect((await reportStolen(owner, "12345", REF)).status).toBe(404);
    expect((await reportStolen(null, tag.id, REF)).status).toBe(401);
    expect((await reportStolen(owner, tag.id, { policeReportRef: "x".repeat(101) })).status).toBe(400);
    expect((await call(reportStolenOther, apiRequest(`/api/v1/vehicles/${tag.id}/report-stolen`, { headers: bearer(owner.accessToken) }), { tagId: tag.id })).status).toBe(405);
    expect((await tagRow(tag.id))?.status).toBe("ACTIVE");
  });
});

describe("GET /vehicles/verify/:vin", () => {
  it("answers the three outcomes: not registered, registered, stolen (with reportedAt only then)", async () => {
    const owner = await registerAccount();
    const vin = uniqueVin();

    const unknown = await verify(vin);
    expect(unknown.status).toBe(200);
    expect((await json<VinBody>(unknown)).data).toEqual({ vin, stolen: false, tagged: false, policeReportOnFile: false, message: expect.any(String) });

    const tag = await vehicleTag(owner, { vin });
    const registered = (await json<VinBody>(await verify(vin.toLowerCase()))).data;
    expect(registered).toEqual({ vin, stolen: false, tagged: true, policeReportOnFile: false, message: expect.any(String) });
    expect(registered).not.toHaveProperty("reportedAt");

    expect((await reportStolen(owner, tag.id, { policeReportRef: "PR-9-SECRET" })).status).toBe(200);
    const stolen = (await json<VinBody>(await verify(vin))).data;
    expect(stolen).toMatchObject({ vin, stolen: true, tagged: true, reportedBy: "TAG_OWNER", policeReportOnFile: true });
    expect(stolen.reportedAt).toBe((await tagRow(tag.id))?.stolenReportedAt?.toISOString());
    // Nothing about the owner, the reference or the vehicle leaks.
    expect(Object.keys(stolen).sort()).toEqual(["message", "policeReportOnFile", "reportedAt", "reportedBy", "stolen", "tagged", "vin"]);
  });

  it("says who reports it stolen and when, that a police reference is on file, and sends the buyer to the police: never a bare verdict", async () => {
    const owner = await registerAccount();
    const vin = uniqueVin();
    const tag = await vehicleTag(owner, { vin });
    expect((await reportStolen(owner, tag.id, { policeReportRef: "CASE-0042-XYZ" })).status).toBe(200);
    const reportedAt = (await tagRow(tag.id))!.stolenReportedAt!;
    // Spaces and hyphens in the VIN as typed are ignored.
    const typed = `${vin.slice(0, 3)}-${vin.slice(3, 9)} ${vin.slice(9)}`.toLowerCase();
    const { message } = (await json<VinBody>(await verify(typed))).data;
    expect(message).toContain("Reported stolen by the owner of the vehicle tag registered with this VIN");
    expect(message).toContain(reportedAt.toISOString().slice(0, 10));
    expect(message).toContain("a police report reference is on file");
    expect(message).toMatch(/check with the police and the seller's registration documents/);
    expect(message).not.toMatch(/do not buy/i);
    expect(message).not.toContain("CASE-0042-XYZ");
    expect(message).not.toContain(owner.email);
  });

  it("does not report stolen a STOLEN tag without a police reference (reports made before one was required)", async () => {
    const owner = await registerAccount();
    const vin = uniqueVin();
    const tag = await vehicleTag(owner, { vin });
    await forceTagStatus(tag.id, "STOLEN", { policeReportRef: null, stolenReportedAt: new Date() });
    const check = (await json<VinBody>(await verify(vin))).data;
    expect(check).toMatchObject({ vin, stolen: false, tagged: true, policeReportOnFile: false });
    expect(check).not.toHaveProperty("reportedAt");
    expect(check.message).toMatch(/No stolen report with a police reference is on file/);
  });

  it("needs no credential", async () => {
    const response = await call(verifyRoute, apiRequest(`/api/v1/vehicles/verify/${uniqueVin()}`, { ip: nextTestIp() }), { vin: uniqueVin() });
    expect(response.status).toBe(200);
  });

  it("rejects malformed VINs with 400", async () => {
    for (const vin of ["SHORT", "1HGCM82633A00435", "1HGCM82633A0043521", "1HGCM82633A00435I", "1HGCM82633A00435O", "1HGCM82633A00435Q", "1HGCM82633A0043-2"]) {
      const response = await verify(vin);
      expect(response.status).toBe(400);
      expect((await json<ErrorBody>(response)).error.code).toBe("VALIDATION_ERROR");
    }
  });

  it("allows 10 requests a minute per IP; the 11th is 429 with Retry-After", async () => {
    await awayFromWindowEdge(60_000, 20_000);
    const ip = nextTestIp();
    const vin = uniqueVin();
    for (let i = 0; i < 10; i++) expect((await verify(vin, ip)).status).toBe(200);
    const limited = await verify(vin, ip);
    expect(limited.status).toBe(429);
    expect((await json<ErrorBody>(limited)).error.code).toBe("RATE_LIMIT_EXCEEDED");
    expect(limited.headers.get("Retry-After")).toBeTruthy();
    expect(limited.headers.get("X-RateLimit-Limit")).toBe("10");
    expect((await verify(vin, nextTestIp())).status).toBe(200);
  });
});

type AdminReportBody = {
  id: string;
  type: string;
  status: string;
  reporterId: string | null;
  vin: string | null;
  tagId: string | null;
  targetUserId: string | null;
  relatedTagId: string | null;
  relatedUserId: string | null;
  relatedUserEmail: string | null;
};

const db = () => getDatabase().db;

function putVehicle(account: TestAccount, tagId: string, vin: string | null) {
  return call(
    putVehicleRoute,
    apiRequest(`/api/v1/profiles/${tagId}/vehicle`, { method: "PUT", headers: bearer(account.accessToken), body: { make: "Ford", model: "Focus", vin }, ip: nextTestIp() }),
    { tagId },
  );
}

function vinReports(vin: string) {
  return db().select().from(schema.reports).where(and(eq(schema.reports.vin, vin), eq(schema.reports.type, "VIN_CONFLICT")));
}

async function admin(): Promise<TestAccount> {
  const account = await registerAccount();
  await setRole(account.id, "ADMIN");
  return account;
}

describe("one claim per VIN", () => {
  it("refuses another account's VIN with 409, without naming the holder, and files one report flagging both tags and owners", async () => {
    const holder = await registerAccount();
    const claimant = await registerAccount();
    const vin = uniqueVin();
    const held = await giveTestTag(holder.id, { tagType: "VEHICLE", status: "PENDING_SETUP", itemName: "Car" });
    expect((await putVehicle(holder, held.id, vin)).status).toBe(200);

    const attempt = await giveTestTag(claimant.id, { tagType: "GENERAL", status: "PENDING_SETUP", itemName: "Not my car" });
    // The same VIN as typed differently: lower case, spaces and hyphens.
    const typed = `${vin.slice(0, 4)} ${vin.slice(4, 10)}-${vin.slice(10)}`.toLowerCase();
    const refused = await putVehicle(claimant, attempt.id, typed);
    expect(refused.status).toBe(409);
    const text = await refused.text();
    expect(JSON.parse(text).error.code).toBe("CONFLICT");
    for (const secret of [holder.id, holder.email, held.id]) expect(text).not.toContain(secret);
    // Nothing of the refused save stays: no profile, the type and status unchanged.
    expect(await db().select().from(schema.vehicleProfiles).where(eq(schema.vehicleProfiles.tagId, attempt.id))).toEqual([]);
    expect(await tagRow(attempt.id)).toMatchObject({ tagType: "GENERAL", status: "PENDING_SETUP", typedProfileSavedAt: null });

    const [report, ...more] = await vinReports(vin);
    expect(more).toEqual([]);
    expect(report).toMatchObject({ status: "OPEN", reporterId: null, tagId: held.id, targetUserId: holder.id, relatedTagId: attempt.id, relatedUserId: claimant.id });

    // Repeating the refused claim cannot flood the queue: still one open report for the pair.
    expect((await putVehicle(claimant, attempt.id, vin)).status).toBe(409);
    expect(await vinReports(vin)).toHaveLength(1);

    // The moderators see it in the queue, filtered by its type; neither owner sees it among their own reports.
    const moderator = await admin();
    const queue = await call(adminReportsRoute, apiRequest("/api/v1/admin/reports?type=VIN_CONFLICT&status=OPEN&limit=100", { headers: bearer(moderator.accessToken) }));
    expect(queue.status).toBe(200);
    const listed = (await json<{ data: AdminReportBody[] }>(queue)).data.find((item) => item.id === report!.id);
    expect(listed).toMatchObject({ type: "VIN_CONFLICT", vin, reporterId: null, tagId: held.id, relatedTagId: attempt.id, relatedUserEmail: claimant.email });
    for (const owner of [holder, claimant]) {
      const mine = await call(myReportsRoute, apiRequest("/api/v1/reports/my", { headers: bearer(owner.accessToken) }));
      expect((await json<{ data: unknown[] }>(mine)).data).toEqual([]);
    }
  });

  it("files the report though the refused claim came inside the dashboard's larger transaction", async () => {
    const holder = await registerAccount();
    const claimant = await registerAccount();
    const vin = uniqueVin();
    const held = await vehicleTag(holder, { vin });
    const attempt = await giveTestTag(claimant.id, { tagType: "VEHICLE", status: "PENDING_SETUP" });
    const ctx = { actor: { kind: "user" as const, userId: claimant.id, role: "USER" as const, ip: "203.0.113.9" }, db: db() };
    await expect(
      saveTagDetails(
        ctx,
        attempt.id,
        { itemName: "My car", tagType: "VEHICLE", description: undefined, ownerName: undefined, contactEmail: undefined, contactPhone: undefined },
        { kind: "VEHICLE", body: { make: "Ford", model: "Focus", color: null, licensePlate: null, vin } },
      ),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    // The general part was rolled back with the refusal; the report was not.
    expect((await tagRow(attempt.id))?.itemName).toBeNull();
    expect(await vinReports(vin)).toMatchObject([{ tagId: held.id, relatedTagId: attempt.id }]);
  });

  it("refuses the same VIN on the owner's second tag without filing a report", async () => {
    const owner = await registerAccount();
    const vin = uniqueVin();
    await vehicleTag(owner, { vin });
    const second = await giveTestTag(owner.id, { tagType: "VEHICLE", status: "ACTIVE", itemName: "Same car" });
    expect((await putVehicle(owner, second.id, vin)).status).toBe(409);
    expect(await vinReports(vin)).toEqual([]);
  });

  it("lets a tag re-save its own VIN, and frees the VIN when the holding tag is deactivated; the old tag cannot come back with it", async () => {
    const first = await registerAccount();
    const second = await registerAccount();
    const vin = uniqueVin();
    const old = await vehicleTag(first, { vin });
    expect((await putVehicle(first, old.id, vin)).status).toBe(200);

    await forceTagStatus(old.id, "DEACTIVATED");
    const fresh = await giveTestTag(second.id, { tagType: "VEHICLE", status: "ACTIVE", itemName: "Bought it" });
    expect((await putVehicle(second, fresh.id, vin)).status).toBe(200);

    const back = await call(statusRoute, apiRequest(`/api/v1/tags/${old.id}/status`, { method: "PATCH", headers: bearer(first.accessToken), body: { status: "ACTIVE" } }), { id: old.id });
    expect(back.status).toBe(409);
    expect((await json<ErrorBody>(back)).error.code).toBe("CONFLICT");
    expect((await tagRow(old.id))?.status).toBe("DEACTIVATED");
    expect(await vinReports(vin)).toMatchObject([{ tagId: fresh.id, targetUserId: second.id, relatedTagId: old.id, relatedUserId: first.id }]);
  });

  it("holds under concurrency: ten accounts saving one VIN at once, exactly one succeeds", async () => {
    const vin = uniqueVin();
    // Set up one after another (registration hashes a password); only the saves race.
    const claimants: TestAccount[] = [];
    const tags: Awaited<ReturnType<typeof giveTestTag>>[] = [];
    for (let i = 0; i < 10; i++) {
      claimants.push(await registerAccount());
      tags.push(await giveTestTag(claimants[i]!.id, { tagType: "VEHICLE", status: "ACTIVE", itemName: "Car" }));
    }
    const responses = await Promise.all(claimants.map((account, i) => putVehicle(account, tags[i]!.id, vin)));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    expect(await db().select().from(schema.vehicleProfiles).where(eq(schema.vehicleProfiles.vin, vin))).toHaveLength(1);
    expect(await vinReports(vin)).toHaveLength(9);
  });
});

describe("POST /admin/tags/:tagId/clear-stolen", () => {
  function clearStolen(account: TestAccount | null, tagId: string, body: unknown = {}) {
    return call(clearStolenRoute, apiRequest(`/api/v1/admin/tags/${tagId}/clear-stolen`, { method: "POST", headers: account ? bearer(account.accessToken) : {}, body }), { tagId });
  }

  it("clears a stolen report: the tag is ACTIVE, the VIN check no longer says stolen, an audit row is written and the owner told", async () => {
    const owner = await registerAccount();
    const moderator = await admin();
    const vin = uniqueVin();
    const tag = await vehicleTag(owner, { vin });
    expect((await reportStolen(owner, tag.id, { policeReportRef: "FAKE-1", lostMessage: "Stolen!" })).status).toBe(200);
    expect((await json<VinBody>(await verify(vin))).data.stolen).toBe(true);

    const response = await clearStolen(moderator, tag.id, { note: "The VIN belongs to someone else's car." });
    expect(response.status).toBe(200);
    expect((await json<{ data: unknown }>(response)).data).toMatchObject({ tagId: tag.id, status: "ACTIVE" });
    expect(await tagRow(tag.id)).toMatchObject({ status: "ACTIVE", policeReportRef: null, stolenReportedAt: null, lostMessage: null });
    expect((await json<VinBody>(await verify(vin))).data).toMatchObject({ stolen: false, tagged: true, policeReportOnFile: false });
    expect((await tagEventsOf(tag.id)).at(-1)).toMatchObject({ fromStatus: "STOLEN", toStatus: "ACTIVE", actorKind: "admin", actorUserId: moderator.id });

    const audit = await db().select().from(schema.auditLog).where(eq(schema.auditLog.entityId, tag.id));
    expect(audit).toMatchObject([{ action: "tag.clear_stolen", entityType: "tag", actorId: moderator.id, before: { status: "STOLEN", policeReportRef: "FAKE-1" }, after: { status: "ACTIVE", note: "The VIN belongs to someone else's car." } }]);
    const notices = await db().select().from(schema.notifications).where(eq(schema.notifications.userId, owner.id));
    expect(notices).toMatchObject([{ type: "TAG_STATUS_CHANGED", title: "A stolen report was cleared" }]);
    expect(notices[0]!.body).toContain("The VIN belongs to someone else's car.");
  });

  it("is admin-only (401 anonymous, 403 a user, the owner included), 409 for a tag not stolen, 404 unknown or malformed, 405 GET", async () => {
    const owner = await registerAccount();
    const moderator = await admin();
    const tag = await vehicleTag(owner, { vin: uniqueVin() });
    expect((await reportStolen(owner, tag.id, REF)).status).toBe(200);
    expect((await clearStolen(null, tag.id)).status).toBe(401);
    const forbidden = await clearStolen(owner, tag.id);
    expect(forbidden.status).toBe(403);
    expect((await json<ErrorBody>(forbidden)).error.code).toBe("FORBIDDEN");
    expect((await tagRow(tag.id))?.status).toBe("STOLEN");
    expect((await clearStolen(moderator, MISSING_ID)).status).toBe(404);
    expect((await clearStolen(moderator, "nope")).status).toBe(404);
    expect((await clearStolen(moderator, tag.id, { note: "x".repeat(501) })).status).toBe(400);
    expect((await clearStolen(moderator, tag.id)).status).toBe(200);
    const again = await clearStolen(moderator, tag.id);
    expect(again.status).toBe(409);
    expect((await json<ErrorBody>(again)).error.code).toBe("CONFLICT");
    expect((await call(clearStolenOther, apiRequest(`/api/v1/admin/tags/${tag.id}/clear-stolen`, { headers: bearer(moderator.accessToken) }), { tagId: tag.id })).status).toBe(405);
  });
});
