import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { PATCH as profilePatch } from "@/app/api/v1/profiles/[tagId]/route";
import { PUT as putPetRoute } from "@/app/api/v1/profiles/[tagId]/pet/route";
import { DELETE as deletePhotoRoute } from "@/app/api/v1/profiles/[tagId]/photos/[photoId]/route";
import { DELETE as deleteRewardRoute, POST as createRewardRoute } from "@/app/api/v1/rewards/[id]/route";
import { PUT as putEmergencyRoute } from "@/app/api/v1/emergency/route";
import { PATCH as patchRelayRoute } from "@/app/api/v1/tags/[id]/relay/route";
import { PATCH as statusRoute } from "@/app/api/v1/tags/[id]/status/route";
import { POST as offerTransferRoute } from "@/app/api/v1/tags/[id]/transfer/route";
import { POST as acceptTransferRoute } from "@/app/api/v1/tags/transfers/[id]/accept/route";
import { getDatabase, schema } from "@/db/client";
import { observeStatements } from "@/db/statement-observer";
import { scanTag } from "@/lib/services/finder";
import { forgetKnownRepeats, recordScan } from "@/lib/services/scans";
import { clearViewCache, publicViewOf, VIEW_CACHE_ENTRIES } from "@/lib/services/finder/view";
import { notify } from "@/lib/services/notifications";
import type { PublicScanView } from "@/lib/services/scans";
import type { Visitor } from "@/lib/services/visitor";
import { systemContext } from "@/lib/services/context";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, call, json, nextTestIp } from "../support/http";
import { relayOwner } from "../support/relay";
import { giveTestTag, tagRow } from "../support/tags";
import { USER_AGENTS as UA } from "../support/user-agents";

/**
 * The scan's own cost (issue 30): a scan is counted and stored in one statement, in a transaction only when
 * it may be REAL (its notification goes in the same transaction), and the finder's view is composed from
 * the scanned row and reads kept per process while the tag's view_version stays the same. Triggers bump the
 * version on every write to what the view reads (migration 0033), so the next scan shows every change.
 */

const db = () => getDatabase().db;

function visitorAt(ip: string, userAgent: string = UA.iphoneSafari): Visitor {
  return { ip, userAgent, geo: null, method: "GET", prefetch: false, acceptLanguage: "en" };
}

/** A scan as the API and the finder page make it, by a visitor who is not signed in. */
const scanAs = (encryptedId: string, ip: string, userAgent?: string) => scanTag({ actor: { kind: "public", ip }, db: db() }, encryptedId, visitorAt(ip, userAgent));

/** The statements `work` sends (BEGIN and COMMIT included), by their text. */
async function statementsOf<T>(work: () => Promise<T>): Promise<{ value: T; statements: string[] }> {
  const statements: string[] = [];
  observeStatements((text) => statements.push(text));
  try {
    return { value: await work(), statements };
  } finally {
    observeStatements(undefined);
  }
}

afterEach(() => observeStatements(undefined));

async function versionOf(tagId: string): Promise<number> {
  return (await tagRow(tagId))!.viewVersion;
}

/** An ACTIVE pet tag with a general profile, a pet profile and a photo. */
async function petTag(owner: TestAccount) {
  const tag = await giveTestTag(owner.id, { tagType: "PET", itemName: "Rex", status: "ACTIVE" });
  await db().insert(schema.tagProfiles).values({ tagId: tag.id, description: "Brown beagle", ownerName: "Ada", emergencyVisible: true });
  await db().insert(schema.petProfiles).values({ tagId: tag.id, petName: "Rex", species: "Dog" });
  await addPhoto(tag.id);
  return (await tagRow(tag.id))!;
}

async function addPhoto(tagId: string, isPrimary = false): Promise<string> {
  const [row] = await db()
    .insert(schema.tagPhotos)
    .values({ tagId, contentType: "image/png", data: Buffer.from("png"), byteSize: 3, width: 1, height: 1, isPrimary })
    .returning({ id: schema.tagPhotos.id });
  return row!.id;
}

/**
 * Scans (the same client each time, so after the first the scan is a REPEAT and its view comes from the
 * cache) and checks the answer is what an uncached read of the tag gives now.
 */
async function scanMatchesFreshView(tag: { id: string; encryptedId: string }, ip: string): Promise<PublicScanView> {
  const view = await scanAs(tag.encryptedId, ip);
  expect(view).toEqual(await publicViewOf(db(), (await tagRow(tag.id))!));
  return view;
}

describe("the statements of a scan", () => {
  it("a repeat scan of a client whose REAL scan this process stored: the one statement, no transaction", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    const ip = nextTestIp();
    await scanAs(tag.encryptedId, ip);
    const repeat = await statementsOf(() => scanAs(tag.encryptedId, ip));
    expect(repeat.statements).toHaveLength(1);
    expect(repeat.statements[0]).toMatch(/^\s*with counted as \(\s*update tags/);
    const rows = await db().select({ scanClass: schema.scans.scanClass }).from(schema.scans).where(eq(schema.scans.tagId, tag.id)).orderBy(schema.scans.scannedAt);
    expect(rows.map((row) => row.scanClass)).toEqual(["REAL", "REPEAT"]);
  });

  it("a client believed to repeat whose REAL scan has gone (the tag released meanwhile) is REAL again, and the owner is told", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    const ip = nextTestIp();
    await scanAs(tag.encryptedId, ip);
    await db().delete(schema.scans).where(eq(schema.scans.tagId, tag.id));
    await scanAs(tag.encryptedId, ip);
    const rows = await db().select({ scanClass: schema.scans.scanClass }).from(schema.scans).where(eq(schema.scans.tagId, tag.id));
    expect(rows.map((row) => row.scanClass)).toEqual(["REAL"]);
    const alerts = await db().select({ type: schema.notifications.type }).from(schema.notifications).where(eq(schema.notifications.userId, owner.id));
    expect(alerts.filter((row) => row.type === "TAG_SCANNED")).toHaveLength(2);
  });

  it("a repeat scan with the view cached, its REAL scan stored by another instance: BEGIN, the one statement that counts and stores it, COMMIT", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    const ip = nextTestIp();
    clearViewCache();
    const cold = await statementsOf(() => scanAs(tag.encryptedId, ip));
    // The first scan (REAL) also reads the view, after its transaction.
    expect(cold.statements.slice(0, 2)[0]).toBe("BEGIN");
    const commitAt = cold.statements.indexOf("COMMIT");
    expect(cold.statements.length - commitAt - 1).toBe(6);

    // As if the REAL scan had been another instance's: this process does not know the client repeats.
    forgetKnownRepeats();
    const repeat = await statementsOf(() => scanAs(tag.encryptedId, ip));
    expect(repeat.statements).toHaveLength(3);
    expect(repeat.statements[0]).toBe("BEGIN");
    expect(repeat.statements[1]).toMatch(/^\s*with counted as \(\s*update tags/);
    expect(repeat.statements[2]).toBe("COMMIT");
    expect(repeat.value).toEqual(await publicViewOf(db(), (await tagRow(tag.id))!));

    // That REPEAT told this process how long the client's scans stay REPEAT: the next one is alone.
    const learned = await statementsOf(() => scanAs(tag.encryptedId, ip));
    expect(learned.statements).toHaveLength(1);

    const rows = await db().select({ scanClass: schema.scans.scanClass }).from(schema.scans).where(eq(schema.scans.tagId, tag.id)).orderBy(schema.scans.scannedAt);
    expect(rows.map((row) => row.scanClass)).toEqual(["REAL", "REPEAT", "REPEAT"]);
    expect((await tagRow(tag.id))!.scanCount).toBe(3);
  });

  it("a REPEAT whose REAL scan's window is nearly over teaches nothing: the next scans take the transaction, and past the window one is REAL again", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    const ip = nextTestIp();
    await scanAs(tag.encryptedId, ip);
    // The REAL scan 9 min 30 s ago (another instance's): 30 s of its window left, less than the margin kept.
    await db().update(schema.scans).set({ scannedAt: sql`now() - interval '570 seconds'` }).where(eq(schema.scans.tagId, tag.id));
    forgetKnownRepeats();
    for (let i = 0; i < 2; i++) {
      const repeat = await statementsOf(() => scanAs(tag.encryptedId, ip));
      expect(repeat.statements[0]).toBe("BEGIN");
    }
    await db().update(schema.scans).set({ scannedAt: sql`now() - interval '11 minutes'` }).where(eq(schema.scans.tagId, tag.id));
    await scanAs(tag.encryptedId, ip);
    const rows = await db().select({ scanClass: schema.scans.scanClass }).from(schema.scans).where(eq(schema.scans.tagId, tag.id)).orderBy(schema.scans.scannedAt);
    expect(rows.map((row) => row.scanClass)).toEqual(["REAL", "REPEAT", "REPEAT", "REAL"]);
    const told = await db().select({ type: schema.notifications.type }).from(schema.notifications).where(eq(schema.notifications.userId, owner.id));
    expect(told.filter((row) => row.type === "TAG_SCANNED")).toHaveLength(2);
  });

  it("a REAL scan with the view cached: the repeat scan's three, and the notification's own statements inside the same transaction", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    await scanAs(tag.encryptedId, nextTestIp());
    // What notify() itself sends for this owner, in a transaction of its own.
    const told = await statementsOf(() => notify(systemContext(db()), { userId: owner.id, type: "TAG_SCANNED", title: "t", body: "b", data: { tagId: tag.id } }));
    const notifyStatements = told.statements.length - 2;

    const real = await statementsOf(() => scanAs(tag.encryptedId, nextTestIp()));
    expect(real.statements[0]).toBe("BEGIN");
    expect(real.statements[1]).toMatch(/^\s*with counted as/);
    expect(real.statements.at(-1)).toBe("COMMIT");
    expect(real.statements).toHaveLength(3 + notifyStatements);
    const alerts = await db().select().from(schema.notifications).where(eq(schema.notifications.userId, owner.id));
    expect(alerts.filter((row) => row.type === "TAG_SCANNED")).toHaveLength(3);
  });

  it("a bot's scan (never told to anyone) is one statement, no transaction", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    await scanAs(tag.encryptedId, nextTestIp());
    const bot = await statementsOf(() => scanAs(tag.encryptedId, nextTestIp(), UA.googlebot));
    expect(bot.statements).toHaveLength(1);
    const [row] = await db().select({ scanClass: schema.scans.scanClass }).from(schema.scans).where(eq(schema.scans.tagId, tag.id)).orderBy(sql`${schema.scans.scannedAt} desc`).limit(1);
    expect(row!.scanClass).toBe("BOT");
    expect((await tagRow(tag.id))!.scanCount).toBe(2);
  });

  it("answers the tag row as stored after the scan, every column mapped (timestamps as dates, the version as a number), updatedAt untouched", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    await db().update(schema.tags).set({ lostMessage: "Please call", lastSeenPlace: "Park", stolenReportedAt: new Date() }).where(eq(schema.tags.id, tag.id));
    await addPhoto(tag.id);
    const editedAt = (await tagRow(tag.id))!.updatedAt;
    for (const userAgent of [UA.iphoneSafari, UA.googlebot]) {
      const ip = nextTestIp();
      const returned = await recordScan({ actor: { kind: "public", ip }, db: db() }, tag.encryptedId, visitorAt(ip, userAgent));
      const stored = (await tagRow(tag.id))!;
      expect(returned).toEqual(stored);
      expect(returned.lastScannedAt).toBeInstanceOf(Date);
      expect(typeof returned.viewVersion).toBe("number");
      expect(returned.viewVersion).toBeGreaterThan(0);
      // A scan is not an edit of the tag.
      expect(returned.updatedAt).toEqual(editedAt);
    }
  });

  it("an unknown address is NotFound (SCAN_TAG_NOT_FOUND, 404 upstream) and stores nothing, whichever path", async () => {
    const before = (await db().select({ n: sql<number>`count(*)::int` }).from(schema.scans))[0]!.n;
    await expect(scanAs("no-such-address", nextTestIp())).rejects.toMatchObject({ name: "NotFoundError", code: "NOT_FOUND", message: "No tag has this scan address." });
    await expect(scanAs("no-such-address", nextTestIp(), UA.googlebot)).rejects.toMatchObject({ name: "NotFoundError", message: "No tag has this scan address." });
    expect((await db().select({ n: sql<number>`count(*)::int` }).from(schema.scans))[0]!.n).toBe(before);
  });

  it("the owner's own scan (signed in) is OWNER, answered from the row and the cache like any other", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    const ip = nextTestIp();
    const view = await scanTag({ actor: { kind: "user", userId: owner.id, role: "USER", ip }, db: db() }, tag.encryptedId, visitorAt(ip));
    expect(view).toEqual(await publicViewOf(db(), (await tagRow(tag.id))!));
    const rows = await db().select({ scanClass: schema.scans.scanClass }).from(schema.scans).where(eq(schema.scans.tagId, tag.id));
    expect(rows.map((row) => row.scanClass)).toEqual(["OWNER"]);
    expect(await db().select().from(schema.notifications).where(eq(schema.notifications.userId, owner.id))).toHaveLength(0);
  });

  it("ten simultaneous scans from one client (view cached or not): ten counted, one REAL, one alert, every answer the same view", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    clearViewCache();
    const ip = nextTestIp();
    const views = await Promise.all(Array.from({ length: 10 }, () => scanAs(tag.encryptedId, ip)));
    const fresh = await publicViewOf(db(), (await tagRow(tag.id))!);
    for (const view of views) expect(view).toEqual(fresh);
    const rows = await db().select({ scanClass: schema.scans.scanClass }).from(schema.scans).where(eq(schema.scans.tagId, tag.id));
    expect(rows.filter((row) => row.scanClass === "REAL")).toHaveLength(1);
    expect(rows.filter((row) => row.scanClass === "REPEAT")).toHaveLength(9);
    expect((await tagRow(tag.id))!.scanCount).toBe(10);
    const alerts = await db().select().from(schema.notifications).where(eq(schema.notifications.userId, owner.id));
    expect(alerts.filter((row) => row.type === "TAG_SCANNED")).toHaveLength(1);
  });
});

describe("the per-process caches stay bounded", () => {
  it("the view cache keeps VIEW_CACHE_ENTRIES tags at most: a scan past it lets the least recently scanned go", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    clearViewCache();
    // The process-wide map itself (lib/services/finder/view.ts keeps it on globalThis), filled to its bound
    // with entries a stranger's scans of other tags would have left.
    const cache = (globalThis as { __tagServiceViewCache?: Map<string, unknown> }).__tagServiceViewCache!;
    const others = Array.from({ length: VIEW_CACHE_ENTRIES }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
    for (const id of others) cache.set(id, { version: 1, ownerId: owner.id, tagType: "PET", reads: null });
    await scanMatchesFreshView(tag, nextTestIp());
    expect(cache.size).toBe(VIEW_CACHE_ENTRIES);
    expect(cache.has(tag.id)).toBe(true);
    expect(cache.has(others[0]!)).toBe(false);
    expect(cache.has(others[1]!)).toBe(true);
    clearViewCache();
  });
});

describe("tags.view_version: bumped by every write to what the view reads", () => {
  it("insert, update and delete of each per-tag table bump that tag only", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { tagType: "PET", status: "ACTIVE" });
    const other = await giveTestTag(owner.id, { tagType: "PET", status: "ACTIVE" });
    const otherVersion = await versionOf(other.id);
    const writes: Array<[string, () => Promise<unknown>]> = [
      ["rewards insert", () => db().insert(schema.rewards).values({ tagId: tag.id, ownerId: owner.id, amountMinor: 500 })],
      ["rewards update", () => db().update(schema.rewards).set({ amountMinor: 700 }).where(eq(schema.rewards.tagId, tag.id))],
      ["rewards delete", () => db().delete(schema.rewards).where(eq(schema.rewards.tagId, tag.id))],
      ["tag_profiles insert", () => db().insert(schema.tagProfiles).values({ tagId: tag.id, description: "a" })],
      ["tag_profiles update", () => db().update(schema.tagProfiles).set({ description: "b" }).where(eq(schema.tagProfiles.tagId, tag.id))],
      ["tag_profiles delete", () => db().delete(schema.tagProfiles).where(eq(schema.tagProfiles.tagId, tag.id))],
      ["tag_photos insert", () => addPhoto(tag.id)],
      ["tag_photos update", () => db().update(schema.tagPhotos).set({ isPrimary: true }).where(eq(schema.tagPhotos.tagId, tag.id))],
      ["tag_photos delete", () => db().delete(schema.tagPhotos).where(eq(schema.tagPhotos.tagId, tag.id))],
      ["pet_profiles insert", () => db().insert(schema.petProfiles).values({ tagId: tag.id, petName: "Rex", species: "Dog" })],
      ["pet_profiles update", () => db().update(schema.petProfiles).set({ breed: "Beagle" }).where(eq(schema.petProfiles.tagId, tag.id))],
      ["pet_profiles delete", () => db().delete(schema.petProfiles).where(eq(schema.petProfiles.tagId, tag.id))],
      ["vehicle_profiles insert", () => db().insert(schema.vehicleProfiles).values({ tagId: tag.id, make: "Ford", model: "T" })],
      ["vehicle_profiles update", () => db().update(schema.vehicleProfiles).set({ color: "Black" }).where(eq(schema.vehicleProfiles.tagId, tag.id))],
      ["vehicle_profiles delete", () => db().delete(schema.vehicleProfiles).where(eq(schema.vehicleProfiles.tagId, tag.id))],
      ["device_profiles insert", () => db().insert(schema.deviceProfiles).values({ tagId: tag.id, deviceType: "Phone" })],
      ["device_profiles update", () => db().update(schema.deviceProfiles).set({ brand: "Acme" }).where(eq(schema.deviceProfiles.tagId, tag.id))],
      ["device_profiles delete", () => db().delete(schema.deviceProfiles).where(eq(schema.deviceProfiles.tagId, tag.id))],
      ["travel_profiles insert", () => db().insert(schema.travelProfiles).values({ tagId: tag.id, luggageType: "Suitcase" })],
      ["travel_profiles update", () => db().update(schema.travelProfiles).set({ color: "Red" }).where(eq(schema.travelProfiles.tagId, tag.id))],
      ["travel_profiles delete", () => db().delete(schema.travelProfiles).where(eq(schema.travelProfiles.tagId, tag.id))],
      ["tag_relays insert", () => db().insert(schema.tagRelays).values({ tagId: tag.id, ownerId: owner.id, enabled: true, pin: "1234" })],
      ["tag_relays update", () => db().update(schema.tagRelays).set({ enabled: false }).where(eq(schema.tagRelays.tagId, tag.id))],
      ["tag_relays delete", () => db().delete(schema.tagRelays).where(eq(schema.tagRelays.tagId, tag.id))],
    ];
    for (const [label, write] of writes) {
      const before = await versionOf(tag.id);
      await write();
      expect(await versionOf(tag.id), label).toBe(before + 1);
    }
    expect(await versionOf(other.id)).toBe(otherVersion);
  });

  it("the owner's phone, emergency profile and contacts bump every tag of that owner, and no one else's", async () => {
    const owner = await registerAccount();
    const stranger = await registerAccount();
    const tags = [await giveTestTag(owner.id, { status: "ACTIVE" }), await giveTestTag(owner.id, { status: "ACTIVE" })];
    const theirs = await giveTestTag(stranger.id, { status: "ACTIVE" });
    const theirVersion = await versionOf(theirs.id);
    const writes: Array<[string, () => Promise<unknown>]> = [
      ["owner_phones insert", () => db().insert(schema.ownerPhones).values({ userId: owner.id, phoneSealed: "x", phoneHash: `h-${owner.id}`, lastDigits: "12" })],
      ["owner_phones update", () => db().update(schema.ownerPhones).set({ lastDigits: "34" }).where(eq(schema.ownerPhones.userId, owner.id))],
      ["owner_phones delete", () => db().delete(schema.ownerPhones).where(eq(schema.ownerPhones.userId, owner.id))],
      ["emergency_profiles insert", () => db().insert(schema.emergencyProfiles).values({ userId: owner.id })],
      ["emergency_profiles update", () => db().update(schema.emergencyProfiles).set({ bloodType: "O+" }).where(eq(schema.emergencyProfiles.userId, owner.id))],
      ["emergency_profiles delete", () => db().delete(schema.emergencyProfiles).where(eq(schema.emergencyProfiles.userId, owner.id))],
      ["emergency_contacts insert", () => db().insert(schema.emergencyContacts).values({ userId: owner.id, name: "Bo", relationship: "Friend", phone: "+441632960001" })],
      ["emergency_contacts update", () => db().update(schema.emergencyContacts).set({ name: "Bea" }).where(eq(schema.emergencyContacts.userId, owner.id))],
      ["emergency_contacts delete", () => db().delete(schema.emergencyContacts).where(eq(schema.emergencyContacts.userId, owner.id))],
    ];
    for (const [label, write] of writes) {
      const before = await Promise.all(tags.map((tag) => versionOf(tag.id)));
      await write();
      expect(await Promise.all(tags.map((tag) => versionOf(tag.id))), label).toEqual(before.map((version) => version + 1));
    }
    expect(await versionOf(theirs.id)).toBe(theirVersion);
  });

  it("an update that moves a row to another tag or owner bumps both sides; one bulk statement bumps each tag once", async () => {
    const owner = await registerAccount();
    const other = await registerAccount();
    const [a, b] = [await giveTestTag(owner.id, { status: "ACTIVE" }), await giveTestTag(owner.id, { status: "ACTIVE" })];
    const c = await giveTestTag(other.id, { status: "ACTIVE" });
    await db().insert(schema.tagProfiles).values({ tagId: a.id, description: "moved" });
    const [va, vb] = [await versionOf(a.id), await versionOf(b.id)];
    await db().update(schema.tagProfiles).set({ tagId: b.id }).where(eq(schema.tagProfiles.tagId, a.id));
    expect([await versionOf(a.id), await versionOf(b.id)]).toEqual([va + 1, vb + 1]);

    await db().insert(schema.emergencyContacts).values({ userId: owner.id, name: "Bo", relationship: "Friend", phone: "+441632960001" });
    const [va2, vc] = [await versionOf(a.id), await versionOf(c.id)];
    await db().update(schema.emergencyContacts).set({ userId: other.id }).where(eq(schema.emergencyContacts.userId, owner.id));
    expect([await versionOf(a.id), await versionOf(c.id)]).toEqual([va2 + 1, vc + 1]);

    const vb2 = await versionOf(b.id);
    await db()
      .insert(schema.tagPhotos)
      .values(Array.from({ length: 5 }, () => ({ tagId: b.id, contentType: "image/png", data: Buffer.from("png"), byteSize: 3, width: 1, height: 1 })));
    expect(await versionOf(b.id)).toBe(vb2 + 1);
  });

  it("a scan does not bump it, and the owner's edits of the tag row itself need not (the scan reads that row fresh)", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    const before = await versionOf(tag.id);
    await scanAs(tag.encryptedId, nextTestIp());
    await db().update(schema.tags).set({ itemName: "Max" }).where(eq(schema.tags.id, tag.id));
    expect(await versionOf(tag.id)).toBe(before);
    expect((await scanAs(tag.encryptedId, nextTestIp())).itemName).toBe("Max");
  });
});

describe("the next scan shows every change the owner makes (the scan's answer against an uncached read)", () => {
  it("reward, photos, profile text, typed profile, visibility, status, emergency profile", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    const ip = nextTestIp();
    const auth = bearer(owner.accessToken);
    await scanMatchesFreshView(tag, ip);
    expect((await scanMatchesFreshView(tag, ip)).reward).toBeNull();

    const created = await call(createRewardRoute, apiRequest(`/api/v1/rewards/${tag.id}`, { method: "POST", headers: auth, body: { amount: 40, currency: "eur" } }), { id: tag.id });
    expect(created.status).toBe(201);
    const rewardId = (await json<{ data: { id: string } }>(created)).data.id;
    expect(await scanMatchesFreshView(tag, ip)).toMatchObject({ reward: 40, rewardCurrency: "EUR" });
    expect((await call(deleteRewardRoute, apiRequest(`/api/v1/rewards/${rewardId}`, { method: "DELETE", headers: auth }), { id: rewardId })).status).toBeLessThan(300);
    expect(await scanMatchesFreshView(tag, ip)).toMatchObject({ reward: null, rewardCurrency: null });

    const photoId = await addPhoto(tag.id, false);
    expect((await scanMatchesFreshView(tag, ip)).photos).toHaveLength(2);
    expect((await call(deletePhotoRoute, apiRequest(`/api/v1/profiles/${tag.id}/photos/${photoId}`, { method: "DELETE", headers: auth }), { tagId: tag.id, photoId })).status).toBeLessThan(300);
    expect((await scanMatchesFreshView(tag, ip)).photos).toHaveLength(1);

    expect((await call(profilePatch, apiRequest(`/api/v1/profiles/${tag.id}`, { method: "PATCH", headers: auth, body: { description: "Now with a blue collar" } }), { tagId: tag.id })).status).toBe(200);
    expect((await scanMatchesFreshView(tag, ip)).description).toBe("Now with a blue collar");

    expect((await call(putPetRoute, apiRequest(`/api/v1/profiles/${tag.id}/pet`, { method: "PUT", headers: auth, body: { petName: "Rex", species: "Dog", breed: "Beagle" } }), { tagId: tag.id })).status).toBe(200);
    expect((await scanMatchesFreshView(tag, ip)).details).toMatchObject({ tagType: "PET", breed: "Beagle" });

    expect((await scanMatchesFreshView(tag, ip)).emergencyAvailable).toBe(false);
    expect((await call(putEmergencyRoute, apiRequest("/api/v1/emergency", { method: "PUT", headers: auth, body: { bloodType: "O+" } }))).status).toBe(200);
    expect((await scanMatchesFreshView(tag, ip)).emergencyAvailable).toBe(true);
    expect((await call(putEmergencyRoute, apiRequest("/api/v1/emergency", { method: "PUT", headers: auth, body: { bloodType: null } }))).status).toBe(200);
    expect((await scanMatchesFreshView(tag, ip)).emergencyAvailable).toBe(false);

    expect((await call(profilePatch, apiRequest(`/api/v1/profiles/${tag.id}`, { method: "PATCH", headers: auth, body: { visibility: "PRIVATE" } }), { tagId: tag.id })).status).toBe(200);
    expect(await scanMatchesFreshView(tag, ip)).toMatchObject({ itemName: null, description: null, photos: [], details: null });
    expect((await call(profilePatch, apiRequest(`/api/v1/profiles/${tag.id}`, { method: "PATCH", headers: auth, body: { visibility: "PUBLIC" } }), { tagId: tag.id })).status).toBe(200);
    expect((await scanMatchesFreshView(tag, ip)).description).toBe("Now with a blue collar");

    expect((await call(statusRoute, apiRequest(`/api/v1/tags/${tag.id}/status`, { method: "PATCH", headers: auth, body: { status: "LOST", lostMessage: "Please call" } }), { id: tag.id })).status).toBe(200);
    expect(await scanMatchesFreshView(tag, ip)).toMatchObject({ status: "LOST", lostMessage: "Please call" });
  });

  it("relay off and on, and the owner's number taken away", async () => {
    const { account, tagId } = await relayOwner();
    const tag = (await tagRow(tagId))!;
    const ip = nextTestIp();
    const auth = bearer(account.accessToken);
    expect((await scanMatchesFreshView(tag, ip)).relay).not.toBeNull();
    expect((await call(patchRelayRoute, apiRequest(`/api/v1/tags/${tagId}/relay`, { method: "PATCH", headers: auth, body: { enabled: false } }), { id: tagId })).status).toBe(200);
    expect((await scanMatchesFreshView(tag, ip)).relay).toBeNull();
    expect((await call(patchRelayRoute, apiRequest(`/api/v1/tags/${tagId}/relay`, { method: "PATCH", headers: auth, body: { enabled: true } }), { id: tagId })).status).toBe(200);
    expect((await scanMatchesFreshView(tag, ip)).relay).not.toBeNull();
    // As when another account verifies the same number (lib/services/relay/phone.ts): the row goes.
    await db().delete(schema.ownerPhones).where(eq(schema.ownerPhones.userId, account.id));
    expect((await scanMatchesFreshView(tag, ip)).relay).toBeNull();
  });

  it("an ownership transfer: the new owner's view at once, nothing of the old owner's", async () => {
    const sender = await registerAccount();
    const recipient = await registerAccount();
    // Only an account with a verified address may take a tag (as in transfers.test.ts).
    await db().update(schema.users).set({ emailVerified: true }).where(eq(schema.users.id, recipient.id));
    const tag = await petTag(sender);
    await db().insert(schema.rewards).values({ tagId: tag.id, ownerId: sender.id, amountMinor: 2500, currency: "USD" });
    const ip = nextTestIp();
    expect((await scanMatchesFreshView(tag, ip)).reward).toBe(25);
    const offered = await call(offerTransferRoute, apiRequest(`/api/v1/tags/${tag.id}/transfer`, { method: "POST", headers: bearer(sender.accessToken), body: { email: recipient.email } }), { id: tag.id });
    expect(offered.status).toBe(201);
    const transferId = (await json<{ data: { id: string } }>(offered)).data.id;
    expect((await call(acceptTransferRoute, apiRequest(`/api/v1/tags/transfers/${transferId}/accept`, { method: "POST", headers: bearer(recipient.accessToken) }), { id: transferId })).status).toBe(200);
    expect((await tagRow(tag.id))!.ownerId).toBe(recipient.id);
    expect((await scanMatchesFreshView(tag, ip)).reward).toBeNull();
  });
});
