import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as getProfileRoute, PATCH as patchProfileRoute, POST as profilePost } from "@/app/api/v1/profiles/[tagId]/route";
import { PUT as putPetRoute } from "@/app/api/v1/profiles/[tagId]/pet/route";
import { PUT as putVehicleRoute } from "@/app/api/v1/profiles/[tagId]/vehicle/route";
import { PUT as putDeviceRoute } from "@/app/api/v1/profiles/[tagId]/device/route";
import { PUT as putTravelRoute } from "@/app/api/v1/profiles/[tagId]/travel/route";
import { GET as getTagRoute } from "@/app/api/v1/tags/[id]/route";
import type { RouteHandler } from "@/lib/http/route";
import { getDatabase } from "@/db/client";
import type { ServiceContext } from "@/lib/services/context";
import { NotFoundError } from "@/lib/services/errors";
import { saveGeneralProfile } from "@/lib/services/profiles/general";
import { generalProfileInput, profileSchema } from "@/lib/services/profiles/schemas";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, call, json } from "../support/http";
import { claimTestTag, setTier, tagRow } from "../support/tags";

type Envelope<T = Record<string, unknown>> = { success: boolean; data: T; error?: { code: string; message: string; details?: { fieldErrors: Record<string, string[]> } } };

const MISSING_ID = "5b8c8f0e-2f55-4a0d-9d3b-2f4f9a3e6c11";

function send(handler: RouteHandler, account: TestAccount | null, method: string, path: string, tagId: string, body?: unknown) {
  const headers = account ? bearer(account.accessToken) : {};
  return call(handler, apiRequest(path, { method, headers, body }), { tagId });
}

const profilePath = (tagId: string) => `/api/v1/profiles/${tagId}`;
const getProfile = (account: TestAccount | null, tagId: string) => send(getProfileRoute, account, "GET", profilePath(tagId), tagId);
const patchProfile = (account: TestAccount | null, tagId: string, body: unknown) => send(patchProfileRoute, account, "PATCH", profilePath(tagId), tagId, body);

const typedRoutes = {
  pet: { handler: putPetRoute, type: "PET", valid: { petName: "Rex", species: "Dog", breed: "Beagle" }, required: ["petName", "species"] },
  vehicle: { handler: putVehicleRoute, type: "VEHICLE", valid: { make: "Volvo", model: "V70", year: 2004, vin: "yv1sw61r021234567" }, required: ["make", "model"] },
  device: { handler: putDeviceRoute, type: "DEVICE", valid: { deviceType: "Laptop", brand: "Lenovo", serialNumber: "PF-123" }, required: ["deviceType"] },
  travel: { handler: putTravelRoute, type: "TRAVEL", valid: { luggageType: "Suitcase", color: "Blue", flightNumber: "LH 123" }, required: ["luggageType"] },
} as const;
type TypedKind = keyof typeof typedRoutes;

const putTyped = (kind: TypedKind, account: TestAccount | null, tagId: string, body: unknown) =>
  send(typedRoutes[kind].handler, account, "PUT", `${profilePath(tagId)}/${kind}`, tagId, body);

let owner: TestAccount;
let stranger: TestAccount;

beforeAll(async () => {
  stranger = await registerAccount();
});

// A fresh owner per test keeps every test under the per-user general rate limit and the tier's tag limit.
beforeEach(async () => {
  owner = await registerAccount();
  await setTier(owner.id, "PREMIUM");
});

describe("GET /profiles/:tagId", () => {
  it("returns the general fields of a fresh tag, matching the documented schema", async () => {
    const tag = await claimTestTag(owner, { itemName: "Keys" });
    const response = await getProfile(owner, tag.id);
    expect(response.status).toBe(200);
    const { data } = await json<Envelope>(response);
    expect(profileSchema.safeParse(data).success).toBe(true);
    expect(data).toMatchObject({
      tagId: tag.id,
      itemName: "Keys",
      description: null,
      ownerName: null,
      contactEmail: null,
      contactPhone: null,
      visibility: "PUBLIC",
      tagType: "GENERAL",
      photos: [],
      typedProfile: null,
    });
  });

  it("needs a credential", async () => {
    const tag = await claimTestTag(owner);
    expect((await getProfile(null, tag.id)).status).toBe(401);
  });
});

describe("PATCH /profiles/:tagId", () => {
  it("updates the general fields and visibility, keeps what is not sent, and clears with null", async () => {
    const tag = await claimTestTag(owner, { itemName: "Backpack" });
    const first = await patchProfile(owner, tag.id, {
      itemName: "  Blue backpack ",
      description: "Has a sticker",
      ownerName: "Ada",
      contactEmail: "ada@example.com",
      contactPhone: "+44 20 7946 0958",
      visibility: "PRIVATE",
      status: "LOST",
      ownerId: stranger.id,
    });
    expect(first.status).toBe(200);
    expect((await json<Envelope>(first)).data).toMatchObject({
      itemName: "Blue backpack",
      description: "Has a sticker",
      ownerName: "Ada",
      contactEmail: "ada@example.com",
      contactPhone: "+44 20 7946 0958",
      visibility: "PRIVATE",
    });

    const second = await patchProfile(owner, tag.id, { description: null, ownerName: "" });
    expect(second.status).toBe(200);
    const { data } = await json<Envelope>(second);
    expect(data).toMatchObject({ itemName: "Blue backpack", description: null, ownerName: null, contactEmail: "ada@example.com", visibility: "PRIVATE" });

    const row = await tagRow(tag.id);
    expect(row).toMatchObject({ ownerId: owner.id, visibility: "PRIVATE", itemName: "Blue backpack" });
    expect(row?.status).toBe("ACTIVE"); // not taken from the body; activated because the profile is complete

    const read = await json<Envelope>(await getProfile(owner, tag.id));
    expect(read.data).toMatchObject({ itemName: "Blue backpack", contactEmail: "ada@example.com", visibility: "PRIVATE" });
  });

  it("refuses over-long strings, a bad e-mail, a bad visibility and an empty item name with 400 per field", async () => {
    const tag = await claimTestTag(owner);
    const cases: [Record<string, unknown>, string][] = [
      [{ itemName: "x".repeat(101) }, "itemName"],
      [{ itemName: "   " }, "itemName"],
      [{ ownerName: "x".repeat(101) }, "ownerName"],
      [{ description: "x".repeat(2001) }, "description"],
      [{ contactEmail: "not-an-email" }, "contactEmail"],
      [{ contactPhone: "call me maybe" }, "contactPhone"],
      [{ visibility: "SECRET" }, "visibility"],
    ];
    for (const [body, field] of cases) {
      const response = await patchProfile(owner, tag.id, body);
      expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      const { error } = await json<Envelope>(response);
      expect(error?.code).toBe("VALIDATION_ERROR");
      expect(Object.keys(error?.details?.fieldErrors ?? {})).toContain(field);
    }
    const limits = await patchProfile(owner, tag.id, { itemName: "x".repeat(100), ownerName: "y".repeat(100), description: "z".repeat(2000) });
    expect(limits.status).toBe(200);
  });

  it("turns a PENDING_SETUP GENERAL tag ACTIVE once it has an item name", async () => {
    const tag = await claimTestTag(owner);
    expect(tag.status).toBe("PENDING_SETUP");
    await patchProfile(owner, tag.id, { description: "no name yet" });
    expect((await tagRow(tag.id))?.status).toBe("PENDING_SETUP");
    const response = await patchProfile(owner, tag.id, { itemName: "Wallet" });
    expect((await json<Envelope>(response)).data.status).toBe("ACTIVE");
    const tagResponse = await call(getTagRoute, apiRequest(`/api/v1/tags/${tag.id}`, { headers: bearer(owner.accessToken) }), { id: tag.id });
    expect((await json<Envelope>(tagResponse)).data).toMatchObject({ status: "ACTIVE", itemName: "Wallet" });
    expect((await tagRow(tag.id))?.activatedAt).toBeInstanceOf(Date);
  });

  it("keeps a typed tag PENDING_SETUP until its typed profile is saved too", async () => {
    const tag = await claimTestTag(owner, { tagType: "PET" });
    await patchProfile(owner, tag.id, { itemName: "Rex's collar" });
    expect((await tagRow(tag.id))?.status).toBe("PENDING_SETUP");
    const put = await putTyped("pet", owner, tag.id, { petName: "Rex", species: "Dog" });
    expect(put.status).toBe(200);
    expect((await tagRow(tag.id))?.status).toBe("ACTIVE");
  });

  it("activates a typed tag when the item name comes after the typed profile", async () => {
    const tag = await claimTestTag(owner, { tagType: "DEVICE" });
    await putTyped("device", owner, tag.id, { deviceType: "Phone" });
    expect((await tagRow(tag.id))?.status).toBe("PENDING_SETUP");
    await patchProfile(owner, tag.id, { itemName: "My phone" });
    expect((await tagRow(tag.id))?.status).toBe("ACTIVE");
  });

  it("leaves a tag that is not PENDING_SETUP in its status", async () => {
    const tag = await claimTestTag(owner, { itemName: "Bike", status: "LOST" });
    await patchProfile(owner, tag.id, { description: "red" });
    expect((await tagRow(tag.id))?.status).toBe("LOST");
  });
});

describe("typed profiles: PUT /profiles/:tagId/{pet,vehicle,device,travel}", () => {
  for (const kind of Object.keys(typedRoutes) as TypedKind[]) {
    const spec = typedRoutes[kind];

    it(`${kind}: saves, answers { tagId, tagType, ...fields }, sets the tag's type and shows in GET`, async () => {
      const tag = await claimTestTag(owner, { itemName: `My ${kind}` });
      const response = await putTyped(kind, owner, tag.id, spec.valid);
      expect(response.status).toBe(200);
      const { data } = await json<Envelope>(response);
      expect(data).toMatchObject({ tagId: tag.id, tagType: spec.type });
      for (const [key, value] of Object.entries(spec.valid)) {
        expect(data[key]).toEqual(key === "vin" ? String(value).toUpperCase() : value);
      }
      const row = await tagRow(tag.id);
      expect(row?.tagType).toBe(spec.type);
      expect(row?.typedProfileSavedAt).toBeInstanceOf(Date);
      expect(row?.status).toBe("ACTIVE");
      const profile = await json<Envelope>(await getProfile(owner, tag.id));
      expect(profile.data.tagType).toBe(spec.type);
      expect(profile.data.typedProfile).toEqual(data);
    });

    it(`${kind}: each missing required field is a 400 on that field`, async () => {
      const tag = await claimTestTag(owner);
      const response = await putTyped(kind, owner, tag.id, {});
      expect(response.status).toBe(400);
      const { error } = await json<Envelope>(response);
      expect(error?.code).toBe("VALIDATION_ERROR");
      expect(Object.keys(error?.details?.fieldErrors ?? {}).sort()).toEqual([...spec.required].sort());
      for (const field of spec.required) {
        const blank = await putTyped(kind, owner, tag.id, { ...spec.valid, [field]: "  " });
        expect(blank.status).toBe(400);
        expect(Object.keys((await json<Envelope>(blank)).error?.details?.fieldErrors ?? {})).toEqual([field]);
        const long = await putTyped(kind, owner, tag.id, { ...spec.valid, [field]: "x".repeat(101) });
        expect(long.status).toBe(400);
      }
      expect((await tagRow(tag.id))?.tagType).toBe("GENERAL");
    });

    it(`${kind}: another user's tag and a malformed id are 404`, async () => {
      const tag = await claimTestTag(owner);
      expect((await putTyped(kind, stranger, tag.id, spec.valid)).status).toBe(404);
      expect((await putTyped(kind, owner, "not-a-uuid", spec.valid)).status).toBe(404);
      expect((await putTyped(kind, owner, MISSING_ID, spec.valid)).status).toBe(404);
      expect((await putTyped(kind, null, tag.id, spec.valid)).status).toBe(401);
      expect((await tagRow(tag.id))?.tagType).toBe("GENERAL");
    });
  }

  it("a PUT replaces the typed profile: fields left out are cleared", async () => {
    const tag = await claimTestTag(owner, { itemName: "Dog" });
    await putTyped("pet", owner, tag.id, { petName: "Rex", species: "Dog", breed: "Beagle", microchip: "985112345678901" });
    const response = await putTyped("pet", owner, tag.id, { petName: "Rex", species: "Dog" });
    expect((await json<Envelope>(response)).data).toMatchObject({ breed: null, microchip: null, color: null, vetInfo: null });
  });

  it("changing type by a PUT replaces the previous type's profile", async () => {
    const tag = await claimTestTag(owner, { itemName: "Thing" });
    await putTyped("pet", owner, tag.id, { petName: "Rex", species: "Dog" });
    await putTyped("travel", owner, tag.id, { luggageType: "Duffel" });
    const { data } = await json<Envelope<{ tagType: string; typedProfile: { tagType: string; luggageType: string } }>>(await getProfile(owner, tag.id));
    expect(data.tagType).toBe("TRAVEL");
    expect(data.typedProfile).toMatchObject({ tagType: "TRAVEL", luggageType: "Duffel" });
  });

  it("vehicle: validates the VIN and the year", async () => {
    const tag = await claimTestTag(owner, { itemName: "Car" });
    const base = { make: "Saab", model: "900" };
    const nextYear = new Date().getUTCFullYear() + 1;
    const bad: [Record<string, unknown>, string][] = [
      [{ vin: "YV1SW61R02123456" }, "vin"], // 16
      [{ vin: "YV1SW61R0212345678" }, "vin"], // 18
      [{ vin: "YV1SW61R02123456O" }, "vin"], // O
      [{ vin: "IV1SW61R021234567" }, "vin"], // I
      [{ vin: "QV1SW61R021234567" }, "vin"], // Q
      [{ vin: "YV1SW61R02123456!" }, "vin"],
      [{ year: 1885 }, "year"],
      [{ year: nextYear + 1 }, "year"],
      [{ year: 2000.5 }, "year"],
      [{ year: "2000" }, "year"],
    ];
    for (const [extra, field] of bad) {
      const response = await putTyped("vehicle", owner, tag.id, { ...base, ...extra });
      expect(response.status, JSON.stringify(extra)).toBe(400);
      expect(Object.keys((await json<Envelope>(response)).error?.details?.fieldErrors ?? {})).toEqual([field]);
    }
    for (const year of [1886, nextYear]) {
      expect((await putTyped("vehicle", owner, tag.id, { ...base, year })).status).toBe(200);
    }
    const ok = await putTyped("vehicle", owner, tag.id, { ...base, vin: " 1hgcm82633a004352 ", licensePlate: "ABC 123" });
    expect(ok.status).toBe(200);
    expect((await json<Envelope>(ok)).data).toMatchObject({ vin: "1HGCM82633A004352", year: null, licensePlate: "ABC 123" });
  });

  it("pet: vetInfo is short text (≤ 500)", async () => {
    const tag = await claimTestTag(owner);
    expect((await putTyped("pet", owner, tag.id, { petName: "Tom", species: "Cat", vetInfo: "v".repeat(500) })).status).toBe(200);
    expect((await putTyped("pet", owner, tag.id, { petName: "Tom", species: "Cat", vetInfo: "v".repeat(501) })).status).toBe(400);
  });

  it("a malformed JSON body is 400", async () => {
    const tag = await claimTestTag(owner);
    const response = await call(
      putPetRoute,
      apiRequest(`${profilePath(tag.id)}/pet`, { method: "PUT", headers: { ...bearer(owner.accessToken), "content-type": "application/json" }, rawBody: "{" }),
      { tagId: tag.id },
    );
    expect(response.status).toBe(400);
  });
});

describe("ownership isolation", () => {
  it("another user's tag, an unknown id and a malformed id are 404 on GET and PATCH, and nothing changes", async () => {
    const tag = await claimTestTag(owner, { itemName: "Mine" });
    for (const [account, id] of [
      [stranger, tag.id],
      [owner, MISSING_ID],
      [owner, "not-a-uuid"],
      [owner, "123"],
    ] as const) {
      const read = await getProfile(account, id);
      expect(read.status).toBe(404);
      expect((await json<Envelope>(read)).error?.code).toBe("NOT_FOUND");
      expect((await patchProfile(account, id, { itemName: "Stolen", visibility: "PRIVATE" })).status).toBe(404);
    }
    expect(await tagRow(tag.id)).toMatchObject({ itemName: "Mine", visibility: "PUBLIC" });
  });

  it("an unsupported method answers 405", async () => {
    const tag = await claimTestTag(owner);
    const response = await send(profilePost, owner, "POST", profilePath(tag.id), tag.id, {});
    expect(response.status).toBe(405);
  });
});

describe("saveGeneralProfile (the dashboard's general profile form)", () => {
  const ownerContext = async (): Promise<ServiceContext> => ({ actor: { kind: "user", userId: owner.id, role: "USER", ip: "127.0.0.1" }, db: getDatabase().db });

  it("saves the tag's type and its profile in one call", async () => {
    const tag = await claimTestTag(owner, { itemName: "Keys" });
    const profile = await saveGeneralProfile(await ownerContext(), tag.id, generalProfileInput.parse({ tagType: "PET", itemName: "Rex's tag", ownerName: "Ada", contactPhone: "+44 20 7946 0000" }));
    expect(profile).toMatchObject({ tagType: "PET", itemName: "Rex's tag", ownerName: "Ada", contactPhone: "+44 20 7946 0000" });
    expect((await tagRow(tag.id))?.tagType).toBe("PET");
  });

  it("changes nothing when the profile cannot be saved: the type is not left behind", async () => {
    const tag = await claimTestTag(owner, { itemName: "Keys" });
    // A value the schema would refuse reaches the database and fails there, after the type was written.
    await expect(saveGeneralProfile(await ownerContext(), tag.id, { ...generalProfileInput.parse({ tagType: "PET", ownerName: "Ada" }), visibility: "NOWHERE" as never })).rejects.toThrow();
    expect(await tagRow(tag.id)).toMatchObject({ tagType: "GENERAL", visibility: "PUBLIC" });
  });

  it("finds another user's tag missing", async () => {
    const tag = await claimTestTag(stranger, { itemName: "Theirs" });
    await expect(saveGeneralProfile(await ownerContext(), tag.id, generalProfileInput.parse({ tagType: "PET" }))).rejects.toBeInstanceOf(NotFoundError);
    expect((await tagRow(tag.id))?.tagType).toBe("GENERAL");
  });
});
