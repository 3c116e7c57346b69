import { describe, expect, it } from "vitest";
import { getDatabase, schema } from "@/db/client";
import { POST as reportStolenRoute, GET as reportStolenOther } from "@/app/api/v1/vehicles/[tagId]/report-stolen/route";
import { GET as verifyRoute } from "@/app/api/v1/vehicles/verify/[vin]/route";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, call, json, nextTestIp, awayFromWindowEdge } from "../support/http";
import { giveTestTag, tagEventsOf, tagRow } from "../support/tags";

const MISSING_ID = "00000000-0000-4000-8000-000000000000";

type ErrorBody = { success: false; error: { code: string; message: string } };
type StolenBody = { data: { tagId: string; status: string; policeReportRef: string | null; reportedAt: string; message: string } };
type VinBody = { data: { vin: string; stolen: boolean; tagged: boolean; message: string; reportedAt?: string } };

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

  it("moves a LOST vehicle tag to STOLEN without a police reference", async () => {
    const owner = await registerAccount();
    const tag = await vehicleTag(owner, { status: "LOST" });
    const response = await reportStolen(owner, tag.id);
    expect(response.status).toBe(200);
    expect((await json<StolenBody>(response)).data).toMatchObject({ status: "STOLEN", policeReportRef: null });
  });

  it("refuses other statuses with 400 INVALID_TRANSITION (STOLEN again included)", async () => {
    const owner = await registerAccount();
    for (const status of ["PENDING_SETUP", "FOUND", "STOLEN"] as const) {
      const tag = await vehicleTag(owner, { status });
      const response = await reportStolen(owner, tag.id);
      expect(response.status).toBe(400);
      expect((await json<ErrorBody>(response)).error.code).toBe("INVALID_TRANSITION");
      expect((await tagRow(tag.id))?.status).toBe(status);
    }
  });

  it("refuses a tag that is not a VEHICLE tag with 422", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { tagType: "PET", status: "ACTIVE" });
    const response = await reportStolen(owner, tag.id);
    expect(response.status).toBe(422);
    expect((await json<ErrorBody>(response)).error.code).toBe("UNPROCESSABLE_ENTITY");
    expect((await tagRow(tag.id))?.status).toBe("ACTIVE");
  });

  it("is 404 for another user's tag, a missing and a malformed id; 401 anonymous; 400 for a bad body; 405 for GET", async () => {
    const owner = await registerAccount();
    const intruder = await registerAccount();
    const tag = await vehicleTag(owner);
    expect((await reportStolen(intruder, tag.id)).status).toBe(404);
    expect((await reportStolen(intruder, MISSING_ID)).status).toBe(404);
    expect((await reportStolen(owner, "12345")).status).toBe(404);
    expect((await reportStolen(null, tag.id)).status).toBe(401);
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
    expect((await json<VinBody>(unknown)).data).toEqual({ vin, stolen: false, tagged: false, message: expect.any(String) });

    const tag = await vehicleTag(owner, { vin });
    const registered = (await json<VinBody>(await verify(vin.toLowerCase()))).data;
    expect(registered).toEqual({ vin, stolen: false, tagged: true, message: expect.any(String) });
    expect(registered).not.toHaveProperty("reportedAt");

    expect((await reportStolen(owner, tag.id, { policeReportRef: "PR-9" })).status).toBe(200);
    const stolen = (await json<VinBody>(await verify(vin))).data;
    expect(stolen).toMatchObject({ vin, stolen: true, tagged: true });
    expect(stolen.reportedAt).toBe((await tagRow(tag.id))?.stolenReportedAt?.toISOString());
    // Nothing about the owner or the vehicle leaks.
    expect(Object.keys(stolen).sort()).toEqual(["message", "reportedAt", "stolen", "tagged", "vin"]);
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
