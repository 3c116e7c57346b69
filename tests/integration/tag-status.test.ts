import { beforeAll, describe, expect, it } from "vitest";
import { getDatabase, schema } from "@/db/client";
import { PATCH as statusRoute } from "@/app/api/v1/tags/[id]/status/route";
import { PATCH as patchRoute } from "@/app/api/v1/tags/[id]/route";
import type { TagRecord } from "@/lib/services/tags/records";
import type { TagStatus } from "@/lib/services/tags/transitions";
import { apiRequest, call, json } from "../support/http";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { giveTestTag, setTier, tagEventsOf, tagRow } from "../support/tags";

type ErrorBody = { error: { code: string; details?: Record<string, unknown> } };

const STATUSES: TagStatus[] = ["PENDING_SETUP", "ACTIVE", "LOST", "FOUND", "STOLEN", "DEACTIVATED", "EXPIRED"];

/** The specification's table, written out independently of lib/services/tags/transitions.ts. */
const ALLOWED: Record<TagStatus, TagStatus[]> = {
  PENDING_SETUP: ["ACTIVE"],
  ACTIVE: ["LOST", "STOLEN", "DEACTIVATED"],
  LOST: ["FOUND", "ACTIVE", "STOLEN"],
  FOUND: ["ACTIVE"],
  STOLEN: ["ACTIVE", "DEACTIVATED"],
  DEACTIVATED: ["ACTIVE"],
  EXPIRED: ["ACTIVE"],
};

const setStatus = (account: TestAccount, id: string, body: unknown) =>
  call(statusRoute, apiRequest(`/api/v1/tags/${id}/status`, { method: "PATCH", headers: bearer(account.accessToken), body }), { id });
const patchTag = (account: TestAccount, id: string, body: unknown) => call(patchRoute, apiRequest(`/api/v1/tags/${id}`, { method: "PATCH", headers: bearer(account.accessToken), body }), { id });

async function expectError(response: Response, status: number, code: string) {
  const body = await json<ErrorBody>(response);
  expect({ status: response.status, code: body.error?.code }).toEqual({ status, code });
  return body.error;
}

async function record(response: Response): Promise<TagRecord> {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return (JSON.parse(text) as { data: TagRecord }).data;
}

describe("the transition table, cell by cell (PATCH /tags/:id/status)", () => {
  describe.each(STATUSES)("from %s", (from) => {
    // One PREMIUM owner per row: no tier rule gets in the way of a listed move, and rate limits stay per row.
    let owner: TestAccount;
    beforeAll(async () => {
      owner = await registerAccount();
      await setTier(owner.id, "PREMIUM");
    });

    it.each(STATUSES)(`to %s`, async (to) => {
      // A complete GENERAL profile (itemName), so PENDING_SETUP → ACTIVE is allowed by the profile rule too.
      const tag = await giveTestTag(owner.id, { itemName: "Backpack", status: from });
      const response = await setStatus(owner, tag.id, { status: to });
      if (ALLOWED[from].includes(to)) {
        const updated = await record(response);
        expect(updated).toMatchObject({ id: tag.id, status: to });
        expect((await tagRow(tag.id))!.status).toBe(to);
        expect(await tagEventsOf(tag.id)).toEqual([expect.objectContaining({ fromStatus: from, toStatus: to, actorUserId: owner.id, actorKind: "user" })]);
      } else {
        const error = await expectError(response, 400, "INVALID_TRANSITION");
        expect(error.details).toMatchObject({ from, to });
        expect((await tagRow(tag.id))!.status).toBe(from);
        expect(await tagEventsOf(tag.id)).toEqual([]);
      }
    });
  });
});

describe("special rules of status changes", () => {
  it("PENDING_SETUP → ACTIVE needs a complete profile (422), then succeeds", async () => {
    const owner = await registerAccount();
    const general = await giveTestTag(owner.id);
    await expectError(await setStatus(owner, general.id, { status: "ACTIVE" }), 422, "UNPROCESSABLE_ENTITY");
    expect((await tagRow(general.id))!.status).toBe("PENDING_SETUP");

    const pet = await giveTestTag(owner.id, { tagType: "PET", itemName: "Rex" });
    await expectError(await setStatus(owner, pet.id, { status: "ACTIVE" }), 422, "UNPROCESSABLE_ENTITY");
    await getDatabase().db.insert(schema.petProfiles).values({ tagId: pet.id, petName: "Rex", species: "Dog" });
    const activated = await record(await setStatus(owner, pet.id, { status: "ACTIVE" }));
    expect(activated.status).toBe("ACTIVE");
    expect(activated.activatedAt).toEqual(expect.any(String));
  });

  it("PATCH /tags/:id with an itemName moves a PENDING GENERAL tag to ACTIVE by itself", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id);
    const updated = await record(await patchTag(owner, tag.id, { itemName: "House keys" }));
    expect(updated).toMatchObject({ status: "ACTIVE", itemName: "House keys", activatedAt: expect.any(String) });
    expect(await tagEventsOf(tag.id)).toEqual([expect.objectContaining({ fromStatus: "PENDING_SETUP", toStatus: "ACTIVE", actorUserId: owner.id })]);

    // A typed tag stays PENDING until its typed profile exists too.
    const vehicle = await giveTestTag(owner.id, { tagType: "VEHICLE" });
    expect((await record(await patchTag(owner, vehicle.id, { itemName: "Van" }))).status).toBe("PENDING_SETUP");
  });

  it("EXPIRED → ACTIVE is 403 on FREE and allowed on PRO", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { itemName: "Bike", status: "EXPIRED" });
    await expectError(await setStatus(owner, tag.id, { status: "ACTIVE" }), 403, "FORBIDDEN");
    expect((await tagRow(tag.id))!.status).toBe("EXPIRED");
    await setTier(owner.id, "PRO");
    expect((await record(await setStatus(owner, tag.id, { status: "ACTIVE" }))).status).toBe("ACTIVE");
  });

  it("DEACTIVATED → ACTIVE past the tier limit is 422 { tier, limit }", async () => {
    const owner = await registerAccount();
    for (let i = 0; i < 5; i += 1) await giveTestTag(owner.id, { itemName: `Item ${i}`, status: "ACTIVE" });
    const parked = await giveTestTag(owner.id, { itemName: "Parked", status: "DEACTIVATED" });
    const error = await expectError(await setStatus(owner, parked.id, { status: "ACTIVE" }), 422, "UNPROCESSABLE_ENTITY");
    expect(error.details).toEqual({ tier: "FREE", limit: 5 });
    expect((await tagRow(parked.id))!.status).toBe("DEACTIVATED");
    await setTier(owner.id, "PRO");
    expect((await record(await setStatus(owner, parked.id, { status: "ACTIVE" }))).status).toBe("ACTIVE");
  });

  it("keeps lostMessage on LOST (and on to STOLEN) and clears it on FOUND and ACTIVE", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { itemName: "Wallet", status: "ACTIVE" });
    expect(await record(await setStatus(owner, tag.id, { status: "LOST", lostMessage: "Reward if found" }))).toMatchObject({ status: "LOST", lostMessage: "Reward if found" });
    expect(await record(await setStatus(owner, tag.id, { status: "STOLEN" }))).toMatchObject({ status: "STOLEN", lostMessage: "Reward if found" });
    expect(await record(await setStatus(owner, tag.id, { status: "ACTIVE" }))).toMatchObject({ status: "ACTIVE", lostMessage: null });

    await setStatus(owner, tag.id, { status: "LOST", lostMessage: "Please call" });
    expect(await record(await setStatus(owner, tag.id, { status: "FOUND" }))).toMatchObject({ status: "FOUND", lostMessage: null });
    expect((await tagRow(tag.id))!.lostMessage).toBeNull();

    const other = await giveTestTag(owner.id, { itemName: "Phone", status: "ACTIVE" });
    await setStatus(owner, other.id, { status: "LOST", lostMessage: "Call me" });
    expect(await record(await setStatus(owner, other.id, { status: "ACTIVE" }))).toMatchObject({ lostMessage: null });
  });

  it("refuses a lostMessage with a status other than LOST or STOLEN (400), and bad bodies", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { itemName: "Wallet", status: "ACTIVE" });
    await expectError(await setStatus(owner, tag.id, { status: "DEACTIVATED", lostMessage: "hello" }), 400, "VALIDATION_ERROR");
    expect((await tagRow(tag.id))!.status).toBe("ACTIVE");
    expect(await record(await setStatus(owner, tag.id, { status: "STOLEN", lostMessage: "Stolen from the car park" }))).toMatchObject({ lostMessage: "Stolen from the car park" });
    await expectError(await setStatus(owner, tag.id, { status: "ACTIVE", lostMessage: "still here" }), 400, "VALIDATION_ERROR");
    await expectError(await setStatus(owner, tag.id, { status: "BROKEN" }), 400, "VALIDATION_ERROR");
    await expectError(await setStatus(owner, tag.id, {}), 400, "VALIDATION_ERROR");
    await expectError(await setStatus(owner, tag.id, { status: "LOST", lostMessage: "x".repeat(501) }), 400, "VALIDATION_ERROR");
    expect((await tagRow(tag.id))!.status).toBe("STOLEN");
  });

  it("ignores a status sent to PATCH /tags/:id", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { itemName: "Wallet", status: "ACTIVE" });
    expect((await record(await patchTag(owner, tag.id, { status: "LOST" }))).status).toBe("ACTIVE");
  });
});
