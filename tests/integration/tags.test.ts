import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDatabase, schema } from "@/db/client";
import { POST as mintRoute } from "@/app/api/v1/admin/tags/batch/route";
import { GET as listRoute } from "@/app/api/v1/tags/route";
import { DELETE as releaseRoute, GET as getRoute, PATCH as patchRoute } from "@/app/api/v1/tags/[id]/route";
import { PATCH as statusRoute } from "@/app/api/v1/tags/[id]/status/route";
import { POST as bulkRoute } from "@/app/api/v1/tags/bulk-activate/route";
import { POST as createKeyRoute } from "@/app/api/v1/auth/api-keys/route";
import { env } from "@/lib/env";
import { countTagsByStatus, type MintedTag } from "@/lib/services/tags/inventory";
import type { TagRecord } from "@/lib/services/tags/records";
import { apiRequest, call, json } from "../support/http";
import { bearer, registerAccount, setRole, type TestAccount } from "../support/auth";
import { activateRequest, claimTestTag, forceTagStatus, giveTestTag, mintTestTags, setTier, tagEventsOf, tagRow } from "../support/tags";

type ErrorBody = { success: false; error: { code: string; message: string; details?: Record<string, unknown> } };
type Headers = Record<string, string>;

const CODE_PATTERN = /^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/;
const RECORD_KEYS = ["activatedAt", "code", "createdAt", "encryptedId", "id", "itemName", "lastScannedAt", "lostMessage", "scanCount", "scanUrl", "status", "tagType", "updatedAt", "visibility"];

const mint = (headers: Headers, body: unknown) => call(mintRoute, apiRequest("/api/v1/admin/tags/batch", { method: "POST", headers, body }));
const bulk = (headers: Headers, body: unknown) => call(bulkRoute, apiRequest("/api/v1/tags/bulk-activate", { method: "POST", headers, body }));
const list = (headers: Headers, query = "") => call(listRoute, apiRequest(`/api/v1/tags${query}`, { headers }));
const getTag = (headers: Headers, id: string) => call(getRoute, apiRequest(`/api/v1/tags/${id}`, { headers }), { id });
const patchTag = (headers: Headers, id: string, body: unknown) => call(patchRoute, apiRequest(`/api/v1/tags/${id}`, { method: "PATCH", headers, body }), { id });
const releaseTag = (headers: Headers, id: string) => call(releaseRoute, apiRequest(`/api/v1/tags/${id}`, { method: "DELETE", headers }), { id });
const setStatus = (headers: Headers, id: string, body: unknown) => call(statusRoute, apiRequest(`/api/v1/tags/${id}/status`, { method: "PATCH", headers, body }), { id });

async function expectError(response: Response, status: number, code: string): Promise<ErrorBody["error"]> {
  const body = await json<ErrorBody>(response);
  expect({ status: response.status, code: body.error?.code }).toEqual({ status, code });
  expect(body.success).toBe(false);
  return body.error;
}

async function data<T>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return (JSON.parse(text) as { data: T }).data;
}

async function adminAccount(): Promise<TestAccount> {
  const admin = await registerAccount();
  await setRole(admin.id, "ADMIN");
  return admin;
}

const lowerNoHyphen = (code: string) => code.replace("-", "").toLowerCase();

describe("POST /admin/tags/batch (mint)", () => {
  it("mints unowned PENDING_SETUP tags with Crockford codes and opaque unique scan ids", async () => {
    const admin = await adminAccount();
    const minted = await data<MintedTag[]>(await mint(bearer(admin.accessToken), { count: 25, tagType: "PET" }), 201);
    expect(minted).toHaveLength(25);
    for (const tag of minted) {
      expect(Object.keys(tag).sort()).toEqual(["code", "encryptedId", "id", "scanUrl"]);
      expect(tag.code).toMatch(CODE_PATTERN);
      expect(tag.encryptedId).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(Buffer.from(tag.encryptedId, "base64url").length).toBeGreaterThanOrEqual(16);
      expect(tag.encryptedId).not.toContain(tag.code.replace("-", ""));
      expect(tag.encryptedId).not.toContain(tag.id);
      expect(tag.scanUrl).toBe(`${env.APP_URL.replace(/\/+$/, "")}/t/${tag.encryptedId}`);
      const row = await tagRow(tag.id);
      expect(row).toMatchObject({ ownerId: null, status: "PENDING_SETUP", tagType: "PET", code: tag.code.replace("-", "") });
    }
    expect(new Set(minted.map((t) => t.encryptedId)).size).toBe(25);
    expect(new Set(minted.map((t) => t.code)).size).toBe(25);
  });

  it("defaults to GENERAL and mints up to 1000 at once, all unique", async () => {
    const admin = await adminAccount();
    const minted = await data<MintedTag[]>(await mint(bearer(admin.accessToken), { count: 1000 }), 201);
    expect(minted).toHaveLength(1000);
    expect(new Set(minted.map((t) => t.code)).size).toBe(1000);
    expect(new Set(minted.map((t) => t.encryptedId)).size).toBe(1000);
    expect((await tagRow(minted[0]!.id))!.tagType).toBe("GENERAL");
  });

  it("validates count 1..1000 and the tag type", async () => {
    const admin = await adminAccount();
    for (const body of [{}, { count: 0 }, { count: 1001 }, { count: 1.5 }, { count: "5" }, { count: -3 }, { count: 2, tagType: "BOAT" }]) {
      const error = await expectError(await mint(bearer(admin.accessToken), body), 400, "VALIDATION_ERROR");
      expect(error.details).toHaveProperty("fieldErrors");
    }
  });

  it("is for admins only: anonymous 401, USER 403, SUPER_ADMIN allowed", async () => {
    await expectError(await mint({}, { count: 1 }), 401, "UNAUTHORIZED");
    const user = await registerAccount();
    await expectError(await mint(bearer(user.accessToken), { count: 1 }), 403, "FORBIDDEN");
    await setRole(user.id, "SUPER_ADMIN");
    expect((await mint(bearer(user.accessToken), { count: 1 })).status).toBe(201);
  });
});

describe("POST /tags/activate", () => {
  it("claims a tag by its code in lower case without the hyphen → 201 PENDING_SETUP, with an event", async () => {
    const user = await registerAccount();
    const [minted] = await mintTestTags(1);
    const record = await data<TagRecord>(await activateRequest(user.accessToken, { code: lowerNoHyphen(minted!.code) }), 201);
    expect(Object.keys(record).sort()).toEqual(RECORD_KEYS);
    expect(record).toMatchObject({
      id: minted!.id,
      code: minted!.code,
      encryptedId: minted!.encryptedId,
      scanUrl: minted!.scanUrl,
      status: "PENDING_SETUP",
      tagType: "GENERAL",
      itemName: null,
      lostMessage: null,
      visibility: "PUBLIC",
      scanCount: 0,
      lastScannedAt: null,
      activatedAt: null,
    });
    expect((await tagRow(minted!.id))!.ownerId).toBe(user.id);
    expect(await tagEventsOf(minted!.id)).toEqual([expect.objectContaining({ fromStatus: null, toStatus: "PENDING_SETUP", actorUserId: user.id, actorKind: "user" })]);
  });

  it("accepts mixed case, spaces and the look-alikes O and I/L, and takes tagType and itemName", async () => {
    const user = await registerAccount();
    const [a, b] = await mintTestTags(2);
    const spaced = ` ${a!.code.slice(0, 5).toLowerCase()} ${a!.code.slice(6)} `;
    expect((await activateRequest(user.accessToken, { code: spaced })).status).toBe(201);
    const typed = await data<TagRecord>(await activateRequest(user.accessToken, { code: b!.code.replace(/0/g, "O").replace(/1/g, "l"), tagType: "PET", itemName: "Rex" }), 201);
    expect(typed).toMatchObject({ id: b!.id, status: "PENDING_SETUP", tagType: "PET", itemName: "Rex" });
  });

  it("answers an unknown or impossible code with 404 and a missing code with 400", async () => {
    const user = await registerAccount();
    await expectError(await activateRequest(user.accessToken, { code: "ZZZZZ-ZZZZZ" }), 404, "NOT_FOUND");
    await expectError(await activateRequest(user.accessToken, { code: "ABC" }), 404, "NOT_FOUND");
    await expectError(await activateRequest(user.accessToken, { code: "UUUUU-UUUUU" }), 404, "NOT_FOUND");
    await expectError(await activateRequest(user.accessToken, {}), 400, "VALIDATION_ERROR");
    await expectError(await activateRequest(user.accessToken, { code: "" }), 400, "VALIDATION_ERROR");
    const [minted] = await mintTestTags(1);
    await expectError(await activateRequest(user.accessToken, { code: minted!.code, tagType: "BOAT" }), 400, "VALIDATION_ERROR");
  });

  it("refuses a code already claimed, by someone else or by the caller, with 409", async () => {
    const first = await registerAccount();
    const second = await registerAccount();
    const [minted] = await mintTestTags(1);
    expect((await activateRequest(first.accessToken, { code: minted!.code })).status).toBe(201);
    await expectError(await activateRequest(second.accessToken, { code: minted!.code }), 409, "CONFLICT");
    await expectError(await activateRequest(first.accessToken, { code: lowerNoHyphen(minted!.code) }), 409, "CONFLICT");
    expect((await tagRow(minted!.id))!.ownerId).toBe(first.id);
  });

  it("enforces the FREE limit of 5 with 422 { tier, limit }; DEACTIVATED tags don't count; PRO allows more", async () => {
    const user = await registerAccount();
    const owned: TagRecord[] = [];
    for (let i = 0; i < 5; i += 1) owned.push(await claimTestTag(user));
    const [sixth, seventh] = await mintTestTags(2);
    const error = await expectError(await activateRequest(user.accessToken, { code: sixth!.code }), 422, "UNPROCESSABLE_ENTITY");
    expect(error.details).toEqual({ tier: "FREE", limit: 5 });
    expect((await tagRow(sixth!.id))!.ownerId).toBeNull();

    await forceTagStatus(owned[0]!.id, "DEACTIVATED");
    expect((await activateRequest(user.accessToken, { code: sixth!.code })).status).toBe(201);
    await expectError(await activateRequest(user.accessToken, { code: seventh!.code }), 422, "UNPROCESSABLE_ENTITY");

    await setTier(user.id, "PRO");
    expect((await activateRequest(user.accessToken, { code: seventh!.code })).status).toBe(201);
  });

  it("holds the limit under concurrent claims", async () => {
    const user = await registerAccount();
    const minted = await mintTestTags(7);
    const responses = await Promise.all(minted.map((tag) => activateRequest(user.accessToken, { code: tag.code })));
    expect(responses.map((r) => r.status).sort()).toEqual([201, 201, 201, 201, 201, 422, 422]);
    expect(await data<TagRecord[]>(await list(bearer(user.accessToken)))).toHaveLength(5);
  });

  it("needs a credential", async () => {
    const [minted] = await mintTestTags(1);
    await expectError(await call((await import("@/app/api/v1/tags/activate/route")).POST, apiRequest("/api/v1/tags/activate", { method: "POST", body: { code: minted!.code } })), 401, "UNAUTHORIZED");
  });
});

describe("POST /tags/bulk-activate", () => {
  it("claims each code on its own and reports every failure by code", async () => {
    const user = await registerAccount();
    const other = await registerAccount();
    const [a, b, taken] = await mintTestTags(3);
    expect((await activateRequest(other.accessToken, { code: taken!.code })).status).toBe(201);
    const codes = [lowerNoHyphen(a!.code), b!.code, "ZZZZZ-ZZZZZ", taken!.code, a!.code];
    const result = await data<{ activated: TagRecord[]; failed: { code: string; error: { code: string; message: string } }[] }>(
      await bulk(bearer(user.accessToken), { codes, tagType: "TRAVEL" }),
    );
    expect(result.activated.map((t) => t.id)).toEqual([a!.id, b!.id]);
    expect(result.activated.every((t) => t.status === "PENDING_SETUP" && t.tagType === "TRAVEL")).toBe(true);
    expect(result.failed.map((f) => [f.code, f.error.code])).toEqual([
      ["ZZZZZ-ZZZZZ", "NOT_FOUND"],
      [taken!.code, "CONFLICT"],
      [a!.code, "CONFLICT"],
    ]);
    expect(result.failed.every((f) => typeof f.error.message === "string" && f.error.message.length > 0)).toBe(true);
    expect((await tagRow(a!.id))!.ownerId).toBe(user.id);
    expect((await tagRow(taken!.id))!.ownerId).toBe(other.id);
  });

  it("stops at the tier limit per code (422 in failed) and validates 1..100 codes", async () => {
    const user = await registerAccount();
    for (let i = 0; i < 4; i += 1) await claimTestTag(user);
    const [a, b] = await mintTestTags(2);
    const result = await data<{ activated: TagRecord[]; failed: { code: string; error: { code: string } }[] }>(await bulk(bearer(user.accessToken), { codes: [a!.code, b!.code] }));
    expect(result.activated.map((t) => t.id)).toEqual([a!.id]);
    expect(result.failed).toEqual([{ code: b!.code, error: expect.objectContaining({ code: "UNPROCESSABLE_ENTITY" }) }]);
    expect((await tagRow(b!.id))!.ownerId).toBeNull();

    await expectError(await bulk(bearer(user.accessToken), { codes: [] }), 400, "VALIDATION_ERROR");
    await expectError(await bulk(bearer(user.accessToken), { codes: Array.from({ length: 101 }, () => "ZZZZZ-ZZZZZ") }), 400, "VALIDATION_ERROR");
    await expectError(await bulk(bearer(user.accessToken), {}), 400, "VALIDATION_ERROR");
    await expectError(await bulk({}, { codes: [a!.code] }), 401, "UNAUTHORIZED");
  });
});

describe("GET /tags", () => {
  it("lists only the caller's tags, paginated, filtered by status and type", async () => {
    const user = await registerAccount();
    const other = await registerAccount();
    const general = await claimTestTag(user, { itemName: "Keys" });
    const pet = await claimTestTag(user, { tagType: "PET", status: "LOST" });
    const device = await claimTestTag(user, { tagType: "DEVICE", status: "ACTIVE" });
    const foreign = await claimTestTag(other, { status: "ACTIVE" });

    const all = await list(bearer(user.accessToken));
    const body = await json<{ success: boolean; data: TagRecord[]; meta: { total: number; page: number; totalPages: number } }>(all);
    expect(all.status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.meta).toMatchObject({ total: 3, page: 1, totalPages: 1 });
    expect(body.data.map((t) => t.id).sort()).toEqual([general.id, pet.id, device.id].sort());
    expect(body.data.map((t) => t.id)).not.toContain(foreign.id);
    expect(Object.keys(body.data[0]!).sort()).toEqual(RECORD_KEYS);

    const page1 = await json<{ data: TagRecord[]; meta: { total: number; page: number; totalPages: number } }>(await list(bearer(user.accessToken), "?page=1&limit=2"));
    const page2 = await json<{ data: TagRecord[]; meta: { total: number; page: number; totalPages: number } }>(await list(bearer(user.accessToken), "?page=2&limit=2"));
    expect(page1.meta).toMatchObject({ total: 3, page: 1, totalPages: 2 });
    expect(page2.meta).toMatchObject({ total: 3, page: 2, totalPages: 2 });
    expect(page1.data).toHaveLength(2);
    expect(page2.data).toHaveLength(1);
    expect(new Set([...page1.data, ...page2.data].map((t) => t.id)).size).toBe(3);
    const page3 = await json<{ data: TagRecord[]; meta: { total: number } }>(await list(bearer(user.accessToken), "?page=3&limit=2"));
    expect(page3.data).toEqual([]);

    expect((await data<TagRecord[]>(await list(bearer(user.accessToken), "?status=LOST"))).map((t) => t.id)).toEqual([pet.id]);
    expect((await data<TagRecord[]>(await list(bearer(user.accessToken), "?tagType=DEVICE"))).map((t) => t.id)).toEqual([device.id]);
    expect(await data<TagRecord[]>(await list(bearer(user.accessToken), "?status=ACTIVE&tagType=PET"))).toEqual([]);
    expect((await data<TagRecord[]>(await list(bearer(other.accessToken)))).map((t) => t.id)).toEqual([foreign.id]);
  });

  it("validates pagination and filters, and needs a credential", async () => {
    const user = await registerAccount();
    for (const query of ["?page=0", "?limit=0", "?limit=101", "?page=x", "?status=BROKEN", "?tagType=BOAT"]) {
      await expectError(await list(bearer(user.accessToken), query), 400, "VALIDATION_ERROR");
    }
    await expectError(await list({}), 401, "UNAUTHORIZED");
  });
});

describe("countTagsByStatus (the dashboard overview)", () => {
  it("counts only the caller's tags, with every status present", async () => {
    const owner = await registerAccount();
    const other = await registerAccount();
    for (const status of ["ACTIVE", "ACTIVE", "LOST", "PENDING_SETUP"] as const) await giveTestTag(owner.id, { status });
    await giveTestTag(other.id, { status: "STOLEN" });
    const ctx = { actor: { kind: "user" as const, userId: owner.id, role: "USER" as const, ip: "203.0.113.10" }, db: getDatabase().db };
    expect(await countTagsByStatus(ctx)).toEqual({ PENDING_SETUP: 1, ACTIVE: 2, LOST: 1, FOUND: 0, STOLEN: 0, DEACTIVATED: 0, EXPIRED: 0 });
  });
});

describe("GET, PATCH and DELETE /tags/:id", () => {
  it("gets and edits the caller's tag", async () => {
    const user = await registerAccount();
    const tag = await claimTestTag(user, { tagType: "PET" });
    expect(await data<TagRecord>(await getTag(bearer(user.accessToken), tag.id))).toEqual(tag);

    const renamed = await data<TagRecord>(await patchTag(bearer(user.accessToken), tag.id, { itemName: "  Rex  ", tagType: "DEVICE", status: "ACTIVE" }));
    expect(renamed).toMatchObject({ id: tag.id, itemName: "Rex", tagType: "DEVICE", status: "PENDING_SETUP" });
    const cleared = await data<TagRecord>(await patchTag(bearer(user.accessToken), tag.id, { itemName: null }));
    expect(cleared.itemName).toBeNull();
    await expectError(await patchTag(bearer(user.accessToken), tag.id, { itemName: "" }), 400, "VALIDATION_ERROR");
    await expectError(await patchTag(bearer(user.accessToken), tag.id, { itemName: "x".repeat(101) }), 400, "VALIDATION_ERROR");
    await expectError(await patchTag(bearer(user.accessToken), tag.id, { tagType: "BOAT" }), 400, "VALIDATION_ERROR");
  });

  it("releases a tag: profile rows go, it returns to inventory with a new encryptedId and can be claimed by someone else", async () => {
    const user = await registerAccount();
    const next = await registerAccount();
    const tag = await claimTestTag(user, { tagType: "PET", itemName: "Rex" });
    const db = getDatabase().db;
    await db.insert(schema.tagProfiles).values({ tagId: tag.id, description: "Brown dog", ownerName: "Ada" });
    await db.insert(schema.petProfiles).values({ tagId: tag.id, petName: "Rex", species: "Dog" });
    await forceTagStatus(tag.id, "LOST", { lostMessage: "Call me" });

    const released = await data<{ message: string }>(await releaseTag(bearer(user.accessToken), tag.id));
    expect(released.message).toEqual(expect.any(String));
    const row = await tagRow(tag.id);
    expect(row).toMatchObject({ ownerId: null, status: "PENDING_SETUP", itemName: null, lostMessage: null, activatedAt: null, scanCount: 0 });
    expect(row!.encryptedId).not.toBe(tag.encryptedId);
    expect(row!.code).toBe(tag.code.replace("-", ""));
    expect(await db.select().from(schema.tagProfiles).where(eq(schema.tagProfiles.tagId, tag.id))).toEqual([]);
    expect(await db.select().from(schema.petProfiles).where(eq(schema.petProfiles.tagId, tag.id))).toEqual([]);

    await expectError(await getTag(bearer(user.accessToken), tag.id), 404, "NOT_FOUND");
    expect(await data<TagRecord[]>(await list(bearer(user.accessToken)))).toEqual([]);
    await expectError(await releaseTag(bearer(user.accessToken), tag.id), 404, "NOT_FOUND");

    const reclaimed = await data<TagRecord>(await activateRequest(next.accessToken, { code: tag.code }), 201);
    expect(reclaimed).toMatchObject({ id: tag.id, status: "PENDING_SETUP", tagType: "GENERAL", itemName: null, encryptedId: row!.encryptedId });
    expect(reclaimed.scanUrl).not.toBe(tag.scanUrl);
  });
});

describe("ownership isolation and credentials on every tag route", () => {
  it("answers another user's tag, a missing tag and a malformed id with 404, changing nothing", async () => {
    const owner = await registerAccount();
    const intruder = await registerAccount();
    const tag = await claimTestTag(owner, { itemName: "Wallet", status: "ACTIVE" });
    const as = bearer(intruder.accessToken);
    for (const id of [tag.id, randomUUID(), "not-a-uuid", "123"]) {
      await expectError(await getTag(as, id), 404, "NOT_FOUND");
      await expectError(await patchTag(as, id, { itemName: "Mine now" }), 404, "NOT_FOUND");
      await expectError(await setStatus(as, id, { status: "LOST" }), 404, "NOT_FOUND");
      await expectError(await releaseTag(as, id), 404, "NOT_FOUND");
    }
    expect(await tagRow(tag.id)).toMatchObject({ ownerId: owner.id, itemName: "Wallet", status: "ACTIVE" });
    expect(await data<TagRecord[]>(await list(as))).toEqual([]);
  });

  it("answers anonymous requests with 401 on every tag route", async () => {
    const owner = await registerAccount();
    const tag = await claimTestTag(owner);
    await expectError(await getTag({}, tag.id), 401, "UNAUTHORIZED");
    await expectError(await patchTag({}, tag.id, { itemName: "x" }), 401, "UNAUTHORIZED");
    await expectError(await setStatus({}, tag.id, { status: "ACTIVE" }), 401, "UNAUTHORIZED");
    await expectError(await releaseTag({}, tag.id), 401, "UNAUTHORIZED");
    await expectError(await getTag(bearer("not-a-token"), tag.id), 401, "UNAUTHORIZED");
  });

  it("accepts an API key on the tag routes", async () => {
    const user = await registerAccount();
    const created = await data<{ key: string }>(await call(createKeyRoute, apiRequest("/api/v1/auth/api-keys", { method: "POST", headers: bearer(user.accessToken), body: { name: "tags" } })), 201);
    const key = { "x-api-key": created.key };
    const [a, b] = await mintTestTags(2);
    const activateWithKey = (await import("@/app/api/v1/tags/activate/route")).POST;
    const tag = await data<TagRecord>(await call(activateWithKey, apiRequest("/api/v1/tags/activate", { method: "POST", headers: key, body: { code: a!.code } })), 201);
    expect((await data<{ activated: TagRecord[] }>(await bulk(key, { codes: [b!.code] }))).activated).toHaveLength(1);
    expect((await data<TagRecord[]>(await list(key))).map((t) => t.id).sort()).toEqual([a!.id, b!.id].sort());
    expect((await data<TagRecord>(await getTag(key, tag.id))).id).toBe(tag.id);
    expect((await data<TagRecord>(await patchTag(key, tag.id, { itemName: "Keys" }))).status).toBe("ACTIVE");
    expect((await data<TagRecord>(await setStatus(key, tag.id, { status: "LOST" }))).status).toBe("LOST");
    expect((await releaseTag(key, tag.id)).status).toBe(200);
    await expectError(await getTag({ "x-api-key": "tag_dev_" + "x".repeat(32) }, b!.id), 401, "UNAUTHORIZED");
  });
});
