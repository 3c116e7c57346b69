import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import type { Tag } from "@/db/schema";
import { GET as scanRoute, POST as scanPost } from "@/app/api/v1/scan/[encryptedId]/route";
import { GET as locationGet, POST as locationRoute } from "@/app/api/v1/scan/[encryptedId]/location/route";
import { GET as tagScansRoute } from "@/app/api/v1/tags/[id]/scans/route";
import { env } from "@/lib/env";
import { PEER_ADDRESS_HEADER } from "@/lib/http/client-ip";
import { visitorFrom } from "@/lib/http/visitor";
import { scanTag } from "@/lib/services/finder";
import { greatCircleKm } from "@/lib/services/scans/distance";
import { STOLEN_ALERT } from "@/lib/services/finder/view";
import { hashClientIp } from "@/lib/services/visitor";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, awayFromWindowEdge, call, json, nextTestIp } from "../support/http";
import { forceTagStatus, giveTestTag, mintTestTags, tagRow } from "../support/tags";
import { USER_AGENTS as UA } from "../support/user-agents";

// Location comes only from the geo headers GEO_HEADERS names, behind a trusted proxy: this file runs as if
// behind Vercel (restored after).
const settings = env as { TRUST_PROXY: number; GEO_HEADERS: "none" | "vercel" | "cloudflare" };
const trustedProxiesBefore = settings.TRUST_PROXY;
const geoHeadersBefore = settings.GEO_HEADERS;
beforeAll(() => {
  settings.TRUST_PROXY = 1;
  settings.GEO_HEADERS = "vercel";
});
afterAll(() => {
  settings.TRUST_PROXY = trustedProxiesBefore;
  settings.GEO_HEADERS = geoHeadersBefore;
});

/** Runs `body` with other proxy settings, restoring this file's after. */
async function withProxySettings(values: Partial<typeof settings>, body: () => Promise<void>): Promise<void> {
  Object.assign(settings, values);
  try {
    await body();
  } finally {
    settings.TRUST_PROXY = 1;
    settings.GEO_HEADERS = "vercel";
  }
}

type View = {
  tagId: string;
  encryptedId: string;
  itemName: string | null;
  description: string | null;
  ownerName: string | null;
  status: string;
  lostMessage: string | null;
  reward: number | null;
  tagType: string;
  photos: { url: string; isPrimary: boolean }[];
  contactEnabled: boolean;
  emergencyAvailable: boolean;
  details: Record<string, unknown> | null;
};

const LONDON = { latitude: 51.5074, longitude: -0.1278, city: "London", country: "GB" };
const PARIS = { latitude: 48.8566, longitude: 2.3522, city: "Paris", country: "FR" };
const TOKYO = { latitude: 35.6762, longitude: 139.6503, city: "Tokyo", country: "JP" };
/** Degrees of latitude per kilometre on the sphere greatCircleKm uses. */
const KM_PER_DEGREE = (6371.0088 * Math.PI) / 180;
const northOf = (place: typeof LONDON, km: number, city: string) => ({ ...place, latitude: place.latitude + km / KM_PER_DEGREE, city });

interface ScanOptions {
  ua?: string | null;
  ip?: string;
  method?: string;
  headers?: Record<string, string>;
  geo?: typeof LONDON;
}

/** Vercel's geo headers for a place, as Vercel sends them (the city percent-encoded). */
function geoHeaders(place: typeof LONDON): Record<string, string> {
  return {
    "x-vercel-ip-latitude": String(place.latitude),
    "x-vercel-ip-longitude": String(place.longitude),
    "x-vercel-ip-city": encodeURIComponent(place.city),
    "x-vercel-ip-country": place.country,
  };
}

function scanRequest(encryptedId: string, options: ScanOptions = {}): Request {
  const headers: Record<string, string> = { ...options.headers };
  if (options.ua !== null) headers["user-agent"] = options.ua ?? UA.iphoneSafari;
  if (options.geo) Object.assign(headers, geoHeaders(options.geo));
  return apiRequest(`/api/v1/scan/${encodeURIComponent(encryptedId)}`, { method: options.method ?? "GET", headers, ip: options.ip ?? nextTestIp() });
}

function scan(encryptedId: string, options: ScanOptions = {}): Promise<Response> {
  return call(scanRoute, scanRequest(encryptedId, options), { encryptedId });
}

/**
 * A scan the way the finder page (/t/[encryptedId]) records it: scanTag with visitorFrom of the page's
 * request headers, as a visitor who is not signed in.
 */
function pageScan(encryptedId: string, headers: Record<string, string> = {}) {
  const ip = nextTestIp();
  const requestHeaders = new Headers({ "user-agent": UA.iphoneSafari, ...headers, [PEER_ADDRESS_HEADER]: ip });
  return scanTag({ actor: { kind: "public", ip }, db: getDatabase().db }, encryptedId, visitorFrom(requestHeaders, "GET"));
}

async function scanView(encryptedId: string, options: ScanOptions = {}): Promise<{ response: Response; text: string; view: View }> {
  const response = await scan(encryptedId, options);
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return { response, text, view: (JSON.parse(text) as { data: View }).data };
}

function share(encryptedId: string, body: unknown, options: { ip?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  return call(
    locationRoute,
    apiRequest(`/api/v1/scan/${encodeURIComponent(encryptedId)}/location`, { method: "POST", body, ip: options.ip ?? nextTestIp(), headers: { "user-agent": UA.iphoneSafari, ...options.headers } }),
    { encryptedId },
  );
}

const db = () => getDatabase().db;

function scansOf(tagId: string) {
  return db().select().from(schema.scans).where(eq(schema.scans.tagId, tagId)).orderBy(schema.scans.scannedAt);
}

function notificationsOf(userId: string, type?: string) {
  const filter = type ? and(eq(schema.notifications.userId, userId), eq(schema.notifications.type, type as "TAG_SCANNED")) : eq(schema.notifications.userId, userId);
  return db().select().from(schema.notifications).where(filter).orderBy(schema.notifications.createdAt);
}

/** A prior scan, as if it had happened `agoMs` ago. */
async function priorScan(tagId: string, agoMs: number, values: Partial<typeof schema.scans.$inferInsert> = {}) {
  await db()
    .insert(schema.scans)
    .values({ tagId, scannedAt: new Date(Date.now() - agoMs), ipHash: hashClientIp(nextTestIp()), scanClass: "REAL", ...values });
}

const OWNER_PHONE = "+44 20 7946 0958";
const CONTACT_EMAIL = "rex.owner.contact@example.org";
const CONTACT_PHONE = "+1 (555) 010-4477";

/**
 * An ACTIVE pet tag with a full profile: contact details, a microchip and vet, two photos. It shows the
 * owner's emergency information (emergencyVisible, off by default for a pet), so the tests below see it.
 */
async function petTag(owner: TestAccount, options: { visibility?: "PUBLIC" | "PRIVATE"; status?: Tag["status"] } = {}): Promise<Tag> {
  await db().update(schema.users).set({ phone: OWNER_PHONE }).where(eq(schema.users.id, owner.id));
  const tag = await giveTestTag(owner.id, { tagType: "PET", itemName: "Rex", status: options.status ?? "ACTIVE" });
  await db().update(schema.tags).set({ visibility: options.visibility ?? "PUBLIC" }).where(eq(schema.tags.id, tag.id));
  await db().insert(schema.tagProfiles).values({ tagId: tag.id, description: "Brown beagle, red collar.", ownerName: "Ada", contactEmail: CONTACT_EMAIL, contactPhone: CONTACT_PHONE, emergencyVisible: true });
  await db().insert(schema.petProfiles).values({ tagId: tag.id, petName: "Rex", species: "Dog", breed: "Beagle", color: "Brown", microchip: "985112345678901", vetInfo: "Dr Vet, 01632 960001" });
  const photo = { contentType: "image/png", data: Buffer.from("png"), byteSize: 3, width: 1, height: 1 };
  await db().insert(schema.tagPhotos).values({ tagId: tag.id, ...photo, isPrimary: false, createdAt: new Date(Date.now() - 1000) });
  await db().insert(schema.tagPhotos).values({ tagId: tag.id, ...photo, isPrimary: true });
  return (await tagRow(tag.id))!;
}

/** Nothing that reaches the owner privately may be in what a finder gets. */
function expectNoOwnerContact(text: string, owner: TestAccount) {
  for (const secret of [owner.email, OWNER_PHONE, CONTACT_EMAIL, CONTACT_PHONE, "985112345678901", "Dr Vet", owner.id]) expect(text).not.toContain(secret);
  expect(text).not.toMatch(/contactEmail|contactPhone|"email"|"phone"|microchip|vetInfo|ipHash/);
}

describe("GET /scan/:encryptedId: what a finder sees", () => {
  it("shows a PUBLIC profile with the typed profile's public part, never the owner's contact details", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    const { response, text, view } = await scanView(tag.encryptedId);
    expect(response.headers.get("X-RateLimit-Limit")).toBe("30");
    expect(view).toEqual({
      tagId: tag.id,
      encryptedId: tag.encryptedId,
      itemName: "Rex",
      description: "Brown beagle, red collar.",
      ownerName: "Ada",
      status: "ACTIVE",
      lostMessage: null,
      reward: null,
      rewardCurrency: null,
      tagType: "PET",
      photos: [
        { url: expect.stringMatching(/^\/api\/photos\/[0-9a-f-]{36}$/), isPrimary: true },
        { url: expect.stringMatching(/^\/api\/photos\/[0-9a-f-]{36}$/), isPrimary: false },
      ],
      contactEnabled: true,
      emergencyAvailable: false,
      details: { tagType: "PET", petName: "Rex", species: "Dog", breed: "Beagle", color: "Brown", size: null, distinctiveMarks: null, needsMedication: null },
      relay: null,
    });
    expectNoOwnerContact(text, owner);

    // A saved profile that states nothing is not offered (GET /scan/:encryptedId/emergency answers 404 for it).
    await db().insert(schema.emergencyProfiles).values({ userId: owner.id });
    expect((await scanView(tag.encryptedId)).view.emergencyAvailable).toBe(false);
    await db().update(schema.emergencyProfiles).set({ bloodType: "O+" }).where(eq(schema.emergencyProfiles.userId, owner.id));
    expect((await scanView(tag.encryptedId)).view.emergencyAvailable).toBe(true);
    // A contact alone is enough, as on the emergency page; another user's contact is not.
    await db().update(schema.emergencyProfiles).set({ bloodType: null }).where(eq(schema.emergencyProfiles.userId, owner.id));
    const other = await registerAccount();
    await db().insert(schema.emergencyContacts).values({ userId: other.id, name: "Mum", relationship: "Mother", phone: "+1 555 0111" });
    expect((await scanView(tag.encryptedId)).view.emergencyAvailable).toBe(false);
    await db().insert(schema.emergencyContacts).values({ userId: owner.id, name: "Mum", relationship: "Mother", phone: "+1 555 0111" });
    expect((await scanView(tag.encryptedId)).view.emergencyAvailable).toBe(true);
  });

  it("keeps vehicle, device and travel identifiers (VIN, plate unless shown, serial number, flight) off the page", async () => {
    const owner = await registerAccount();
    const car = await giveTestTag(owner.id, { tagType: "VEHICLE", itemName: "Car", status: "ACTIVE" });
    await db().insert(schema.vehicleProfiles).values({ tagId: car.id, make: "Volvo", model: "V70", year: 2004, color: "Blue", licensePlate: "AB12 CDE", vin: "YV1SW61R441234567" });
    const car1 = await scanView(car.encryptedId);
    expect(car1.view.details).toEqual({ tagType: "VEHICLE", make: "Volvo", model: "V70", year: 2004, color: "Blue", licensePlate: null });
    expect(car1.text).not.toMatch(/AB12 CDE|YV1SW61R441234567|vin/);

    const phone = await giveTestTag(owner.id, { tagType: "DEVICE", itemName: "Phone", status: "ACTIVE" });
    await db().insert(schema.deviceProfiles).values({ tagId: phone.id, deviceType: "Phone", brand: "Acme", model: "X1", serialNumber: "SN-998877", color: "Black" });
    const phone1 = await scanView(phone.encryptedId);
    expect(phone1.view.details).toEqual({ tagType: "DEVICE", deviceType: "Phone", brand: "Acme", model: "X1", color: "Black" });
    expect(phone1.text).not.toMatch(/SN-998877|serialNumber/);

    const bag = await giveTestTag(owner.id, { tagType: "TRAVEL", itemName: "Suitcase", status: "ACTIVE" });
    await db().insert(schema.travelProfiles).values({ tagId: bag.id, luggageType: "Suitcase", brand: "Samsonite", color: "Red", flightNumber: "BA117", destination: "New York" });
    const bag1 = await scanView(bag.encryptedId);
    expect(bag1.view.details).toEqual({ tagType: "TRAVEL", luggageType: "Suitcase", brand: "Samsonite", color: "Red" });
    expect(bag1.text).not.toMatch(/BA117|New York|flightNumber|destination/);

    const general = await giveTestTag(owner.id, { itemName: "Keys", status: "ACTIVE" });
    expect((await scanView(general.encryptedId)).view.details).toBeNull();
  });

  it("PRIVATE hides item name, description, owner name, photos and details, and keeps the rest", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner, { visibility: "PRIVATE", status: "LOST" });
    await db().update(schema.tags).set({ lostMessage: "Please call through the page." }).where(eq(schema.tags.id, tag.id));
    await db().insert(schema.emergencyProfiles).values({ userId: owner.id, bloodType: "A-" });
    const { text, view } = await scanView(tag.encryptedId);
    expect(view).toEqual({
      tagId: tag.id,
      encryptedId: tag.encryptedId,
      itemName: null,
      description: null,
      ownerName: null,
      status: "LOST",
      lostMessage: "Please call through the page.",
      reward: null,
      rewardCurrency: null,
      tagType: "PET",
      photos: [],
      contactEnabled: true,
      emergencyAvailable: true,
      details: null,
      relay: null,
    });
    expect(text).not.toMatch(/Rex|Beagle|Ada|Brown|\/api\/photos/);
    expectNoOwnerContact(text, owner);
  });

  it("an unowned tag is PENDING_SETUP without contact; the scan is still recorded and counted", async () => {
    const [minted] = await mintTestTags(1);
    const tag = (await tagRow(minted!.id))!;
    const { view } = await scanView(tag.encryptedId);
    expect(view).toMatchObject({ tagId: tag.id, status: "PENDING_SETUP", itemName: null, ownerName: null, photos: [], contactEnabled: false, emergencyAvailable: false, details: null });
    expect((await tagRow(tag.id))!.scanCount).toBe(1);
    expect(await scansOf(tag.id)).toHaveLength(1);
  });

  it("DEACTIVATED: nothing of the profile, no contact, no emergency data; STOLEN: the stolen alert; LOST: the owner's message", async () => {
    const owner = await registerAccount();
    await db().insert(schema.emergencyProfiles).values({ userId: owner.id, bloodType: "A-" });
    const tag = await petTag(owner, { status: "DEACTIVATED" });
    const off = await scanView(tag.encryptedId);
    expect(off.view).toEqual({
      tagId: tag.id,
      encryptedId: tag.encryptedId,
      itemName: null,
      description: null,
      ownerName: null,
      status: "DEACTIVATED",
      lostMessage: null,
      reward: null,
      rewardCurrency: null,
      tagType: "PET",
      photos: [],
      contactEnabled: false,
      emergencyAvailable: false,
      details: null,
      relay: null,
    });
    expectNoOwnerContact(off.text, owner);

    await forceTagStatus(tag.id, "STOLEN", { lostMessage: "Taken from the park on Sunday." });
    const stolen = (await scanView(tag.encryptedId)).view;
    expect(stolen).toMatchObject({ status: "STOLEN", contactEnabled: true, emergencyAvailable: true });
    expect(stolen.lostMessage).toBe(`${STOLEN_ALERT} Message from the owner: Taken from the park on Sunday.`);
    await forceTagStatus(tag.id, "STOLEN", { lostMessage: null });
    expect((await scanView(tag.encryptedId)).view.lostMessage).toBe(STOLEN_ALERT);

    await forceTagStatus(tag.id, "LOST", { lostMessage: "Reward for his return!" });
    expect((await scanView(tag.encryptedId)).view).toMatchObject({ status: "LOST", lostMessage: "Reward for his return!" });
    await forceTagStatus(tag.id, "ACTIVE", { lostMessage: "left over" });
    expect((await scanView(tag.encryptedId)).view.lostMessage).toBeNull();
  });

  it("an unknown or malformed scan address is 404; other methods 405", async () => {
    for (const id of ["AAAAAAAAAAAAAAAAAAAAAAAA", "short", "has space in it here", "x".repeat(65)]) {
      const response = await scan(id);
      expect(response.status, id).toBe(404);
      expect((await json<{ error: { code: string } }>(response)).error.code).toBe("NOT_FOUND");
    }
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE" });
    const post = await call(scanPost, apiRequest(`/api/v1/scan/${tag.encryptedId}`, { method: "POST", ip: nextTestIp() }), { encryptedId: tag.encryptedId });
    expect(post.status).toBe(405);
    expect(post.headers.get("Allow")).toBe("GET, OPTIONS");
    const get = await call(locationGet, apiRequest(`/api/v1/scan/${tag.encryptedId}/location`, { ip: nextTestIp() }), { encryptedId: tag.encryptedId });
    expect(get.status).toBe(405);
    expect(await scansOf(tag.id)).toHaveLength(0);
  });
});

describe("recording a scan", () => {
  it("keeps the coarse location, a keyed hash of the IP and the user-agent class; counts it without touching updatedAt", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    const ip = nextTestIp();
    await scanView(tag.encryptedId, { ip, geo: LONDON, ua: UA.iphoneSafari });
    const [row] = await scansOf(tag.id);
    expect(row).toMatchObject({ city: "London", country: "GB", latitude: LONDON.latitude, longitude: LONDON.longitude, scanClass: "REAL", agent: "iPhone · Safari", suspicious: false, locationShared: false, accuracy: null });
    expect(row!.ipHash).toBe(hashClientIp(ip));
    expect(row!.ipHash).not.toContain(ip);
    const after = (await tagRow(tag.id))!;
    expect(after.scanCount).toBe(1);
    expect(after.lastScannedAt?.toISOString()).toBe(row!.scannedAt.toISOString());
    expect(after.updatedAt.toISOString()).toBe(tag.updatedAt.toISOString());
  });

  it("reads geo headers only as GEO_HEADERS says, and only behind a trusted proxy", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    // GEO_HEADERS unset (none): x-vercel-ip-* are whatever the client wrote, even behind a trusted proxy.
    await withProxySettings({ GEO_HEADERS: "none", TRUST_PROXY: 1 }, async () => {
      await scanView(tag.encryptedId, { geo: LONDON });
      await pageScan(tag.encryptedId, geoHeaders(LONDON));
    });
    // Named, but with no proxy in front to overwrite them.
    await withProxySettings({ GEO_HEADERS: "vercel", TRUST_PROXY: 0 }, async () => {
      await scanView(tag.encryptedId, { geo: LONDON });
    });
    // Cloudflare named: Vercel's headers are not its own.
    await withProxySettings({ GEO_HEADERS: "cloudflare" }, async () => {
      await scanView(tag.encryptedId, { geo: LONDON });
    });
    const rows = await scansOf(tag.id);
    expect(rows).toHaveLength(4);
    for (const row of rows) expect(row).toMatchObject({ city: null, country: null, latitude: null, longitude: null, suspicious: false });

    // GEO_HEADERS=vercel behind a trusted proxy: read, through the API and the page alike.
    await scanView(tag.encryptedId, { geo: LONDON });
    await pageScan(tag.encryptedId, geoHeaders(LONDON));
    for (const row of (await scansOf(tag.id)).slice(4)) expect(row).toMatchObject({ city: "London", country: "GB", latitude: LONDON.latitude, longitude: LONDON.longitude });
  });

  it("GEO_HEADERS=cloudflare reads cf-iplatitude, cf-iplongitude, cf-ipcity (plain UTF-8 text) and cf-ipcountry", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    // Node hands header bytes over one Latin-1 character per byte: "Zürich" as Cloudflare sends it.
    const cf = { "cf-iplatitude": "47.37690", "cf-iplongitude": "8.54170", "cf-ipcity": Buffer.from("Zürich").toString("latin1"), "cf-ipcountry": "CH" };
    await withProxySettings({ GEO_HEADERS: "cloudflare" }, async () => {
      await scanView(tag.encryptedId, { headers: cf });
      await pageScan(tag.encryptedId, cf);
      // Tor and unknown countries are no country.
      await scanView(tag.encryptedId, { headers: { "cf-ipcountry": "T1" } });
      await scanView(tag.encryptedId, { headers: { "cf-ipcountry": "XX", "cf-ipcity": "Basel" } });
    });
    const rows = await scansOf(tag.id);
    expect(rows.map((row) => [row.city, row.country, row.latitude, row.longitude])).toEqual([
      ["Zürich", "CH", 47.3769, 8.5417],
      ["Zürich", "CH", 47.3769, 8.5417],
      [null, null, null, null],
      ["Basel", null, null, null],
    ]);
  });

  it("ignores invalid geo headers, never stores them and never fails: on the API and on the finder page's path", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner, { status: "LOST" });
    const valid = geoHeaders(PARIS);
    const cases: [string, Record<string, string>, { city: string | null; country: string | null; latitude: number | null; longitude: number | null }][] = [
      ["latitude 999", { ...valid, "x-vercel-ip-latitude": "999" }, { city: "Paris", country: "FR", latitude: null, longitude: null }],
      ["longitude -5000", { ...valid, "x-vercel-ip-longitude": "-5000" }, { city: "Paris", country: "FR", latitude: null, longitude: null }],
      ["latitude NaN", { ...valid, "x-vercel-ip-latitude": "NaN" }, { city: "Paris", country: "FR", latitude: null, longitude: null }],
      ["latitude 1e2", { ...valid, "x-vercel-ip-latitude": "1e2" }, { city: "Paris", country: "FR", latitude: null, longitude: null }],
      ["NUL after decoding", { ...valid, "x-vercel-ip-city": "Paris%00" }, { city: null, country: "FR", latitude: PARIS.latitude, longitude: PARIS.longitude }],
      ["broken escape", { ...valid, "x-vercel-ip-city": "%E0%A4%A" }, { city: null, country: "FR", latitude: PARIS.latitude, longitude: PARIS.longitude }],
      ["5,000-character city", { ...valid, "x-vercel-ip-city": "P".repeat(5000) }, { city: null, country: "FR", latitude: PARIS.latitude, longitude: PARIS.longitude }],
      ["control characters", { ...valid, "x-vercel-ip-city": "Paris%0D%0ASet-Cookie%3A%20x%1B" }, { city: null, country: "FR", latitude: PARIS.latitude, longitude: PARIS.longitude }],
      ["a raw control character", { ...valid, "x-vercel-ip-city": "Par\u0001is" }, { city: null, country: "FR", latitude: PARIS.latitude, longitude: PARIS.longitude }],
      ["right-to-left override", { ...valid, "x-vercel-ip-city": "%E2%80%AEsiraP" }, { city: null, country: "FR", latitude: PARIS.latitude, longitude: PARIS.longitude }],
      ["bad country", { ...valid, "x-vercel-ip-country": "France" }, { city: "Paris", country: null, latitude: PARIS.latitude, longitude: PARIS.longitude }],
    ];
    for (const [name, headers, stored] of cases) {
      const api = await scan(tag.encryptedId, { headers });
      expect(api.status, name).toBe(200);
      expect((await json<{ data: View }>(api)).data.contactEnabled, name).toBe(true);
      const [apiRow] = await db().select().from(schema.scans).where(eq(schema.scans.tagId, tag.id)).orderBy(sql`${schema.scans.scannedAt} desc`).limit(1);
      expect(apiRow, name).toMatchObject(stored);
      await expect(pageScan(tag.encryptedId, headers), name).resolves.toMatchObject({ tagId: tag.id, contactEnabled: true });
      const [pageRow] = await db().select().from(schema.scans).where(eq(schema.scans.tagId, tag.id)).orderBy(sql`${schema.scans.scannedAt} desc`).limit(1);
      expect(pageRow, name).toMatchObject(stored);
    }
    expect(await scansOf(tag.id)).toHaveLength(cases.length * 2);
  });
});

describe("the scan-quality filter: every scan is kept, only REAL ones alert the owner", () => {
  it.each([
    ["Googlebot", UA.googlebot, "Googlebot"],
    ["Slackbot", UA.slackbot, "Slackbot link preview"],
    ["WhatsApp", UA.whatsapp, "WhatsApp link preview"],
    ["Outlook Safe Links (Office link check)", UA.outlookSafeLinks, "Microsoft Office link check"],
    ["facebookexternalhit", UA.facebook, "Facebook link preview"],
    ["Discordbot", UA.discordbot, "Discord link preview"],
    ["TelegramBot", UA.telegram, "Telegram link preview"],
    ["Twitterbot", UA.twitterbot, "X (Twitter) link preview"],
  ])("%s is BOT, answered normally, and tells the owner nothing", async (_name, ua, agent) => {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    const { view } = await scanView(tag.encryptedId, { ua });
    expect(view.itemName).toBe("Rex");
    const [row] = await scansOf(tag.id);
    expect(row).toMatchObject({ scanClass: "BOT", agent });
    expect((await tagRow(tag.id))!.scanCount).toBe(1);
    expect(await notificationsOf(owner.id)).toHaveLength(0);
  });

  it("an iPhone's scan is REAL and alerts the owner once; the same phone again within 10 minutes is REPEAT", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner, { status: "LOST" });
    const ip = nextTestIp();
    await scanView(tag.encryptedId, { ip, geo: LONDON });
    await scanView(tag.encryptedId, { ip, geo: LONDON });
    const rows = await scansOf(tag.id);
    expect(rows.map((row) => row.scanClass)).toEqual(["REAL", "REPEAT"]);
    const alerts = await notificationsOf(owner.id);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ type: "TAG_SCANNED", title: "Your lost item's tag was scanned", data: { tagId: tag.id, tagStatus: "LOST", city: "London", scanId: rows[0]!.id } });
    expect(alerts[0]!.body).toContain("“Rex” in London");
    expect(JSON.stringify(alerts[0])).not.toContain(ip);

    // Another person nearby is a new REAL scan and a new alert.
    await scanView(tag.encryptedId, { ip: nextTestIp(), geo: LONDON, ua: UA.androidChrome });
    expect((await scansOf(tag.id)).map((row) => row.scanClass)).toEqual(["REAL", "REPEAT", "REAL"]);
    expect(await notificationsOf(owner.id, "TAG_SCANNED")).toHaveLength(2);
    expect((await tagRow(tag.id))!.scanCount).toBe(3);
  });

  it("the repeat window is 10 minutes from the client's last REAL scan", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    const early = nextTestIp();
    const recent = nextTestIp();
    await priorScan(tag.id, 11 * 60_000, { ipHash: hashClientIp(early) });
    await priorScan(tag.id, 9 * 60_000, { ipHash: hashClientIp(recent) });
    // A REPEAT or a BOT from the same client does not open a window.
    const other = nextTestIp();
    await priorScan(tag.id, 60_000, { ipHash: hashClientIp(other), scanClass: "REPEAT" });
    await priorScan(tag.id, 60_000, { ipHash: hashClientIp(other), scanClass: "BOT" });
    await scanView(tag.encryptedId, { ip: early });
    await scanView(tag.encryptedId, { ip: recent });
    await scanView(tag.encryptedId, { ip: other });
    const latest = (await scansOf(tag.id)).slice(-3);
    expect(latest.map((row) => [row.ipHash, row.scanClass])).toEqual([
      [hashClientIp(early), "REAL"],
      [hashClientIp(recent), "REPEAT"],
      [hashClientIp(other), "REAL"],
    ]);
    expect(await notificationsOf(owner.id, "TAG_SCANNED")).toHaveLength(2);
  });

  it("HEAD and prefetches are PREFETCH; HEAD answers without a body", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    const head = await scan(tag.encryptedId, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toContain("application/json");
    expect(head.headers.get("X-RateLimit-Limit")).toBe("30");
    expect(await head.text()).toBe("");
    await scanView(tag.encryptedId, { headers: { "sec-purpose": "prefetch;prerender" } });
    await scanView(tag.encryptedId, { headers: { purpose: "prefetch" } });
    expect((await scansOf(tag.id)).map((row) => row.scanClass)).toEqual(["PREFETCH", "PREFETCH", "PREFETCH"]);
    expect((await tagRow(tag.id))!.scanCount).toBe(3);
    expect(await notificationsOf(owner.id)).toHaveLength(0);
  });

  it("the owner's own signed-in scan (bearer or browser cookie) is OWNER; someone else signed in is REAL", async () => {
    const owner = await registerAccount();
    const stranger = await registerAccount();
    const tag = await petTag(owner);
    await scanView(tag.encryptedId, { headers: bearer(owner.accessToken) });
    await scanView(tag.encryptedId, { headers: { cookie: owner.cookie } });
    await scanView(tag.encryptedId, { headers: bearer(stranger.accessToken) });
    expect((await scansOf(tag.id)).map((row) => row.scanClass)).toEqual(["OWNER", "OWNER", "REAL"]);
    expect(await notificationsOf(owner.id, "TAG_SCANNED")).toHaveLength(1);
    // A bad bearer token is refused, as on every endpoint.
    expect((await scan(tag.encryptedId, { headers: bearer("not-a-token") })).status).toBe(401);
  });

  it("generic HTTP clients (apps calling the API) and a missing user agent are REAL", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    for (const ua of [UA.curl, UA.pythonRequests, UA.nodeFetch, UA.okhttp, UA.go, null]) await scanView(tag.encryptedId, { ua });
    const rows = await scansOf(tag.id);
    expect(rows.map((row) => row.scanClass)).toEqual(["REAL", "REAL", "REAL", "REAL", "REAL", "REAL"]);
    expect(rows.map((row) => row.agent)).toEqual(["HTTP client · curl", "HTTP client · python-requests", "HTTP client · node", "HTTP client · okhttp", "HTTP client · Go-http-client", null]);
  });

  it("ten identical scans at once: ten counted, one REAL, one alert", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    const ip = nextTestIp();
    const responses = await Promise.all(Array.from({ length: 10 }, () => scan(tag.encryptedId, { ip })));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    const rows = await scansOf(tag.id);
    expect(rows).toHaveLength(10);
    expect(rows.filter((row) => row.scanClass === "REAL")).toHaveLength(1);
    expect(rows.filter((row) => row.scanClass === "REPEAT")).toHaveLength(9);
    expect((await tagRow(tag.id))!.scanCount).toBe(10);
    expect(await notificationsOf(owner.id, "TAG_SCANNED")).toHaveLength(1);
  });

  it("limits scans to 30 a minute per IP (429 with Retry-After)", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    const ip = nextTestIp();
    await awayFromWindowEdge(60_000, 20_000);
    for (let i = 0; i < 30; i++) expect((await scan(tag.encryptedId, { ip })).status).toBe(200);
    const limited = await scan(tag.encryptedId, { ip });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await json<{ error: { code: string } }>(limited)).error.code).toBe("RATE_LIMIT_EXCEEDED");
    expect((await scan(tag.encryptedId, { ip: nextTestIp() })).status).toBe(200);
    expect((await tagRow(tag.id))!.scanCount).toBe(31);
  });
});

describe("clone detection (≥ 100 km within 5 minutes at over 1000 km/h): the owner is alerted, the finder never refused", () => {
  async function cloneCase(distanceKm: number, agoMs: number) {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    await priorScan(tag.id, agoMs, { latitude: LONDON.latitude, longitude: LONDON.longitude, city: "London", country: "GB" });
    const elsewhere = northOf(LONDON, distanceKm, "Elsewhere");
    expect(greatCircleKm(LONDON, elsewhere)).toBeCloseTo(distanceKm, 6);
    const response = await scan(tag.encryptedId, { geo: elsewhere });
    return { owner, tag, response, rows: await scansOf(tag.id) };
  }

  it("101 km after 4:59 is a clone: answered as any scan (200, the public view), stored as suspicious and counted, the owner alerted", async () => {
    const { owner, tag, response, rows } = await cloneCase(101, 4 * 60_000 + 59_000);
    expect(response.status).toBe(200);
    const { data: view } = await json<{ data: View }>(response);
    expect(view).toMatchObject({ tagId: tag.id, itemName: "Rex", ownerName: "Ada", status: "ACTIVE", contactEnabled: true });
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({ suspicious: true, city: "Elsewhere", scanClass: "REAL" });
    expect((await tagRow(tag.id))!.scanCount).toBe(1);
    const alerts = await notificationsOf(owner.id);
    expect(alerts.map((alert) => alert.type)).toEqual(["TAG_CLONE_DETECTED"]);
    expect(alerts[0]!.data).toMatchObject({ tagId: tag.id, scanId: rows[1]!.id, city: "Elsewhere", previousCity: "London", distanceKm: 101 });
    expect(alerts[0]!.body).toMatch(/5 minutes after a scan 101 km away in London/);
    // It says what it may mean and that nothing was refused, not that the scan was.
    expect(alerts[0]!.body).toMatch(/copied its QR code or link/);
    expect(alerts[0]!.body).toMatch(/VPN/);
    expect(alerts[0]!.body).toMatch(/page stayed open as usual, so a real finder can still message you/);
    expect(alerts[0]!.body).not.toMatch(/refused|blocked/);
  });

  it("99 km is not (a REAL scan and its alert)", async () => {
    const { owner, response, rows } = await cloneCase(99, 60_000);
    expect(response.status).toBe(200);
    expect(rows[1]).toMatchObject({ suspicious: false, scanClass: "REAL" });
    expect((await notificationsOf(owner.id)).map((alert) => alert.type)).toEqual(["TAG_SCANNED"]);
  });

  it("101 km after 5:01 is not", async () => {
    const { response, rows } = await cloneCase(101, 5 * 60_000 + 1_000);
    expect(response.status).toBe(200);
    expect(rows[1]!.suspicious).toBe(false);
  });

  it("spoofed Tokyo then Paris: every later scan, API or finder page, shows the lost pet with contact; one clone alert in 10 minutes", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner, { status: "LOST" });
    expect((await scan(tag.encryptedId, { geo: TOKYO })).status).toBe(200);
    const genuine = await scanView(tag.encryptedId, { geo: PARIS, ua: UA.androidChrome });
    expect(genuine.view).toMatchObject({ status: "LOST", itemName: "Rex", contactEnabled: true });
    // More suspicious scans from other clients, through the API and through the finder page's own path.
    expect((await scanView(tag.encryptedId, { geo: PARIS })).view.contactEnabled).toBe(true);
    const viaPage = await pageScan(tag.encryptedId, geoHeaders(PARIS));
    expect(viaPage).toMatchObject({ tagId: tag.id, status: "LOST", itemName: "Rex", contactEnabled: true });
    // The spoofer again, then the finder again from another phone.
    expect((await scanView(tag.encryptedId, { geo: TOKYO })).view.contactEnabled).toBe(true);
    expect((await scanView(tag.encryptedId, { geo: PARIS, ua: UA.androidChrome })).view.contactEnabled).toBe(true);
    const rows = await scansOf(tag.id);
    expect(rows.map((row) => [row.city, row.suspicious])).toEqual([
      ["Tokyo", false],
      ["Paris", true],
      ["Paris", true],
      ["Paris", true],
      ["Tokyo", false],
      ["Paris", true],
    ]);
    const clones = await notificationsOf(owner.id, "TAG_CLONE_DETECTED");
    expect(clones).toHaveLength(1);
    expect(clones[0]!.data).toMatchObject({ scanId: rows[1]!.id, city: "Paris", previousCity: "Tokyo" });
    // Past the one alert, a suspicious real scan is told like any other, since it may be a genuine finder.
    expect(await notificationsOf(owner.id, "TAG_SCANNED")).toHaveLength(5);
    expect((await tagRow(tag.id))!.scanCount).toBe(6);
  });

  it("alerts again only once 10 minutes have passed since the last alert for that tag", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    const other = await petTag(owner);
    const earlierAlert = (tagId: string, agoMs: number) =>
      db().insert(schema.notifications).values({ userId: owner.id, type: "TAG_CLONE_DETECTED", title: "t", body: "b", data: { tagId }, createdAt: new Date(Date.now() - agoMs) });
    await earlierAlert(tag.id, 9 * 60_000 + 30_000);
    await earlierAlert(other.id, 60_000);
    await priorScan(tag.id, 60_000, { latitude: LONDON.latitude, longitude: LONDON.longitude, city: "London" });
    await scanView(tag.encryptedId, { geo: PARIS });
    // Held back: the alert 9½ minutes ago covers it; the scan is still told as a scan.
    expect((await notificationsOf(owner.id, "TAG_CLONE_DETECTED")).filter((alert) => alert.data.tagId === tag.id)).toHaveLength(1);
    expect(await notificationsOf(owner.id, "TAG_SCANNED")).toHaveLength(1);

    // Suspicious scans that were not alerted do not hold the next alert back: only the alert's own time does.
    await db().update(schema.notifications).set({ createdAt: new Date(Date.now() - 11 * 60_000) }).where(eq(schema.notifications.userId, owner.id));
    await scanView(tag.encryptedId, { geo: PARIS });
    const alerts = (await notificationsOf(owner.id, "TAG_CLONE_DETECTED")).filter((alert) => alert.data.tagId === tag.id);
    expect(alerts).toHaveLength(2);
    expect((await scansOf(tag.id)).map((row) => row.suspicious)).toEqual([false, true, true]);
  });

  it("ten suspicious scans at once from ten clients: all answered, all stored suspicious, one clone alert", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    await priorScan(tag.id, 60_000, { latitude: LONDON.latitude, longitude: LONDON.longitude, city: "London" });
    const responses = await Promise.all(Array.from({ length: 10 }, () => scan(tag.encryptedId, { geo: PARIS })));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    const rows = (await scansOf(tag.id)).slice(1);
    expect(rows).toHaveLength(10);
    expect(rows.every((row) => row.suspicious && row.scanClass === "REAL")).toBe(true);
    expect(await notificationsOf(owner.id, "TAG_CLONE_DETECTED")).toHaveLength(1);
    expect(await notificationsOf(owner.id, "TAG_SCANNED")).toHaveLength(9);
  });

  it("an unowned tag's suspicious scan is answered as any (PENDING_SETUP, no contact), with nobody to alert", async () => {
    const [minted] = await mintTestTags(1);
    const tag = (await tagRow(minted!.id))!;
    expect((await scan(tag.encryptedId, { geo: LONDON })).status).toBe(200);
    const copy = await scanView(tag.encryptedId, { geo: PARIS });
    expect(copy.view).toMatchObject({ status: "PENDING_SETUP", contactEnabled: false });
    expect((await scansOf(tag.id)).map((row) => row.suspicious)).toEqual([false, true]);
    expect(await db().select().from(schema.notifications).where(sql`${schema.notifications.data}->>'tagId' = ${tag.id}`)).toEqual([]);
  });

  it("ignores bots, prefetches and shared locations on either side", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    await priorScan(tag.id, 60_000, { latitude: LONDON.latitude, longitude: LONDON.longitude, scanClass: "BOT" });
    await priorScan(tag.id, 60_000, { latitude: LONDON.latitude, longitude: LONDON.longitude, scanClass: "PREFETCH" });
    await priorScan(tag.id, 60_000, { latitude: LONDON.latitude, longitude: LONDON.longitude, locationShared: true });
    expect((await scan(tag.encryptedId, { geo: PARIS })).status).toBe(200);
    // A bot fetching from a data centre far away is not a clone either.
    expect((await scan(tag.encryptedId, { geo: { ...LONDON, latitude: 40, longitude: -74 }, ua: UA.googlebot })).status).toBe(200);
    expect((await scansOf(tag.id)).every((row) => !row.suspicious)).toBe(true);
  });

  it("a scan with a city but no coordinates is never a clone", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    await priorScan(tag.id, 60_000, { latitude: LONDON.latitude, longitude: LONDON.longitude, city: "London" });
    await scanView(tag.encryptedId, { headers: { "x-vercel-ip-city": "Paris", "x-vercel-ip-country": "FR" } });
    expect((await scansOf(tag.id)).at(-1)).toMatchObject({ city: "Paris", country: "FR", latitude: null, longitude: null, suspicious: false });
  });
});

describe("POST /scan/:encryptedId/location", () => {
  it("records the finder's location for the owner (not as a scan) and tells the owner once per 10 minutes", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner, { status: "LOST" });
    const ip = nextTestIp();
    const response = await share(tag.encryptedId, { latitude: 48.85837, longitude: 2.294481, accuracy: 12.5 }, { ip, headers: { "x-vercel-ip-city": "Paris", "x-vercel-ip-country": "FR", "x-vercel-ip-latitude": "48.85", "x-vercel-ip-longitude": "2.35" } });
    expect(response.status).toBe(201);
    const { data } = await json<{ data: { message: string; sharedAt: string } }>(response);
    expect(data.message).toMatch(/owner/);
    const [row] = await scansOf(tag.id);
    expect(row).toMatchObject({ locationShared: true, scanClass: "REAL", latitude: 48.85837, longitude: 2.294481, accuracy: 12.5, city: "Paris", country: "FR", ipHash: hashClientIp(ip), agent: "iPhone · Safari" });
    expect(data.sharedAt).toBe(row!.scannedAt.toISOString());
    expect((await tagRow(tag.id))!.scanCount).toBe(0);
    const alerts = await notificationsOf(owner.id);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ type: "FINDER_LOCATION_SHARED", data: { tagId: tag.id, scanId: row!.id, latitude: 48.85837, longitude: 2.294481, accuracy: 12.5 } });
    expect(JSON.stringify(alerts[0])).not.toContain(ip);

    expect((await share(tag.encryptedId, { latitude: 48.86, longitude: 2.3 }, { ip })).status).toBe(201);
    expect(await notificationsOf(owner.id)).toHaveLength(1);
    expect((await scansOf(tag.id)).at(-1)).toMatchObject({ locationShared: true, accuracy: null });

    // The owner's scan list shows both, with their class, agent and accuracy.
    const list = await call(tagScansRoute, apiRequest(`/api/v1/tags/${tag.id}/scans`, { headers: bearer(owner.accessToken) }), { id: tag.id });
    const items = (await json<{ data: Record<string, unknown>[] }>(list)).data;
    expect(items).toHaveLength(2);
    expect(items[1]).toEqual({
      id: row!.id,
      scannedAt: row!.scannedAt.toISOString(),
      city: "Paris",
      country: "FR",
      latitude: 48.85837,
      longitude: 2.294481,
      suspicious: false,
      scanClass: "REAL",
      agent: "iPhone · Safari",
      locationShared: true,
      accuracy: 12.5,
    });
  });

  it("validates the position (400 naming the field)", async () => {
    const owner = await registerAccount();
    const tag = await petTag(owner);
    const cases: [unknown, string][] = [
      [{ latitude: 90.0001, longitude: 0 }, "latitude"],
      [{ latitude: -91, longitude: 0 }, "latitude"],
      [{ latitude: 0, longitude: 180.5 }, "longitude"],
      [{ latitude: 0, longitude: -181 }, "longitude"],
      [{ latitude: 0, longitude: 0, accuracy: -1 }, "accuracy"],
      [{ latitude: 0, longitude: 0, accuracy: 100_001 }, "accuracy"],
      [{ latitude: "51.5", longitude: 0 }, "latitude"],
      [{ longitude: 0 }, "latitude"],
      [{ latitude: 0 }, "longitude"],
    ];
    for (const [body, field] of cases) {
      const response = await share(tag.encryptedId, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const error = (await json<{ error: { code: string; details: { fieldErrors: Record<string, string[]> } } }>(response)).error;
      expect(error.code).toBe("VALIDATION_ERROR");
      expect(Object.keys(error.details.fieldErrors)).toContain(field);
    }
    for (const body of [{ latitude: 90, longitude: -180 }, { latitude: -90, longitude: 180, accuracy: 0 }, { latitude: 0, longitude: 0, accuracy: 100_000 }]) {
      expect((await share(tag.encryptedId, body)).status, JSON.stringify(body)).toBe(201);
    }
    expect(await scansOf(tag.id)).toHaveLength(3);
  });

  it("an unowned or DEACTIVATED tag takes no location (403); an unknown one is 404", async () => {
    const [minted] = await mintTestTags(1);
    const unowned = (await tagRow(minted!.id))!;
    const position = { latitude: 1, longitude: 2 };
    const refused = await share(unowned.encryptedId, position);
    expect(refused.status).toBe(403);
    expect((await json<{ error: { code: string } }>(refused)).error.code).toBe("FORBIDDEN");
    const owner = await registerAccount();
    const off = await petTag(owner, { status: "DEACTIVATED" });
    expect((await share(off.encryptedId, position)).status).toBe(403);
    expect((await share("AAAAAAAAAAAAAAAAAAAAAAAA", position)).status).toBe(404);
    expect((await share("bad id!", position)).status).toBe(404);
    expect([...(await scansOf(unowned.id)), ...(await scansOf(off.id))]).toHaveLength(0);
    expect(await notificationsOf(owner.id)).toHaveLength(0);
  });
});
