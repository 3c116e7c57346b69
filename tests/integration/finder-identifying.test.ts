import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { GET as scanRoute } from "@/app/api/v1/scan/[encryptedId]/route";
import { GET as emergencyScanRoute } from "@/app/api/v1/scan/[encryptedId]/emergency/route";
import { GET as getProfileRoute, PATCH as patchProfileRoute } from "@/app/api/v1/profiles/[tagId]/route";
import { PUT as putPetRoute } from "@/app/api/v1/profiles/[tagId]/pet/route";
import { PUT as putVehicleRoute } from "@/app/api/v1/profiles/[tagId]/vehicle/route";
import type { RouteHandler } from "@/lib/http/route";
import { listTagsShowingEmergency } from "@/lib/services/emergency";
import { systemContext, type ServiceContext } from "@/lib/services/context";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, call, json, nextTestIp } from "../support/http";
import { giveTestTag } from "../support/tags";

const db = () => getDatabase().db;
const ownerContext = (userId: string): ServiceContext => ({ ...systemContext(), actor: { kind: "user", userId, role: "USER", ip: "203.0.113.1" } });

type View = { emergencyAvailable: boolean; details: Record<string, unknown> | null; itemName: string | null };

async function scanView(encryptedId: string): Promise<{ text: string; view: View }> {
  const response = await call(scanRoute, apiRequest(`/api/v1/scan/${encodeURIComponent(encryptedId)}`, { ip: nextTestIp() }), { encryptedId });
  expect(response.status).toBe(200);
  const text = await response.text();
  return { text, view: (JSON.parse(text) as { data: View }).data };
}

function emergencyScan(encryptedId: string): Promise<Response> {
  return call(emergencyScanRoute, apiRequest(`/api/v1/scan/${encodeURIComponent(encryptedId)}/emergency`, { ip: nextTestIp() }), { encryptedId });
}

function send(handler: RouteHandler, account: TestAccount, method: string, path: string, tagId: string, body?: unknown): Promise<Response> {
  return call(handler, apiRequest(path, { method, headers: bearer(account.accessToken), body }), { tagId });
}
const patchProfile = (account: TestAccount, tagId: string, body: unknown) => send(patchProfileRoute, account, "PATCH", `/api/v1/profiles/${tagId}`, tagId, body);
const getProfile = (account: TestAccount, tagId: string) => send(getProfileRoute, account, "GET", `/api/v1/profiles/${tagId}`, tagId);

/** An owner with an emergency profile that states something (so only the tag's choice decides). */
async function ownerWithEmergency(): Promise<TestAccount> {
  const owner = await registerAccount();
  await db().insert(schema.emergencyProfiles).values({ userId: owner.id, bloodType: "AB-", conditions: ["Type 1 diabetes"] });
  await db().insert(schema.emergencyContacts).values({ userId: owner.id, name: "Sam", relationship: "Partner", phone: "+1 555 0199" });
  return owner;
}

describe("emergencyVisible: emergency information is chosen per tag", () => {
  it("is off by default on a PET tag: no emergencyAvailable, a 404 on the emergency endpoint, no access logged", async () => {
    const owner = await ownerWithEmergency();
    const pet = await giveTestTag(owner.id, { tagType: "PET", itemName: "Rex", status: "LOST" });
    expect((await scanView(pet.encryptedId)).view.emergencyAvailable).toBe(false);
    const refused = await emergencyScan(pet.encryptedId);
    expect(refused.status).toBe(404);
    expect(await refused.text()).not.toMatch(/diabetes|Sam|AB-/);
    expect(await db().select().from(schema.emergencyAccesses).where(eq(schema.emergencyAccesses.userId, owner.id))).toHaveLength(0);

    const profile = await json<{ data: { emergencyVisible: boolean } }>(await getProfile(owner, pet.id));
    expect(profile.data.emergencyVisible).toBe(false);
  });

  it("is on by default for the other types", async () => {
    const owner = await ownerWithEmergency();
    for (const tagType of ["GENERAL", "VEHICLE", "DEVICE", "TRAVEL"] as const) {
      const tag = await giveTestTag(owner.id, { tagType, itemName: `A ${tagType}`, status: "ACTIVE" });
      expect((await scanView(tag.encryptedId)).view.emergencyAvailable).toBe(true);
      expect((await emergencyScan(tag.encryptedId)).status).toBe(200);
      expect((await json<{ data: { emergencyVisible: boolean } }>(await getProfile(owner, tag.id))).data.emergencyVisible).toBe(true);
    }
  });

  it("PATCH /profiles/:tagId sets it both ways; the emergency page names whose information it is", async () => {
    const owner = await ownerWithEmergency();
    const pet = await giveTestTag(owner.id, { tagType: "PET", itemName: "Rex", status: "ACTIVE" });
    const on = await patchProfile(owner, pet.id, { emergencyVisible: true, ownerName: "Ada" });
    expect(on.status).toBe(200);
    expect((await json<{ data: { emergencyVisible: boolean } }>(on)).data.emergencyVisible).toBe(true);
    expect((await scanView(pet.encryptedId)).view.emergencyAvailable).toBe(true);
    const read = await emergencyScan(pet.encryptedId);
    expect(read.status).toBe(200);
    expect((await json<{ data: { ownerName: string | null; bloodType: string } }>(read)).data).toMatchObject({ ownerName: "Ada", bloodType: "AB-" });

    const keys = await giveTestTag(owner.id, { itemName: "Keys", status: "ACTIVE" });
    expect((await patchProfile(owner, keys.id, { emergencyVisible: false })).status).toBe(200);
    expect((await scanView(keys.encryptedId)).view.emergencyAvailable).toBe(false);
    expect((await emergencyScan(keys.encryptedId)).status).toBe(404);

    // The emergency editor lists exactly the tags that show it.
    const shown = await listTagsShowingEmergency(ownerContext(owner.id));
    expect(shown.map((tag) => tag.id)).toEqual([pet.id]);

    const invalid = await patchProfile(owner, keys.id, { emergencyVisible: "yes" });
    expect(invalid.status).toBe(400);
  });
});

describe("identifying fields in the scan view", () => {
  it("a pet: species, breed, colour, size and marks; needs medication only when the owner shows it; never the vet or microchip", async () => {
    const owner = await registerAccount();
    const pet = await giveTestTag(owner.id, { tagType: "PET", itemName: "Rex", status: "LOST" });
    await db().update(schema.tags).set({ visibility: "PUBLIC" }).where(eq(schema.tags.id, pet.id));
    const body = { petName: "Rex", species: "Dog", breed: "Beagle", color: "Brown", size: "Medium", distinctiveMarks: "White patch over the left eye", microchip: "985112345678901", vetInfo: "Dr Vet", needsMedication: true };
    const saved = await send(putPetRoute, owner, "PUT", `/api/v1/profiles/${pet.id}/pet`, pet.id, body);
    expect(saved.status).toBe(200);
    expect((await json<{ data: Record<string, unknown> }>(saved)).data).toMatchObject({ size: "Medium", needsMedication: true, showNeedsMedication: false });

    const hidden = await scanView(pet.encryptedId);
    expect(hidden.view.details).toEqual({ tagType: "PET", petName: "Rex", species: "Dog", breed: "Beagle", color: "Brown", size: "Medium", distinctiveMarks: "White patch over the left eye", needsMedication: null });
    expect(hidden.text).not.toMatch(/985112345678901|Dr Vet/);

    await send(putPetRoute, owner, "PUT", `/api/v1/profiles/${pet.id}/pet`, pet.id, { ...body, showNeedsMedication: true });
    expect((await scanView(pet.encryptedId)).view.details).toMatchObject({ needsMedication: true });

    // PRIVATE hides them like the rest of the profile.
    await db().update(schema.tags).set({ visibility: "PRIVATE" }).where(eq(schema.tags.id, pet.id));
    const secret = await scanView(pet.encryptedId);
    expect(secret.view.details).toBeNull();
    expect(secret.text).not.toMatch(/Beagle|Medium|White patch/);
  });

  it("a vehicle: the plate only when the owner chose to show it; never the VIN", async () => {
    const owner = await registerAccount();
    const car = await giveTestTag(owner.id, { tagType: "VEHICLE", itemName: "Car", status: "ACTIVE" });
    const body = { make: "Volvo", model: "V70", year: 2004, color: "Blue", licensePlate: "AB12 CDE", vin: "YV1SW61R441234567" };
    expect((await send(putVehicleRoute, owner, "PUT", `/api/v1/profiles/${car.id}/vehicle`, car.id, body)).status).toBe(200);
    const hidden = await scanView(car.encryptedId);
    expect(hidden.view.details).toEqual({ tagType: "VEHICLE", make: "Volvo", model: "V70", year: 2004, color: "Blue", licensePlate: null });
    expect(hidden.text).not.toMatch(/AB12 CDE|YV1SW61R441234567/);

    expect((await send(putVehicleRoute, owner, "PUT", `/api/v1/profiles/${car.id}/vehicle`, car.id, { ...body, showPlate: true })).status).toBe(200);
    const shown = await scanView(car.encryptedId);
    expect(shown.view.details).toMatchObject({ licensePlate: "AB12 CDE" });
    expect(shown.text).not.toContain("YV1SW61R441234567");

    await db().update(schema.tags).set({ visibility: "PRIVATE" }).where(eq(schema.tags.id, car.id));
    const secret = await scanView(car.encryptedId);
    expect(secret.view.details).toBeNull();
    expect(secret.text).not.toMatch(/AB12 CDE|Volvo/);
  });
});
