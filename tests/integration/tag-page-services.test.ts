import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import type { ServiceContext } from "@/lib/services/context";
import { prepareJobs, stopJobs } from "@/lib/jobs";
import { listThreads } from "@/lib/services/messages";
import sharp from "sharp";
import { addPhoto, getProfile, saveTagDetails, thumbnailsOf } from "@/lib/services/profiles";
import { finderViewPreview } from "@/lib/services/finder";
import { NotFoundError } from "@/lib/services/errors";
import { GET as messagesRoute } from "@/app/api/v1/messages/route";
import { POST as contactRoute } from "@/app/api/v1/scan/[encryptedId]/contact/route";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, call, json, nextTestIp } from "../support/http";
import { giveTestTag, tagRow } from "../support/tags";

beforeAll(async () => {
  await prepareJobs();
});
afterAll(async () => {
  await stopJobs();
});

const userCtx = (account: TestAccount): ServiceContext => ({ actor: { kind: "user", userId: account.id, role: "USER", ip: "203.0.113.20" }, db: getDatabase().db });
const general = { itemName: "Rex", tagType: "PET" as const, description: "Brown beagle", ownerName: "Ada", contactEmail: null, contactPhone: null, visibility: "PUBLIC" as const };

describe("saveTagDetails: the tag page's one form", () => {
  it("saves the general profile and the pet's details together; the pet's name is the item's; the tag turns active", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { tagType: "PET" });
    await saveTagDetails(userCtx(owner), tag.id, general, { kind: "PET", body: { petName: "Rex", species: "Dog", breed: "Beagle", color: null, microchip: null, vetInfo: null, size: null, distinctiveMarks: null } });
    const profile = await getProfile(userCtx(owner), tag.id);
    expect(profile).toMatchObject({ itemName: "Rex", description: "Brown beagle", ownerName: "Ada", tagType: "PET", status: "ACTIVE" });
    expect(profile.typedProfile).toMatchObject({ tagType: "PET", petName: "Rex", species: "Dog", breed: "Beagle" });
  });

  it("nothing is half-saved: when the typed part fails, the general part is rolled back too", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { tagType: "PET", itemName: "Before" });
    // A body the schema would refuse, reaching the database: its NOT NULL refuses it inside the transaction.
    const broken = { petName: "Rex", species: null as unknown as string, breed: null, color: null, microchip: null, vetInfo: null, size: null, distinctiveMarks: null };
    await expect(saveTagDetails(userCtx(owner), tag.id, general, { kind: "PET", body: broken })).rejects.toThrow();
    const row = await tagRow(tag.id);
    expect(row).toMatchObject({ itemName: "Before", status: "PENDING_SETUP" });
    expect(await getDatabase().db.select().from(schema.petProfiles).where(eq(schema.petProfiles.tagId, tag.id))).toEqual([]);
  });

  it("another user's tag is NotFound and is left untouched", async () => {
    const owner = await registerAccount();
    const stranger = await registerAccount();
    const tag = await giveTestTag(owner.id, { tagType: "GENERAL", itemName: "Keys" });
    await expect(saveTagDetails(userCtx(stranger), tag.id, { ...general, tagType: "GENERAL" }, null)).rejects.toBeInstanceOf(NotFoundError);
    expect((await tagRow(tag.id))!.itemName).toBe("Keys");
  });
});

describe("the tag page's finder preview", () => {
  it("is what GET /scan shows, records no scan and tells nobody; another user's tag is NotFound", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "LOST", itemName: "Blue backpack" });
    await getDatabase().db.update(schema.tags).set({ visibility: "PUBLIC", lostMessage: "Please message me" }).where(eq(schema.tags.id, tag.id));
    const view = await finderViewPreview(userCtx(owner), tag.id);
    expect(view).toMatchObject({ tagId: tag.id, itemName: "Blue backpack", status: "LOST", lostMessage: "Please message me", contactEnabled: true });
    expect(await getDatabase().db.select().from(schema.scans).where(eq(schema.scans.tagId, tag.id))).toEqual([]);
    expect((await tagRow(tag.id))!.scanCount).toBe(0);
    expect(await getDatabase().db.select().from(schema.notifications).where(eq(schema.notifications.userId, owner.id))).toEqual([]);
    await expect(finderViewPreview(userCtx(await registerAccount()), tag.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("one tag's conversations", () => {
  it("listThreads and GET /messages take a tagId; another user's tag lists nothing; a malformed id is 400", async () => {
    const owner = await registerAccount();
    const first = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Keys" });
    const second = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Bike" });
    for (const tag of [first, second, first]) {
      const response = await call(contactRoute, apiRequest(`/api/v1/scan/${tag.encryptedId}/contact`, { method: "POST", ip: nextTestIp(), body: { message: "I found it." } }), { encryptedId: tag.encryptedId });
      expect(response.status).toBe(201);
    }
    const onFirst = await listThreads(userCtx(owner), { page: 1, limit: 10, tagId: first.id });
    expect(onFirst.total).toBe(2);
    expect(onFirst.items.every((item) => item.tagId === first.id)).toBe(true);
    expect((await listThreads(userCtx(owner), { page: 1, limit: 10 })).total).toBe(3);

    const byApi = await json<{ data: { tagId: string }[]; meta: { total: number } }>(await call(messagesRoute, apiRequest(`/api/v1/messages?tagId=${second.id}`, { headers: bearer(owner.accessToken) })));
    expect(byApi.meta.total).toBe(1);
    expect(byApi.data.map((item) => item.tagId)).toEqual([second.id]);
    const stranger = await registerAccount();
    const theirs = await json<{ meta: { total: number } }>(await call(messagesRoute, apiRequest(`/api/v1/messages?tagId=${first.id}`, { headers: bearer(stranger.accessToken) })));
    expect(theirs.meta.total).toBe(0);
    expect((await call(messagesRoute, apiRequest("/api/v1/messages?tagId=nope", { headers: bearer(owner.accessToken) }))).status).toBe(400);
  });
});

describe("thumbnailsOf: the tag list's thumbnails", () => {
  it("gives each of the caller's tags its primary photo (else its first), none for tags without photos or someone else's", async () => {
    const owner = await registerAccount();
    const png = () => sharp({ create: { width: 16, height: 16, channels: 3, background: "#36c" } }).png().toBuffer();
    const withPhotos = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Keys" });
    const firstOnly = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Bike" });
    const bare = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Bag" });
    await addPhoto(userCtx(owner), withPhotos.id, { bytes: await png() });
    const primary = await addPhoto(userCtx(owner), withPhotos.id, { bytes: await png() }, true);
    const first = await addPhoto(userCtx(owner), firstOnly.id, { bytes: await png() });
    const thumbnails = await thumbnailsOf(userCtx(owner), [withPhotos.id, firstOnly.id, bare.id]);
    expect(Object.fromEntries(thumbnails)).toEqual({ [withPhotos.id]: primary.url, [firstOnly.id]: first.url });
    expect((await thumbnailsOf(userCtx(await registerAccount()), [withPhotos.id])).size).toBe(0);
    expect((await thumbnailsOf(userCtx(owner), [])).size).toBe(0);
  });
});
