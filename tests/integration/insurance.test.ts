import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { DELETE as deleteRoute, GET as getRoute, POST as saveRoute, PUT as putRoute } from "@/app/api/v1/tags/[id]/insurance/route";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, call, json } from "../support/http";
import { giveTestTag } from "../support/tags";

const MISSING_ID = "00000000-0000-4000-8000-000000000000";

type ErrorBody = { success: false; error: { code: string; details?: { fieldErrors?: Record<string, string[]> } } };
type InsuranceBody = {
  data: { tagId: string; provider: string; policyNumber: string; coverageAmount: number | null; currency: string; validUntil: string | null; contactPhone: string | null };
};

function save(account: TestAccount | null, tagId: string, body: unknown) {
  return call(saveRoute, apiRequest(`/api/v1/tags/${tagId}/insurance`, { method: "POST", headers: account ? bearer(account.accessToken) : {}, body }), { id: tagId });
}
function get(account: TestAccount | null, tagId: string) {
  return call(getRoute, apiRequest(`/api/v1/tags/${tagId}/insurance`, { headers: account ? bearer(account.accessToken) : {} }), { id: tagId });
}
function remove(account: TestAccount | null, tagId: string) {
  return call(deleteRoute, apiRequest(`/api/v1/tags/${tagId}/insurance`, { method: "DELETE", headers: account ? bearer(account.accessToken) : {} }), { id: tagId });
}

async function storedRow(tagId: string) {
  const [row] = await getDatabase().db.select().from(schema.tagInsurance).where(eq(schema.tagInsurance.tagId, tagId));
  return row;
}

describe("tag insurance", () => {
  it("creates (201), reads, replaces (200) and deletes the record; money in major units, stored in minor", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE" });
    expect((await get(owner, tag.id)).status).toBe(404);

    const created = await save(owner, tag.id, {
      provider: "Acme Insurance",
      policyNumber: "POL-123",
      coverageAmount: 2500.5,
      currency: "eur",
      validUntil: "2027-06-30",
      contactPhone: "+1 555 0100",
    });
    expect(created.status).toBe(201);
    expect((await json<InsuranceBody>(created)).data).toMatchObject({
      tagId: tag.id,
      provider: "Acme Insurance",
      policyNumber: "POL-123",
      coverageAmount: 2500.5,
      currency: "EUR",
      validUntil: "2027-06-30",
      contactPhone: "+1 555 0100",
    });
    expect(await storedRow(tag.id)).toMatchObject({ coverageAmount: 250050, currency: "EUR" });

    const read = await get(owner, tag.id);
    expect(read.status).toBe(200);
    expect((await json<InsuranceBody>(read)).data.coverageAmount).toBe(2500.5);

    const replaced = await save(owner, tag.id, { provider: "Other Co", policyNumber: "P-2" });
    expect(replaced.status).toBe(200);
    expect((await json<InsuranceBody>(replaced)).data).toMatchObject({
      provider: "Other Co",
      policyNumber: "P-2",
      coverageAmount: null,
      currency: "USD",
      validUntil: null,
      contactPhone: null,
    });

    const yen = await save(owner, tag.id, { provider: "Nippon", policyNumber: "J-1", coverageAmount: 150000, currency: "JPY" });
    expect((await json<InsuranceBody>(yen)).data.coverageAmount).toBe(150000);
    expect((await storedRow(tag.id))?.coverageAmount).toBe(150000);

    const removed = await remove(owner, tag.id);
    expect(removed.status).toBe(200);
    expect((await get(owner, tag.id)).status).toBe(404);
    expect((await remove(owner, tag.id)).status).toBe(404);
  });

  it("validates the body (400)", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE" });
    const invalid: [unknown, string][] = [
      [{ policyNumber: "P" }, "provider"],
      [{ provider: "A" }, "policyNumber"],
      [{ provider: "A", policyNumber: "P", coverageAmount: -1 }, "coverageAmount"],
      [{ provider: "A", policyNumber: "P", coverageAmount: "10" }, "coverageAmount"],
      [{ provider: "A", policyNumber: "P", coverageAmount: 10.555 }, "coverageAmount"],
      [{ provider: "A", policyNumber: "P", coverageAmount: 10.5, currency: "JPY" }, "coverageAmount"],
      [{ provider: "A", policyNumber: "P", currency: "dollars" }, "currency"],
      [{ provider: "A", policyNumber: "P", validUntil: "30/06/2027" }, "validUntil"],
      [{ provider: "x".repeat(101), policyNumber: "P" }, "provider"],
    ];
    for (const [body, field] of invalid) {
      const response = await save(owner, tag.id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const error = (await json<ErrorBody>(response)).error;
      expect(error.code).toBe("VALIDATION_ERROR");
      expect(Object.keys(error.details?.fieldErrors ?? {})).toContain(field);
    }
    expect(await storedRow(tag.id)).toBeUndefined();
  });

  it("is 404 on every method for another user's tag, a missing and a malformed id; 401 anonymous; 405 for PUT", async () => {
    const owner = await registerAccount();
    const intruder = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE" });
    expect((await save(owner, tag.id, { provider: "Acme", policyNumber: "P-1" })).status).toBe(201);
    for (const id of [tag.id, MISSING_ID, "not-a-uuid"]) {
      expect((await get(intruder, id)).status).toBe(404);
      expect((await save(intruder, id, { provider: "Evil", policyNumber: "X" })).status).toBe(404);
      expect((await remove(intruder, id)).status).toBe(404);
    }
    expect((await get(null, tag.id)).status).toBe(401);
    expect((await save(null, tag.id, { provider: "Evil", policyNumber: "X" })).status).toBe(401);
    expect((await remove(null, tag.id)).status).toBe(401);
    expect((await call(putRoute, apiRequest(`/api/v1/tags/${tag.id}/insurance`, { method: "PUT", headers: bearer(owner.accessToken), body: {} }), { id: tag.id })).status).toBe(405);
    expect(await storedRow(tag.id)).toMatchObject({ provider: "Acme", policyNumber: "P-1" });
  });
});
