import { describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { GET as getRoute, PUT as putRoute, POST as profilePostRoute } from "@/app/api/v1/emergency/route";
import { POST as addContactRoute, GET as contactsGetRoute } from "@/app/api/v1/emergency/contacts/route";
import { DELETE as deleteContactRoute, PATCH as patchContactRoute } from "@/app/api/v1/emergency/contacts/[id]/route";
import { GET as accessesRoute } from "@/app/api/v1/emergency/accesses/route";
import { GET as scanRoute, POST as scanPostRoute } from "@/app/api/v1/scan/[encryptedId]/emergency/route";
import { JOBS_SCHEMA } from "@/lib/jobs";
import { hashClientIp } from "@/lib/services/visitor";
import { systemContext } from "@/lib/services/context";
import { emergencyCardQr, emergencyCardTags, readEmergencyProfileByTag } from "@/lib/services/emergency";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, awayFromWindowEdge, call, json, nextTestIp } from "../support/http";
import { giveTestTag, mintTestTags } from "../support/tags";

const MISSING_ID = "00000000-0000-4000-8000-000000000000";
const ANDROID_CHROME = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36";

type ErrorBody = { success: false; error: { code: string; message: string; details?: { fieldErrors?: Record<string, string[]>; limit?: number } } };
type Contact = { id: string; name: string; relationship: string; phone: string; email: string | null };
type Profile = {
  bloodType: string | null;
  conditions: string[];
  allergies: string[];
  medications: string[];
  physician: string | null;
  physicianPhone: string | null;
  specialInstructions: string | null;
  organDonor: boolean | null;
  emergencyContacts: Contact[];
  updatedAt: string | null;
};

const auth = (account: TestAccount | null) => (account ? bearer(account.accessToken) : {});

function getProfile(account: TestAccount | null) {
  return call(getRoute, apiRequest("/api/v1/emergency", { headers: auth(account) }));
}
function putProfile(account: TestAccount | null, body: unknown) {
  return call(putRoute, apiRequest("/api/v1/emergency", { method: "PUT", headers: auth(account), body }));
}
function addContact(account: TestAccount | null, body: unknown) {
  return call(addContactRoute, apiRequest("/api/v1/emergency/contacts", { method: "POST", headers: auth(account), body }));
}
function patchContact(account: TestAccount | null, id: string, body: unknown) {
  return call(patchContactRoute, apiRequest(`/api/v1/emergency/contacts/${id}`, { method: "PATCH", headers: auth(account), body }), { id });
}
function deleteContact(account: TestAccount | null, id: string) {
  return call(deleteContactRoute, apiRequest(`/api/v1/emergency/contacts/${id}`, { method: "DELETE", headers: auth(account) }), { id });
}
function accesses(account: TestAccount | null, query = "") {
  return call(accessesRoute, apiRequest(`/api/v1/emergency/accesses${query}`, { headers: auth(account) }));
}
function scan(encryptedId: string, init: { ip?: string; headers?: Record<string, string> } = {}) {
  return call(scanRoute, apiRequest(`/api/v1/scan/${encodeURIComponent(encryptedId)}/emergency`, { ip: init.ip ?? nextTestIp(), headers: init.headers }), { encryptedId });
}

async function expectError(response: Response, status: number, code: string): Promise<ErrorBody["error"]> {
  expect(response.status).toBe(status);
  const body = await json<ErrorBody>(response);
  expect(body).toMatchObject({ success: false, error: { code } });
  return body.error;
}

const fullProfile = {
  bloodType: "AB-",
  conditions: ["Type 1 diabetes", "Asthma"],
  allergies: ["Penicillin"],
  medications: ["Insulin glargine 20 units nightly"],
  physician: "Dr. Grace Hopper",
  physicianPhone: "+1 555 0100",
  specialInstructions: "Glucose tablets in the left jacket pocket.",
  organDonor: true,
};

async function accessRows(userId: string) {
  return getDatabase().db.select().from(schema.emergencyAccesses).where(eq(schema.emergencyAccesses.userId, userId));
}
async function emergencyNotifications(userId: string) {
  return getDatabase()
    .db.select()
    .from(schema.notifications)
    .where(and(eq(schema.notifications.userId, userId), eq(schema.notifications.type, "EMERGENCY_ACCESSED")));
}

describe("the owner's emergency profile", () => {
  it("answers the empty profile before anything is saved, then replaces it on PUT (absent fields cleared, contacts kept)", async () => {
    const owner = await registerAccount();
    const empty = await getProfile(owner);
    expect(empty.status).toBe(200);
    expect((await json<{ data: Profile }>(empty)).data).toEqual({
      bloodType: null,
      conditions: [],
      allergies: [],
      medications: [],
      physician: null,
      physicianPhone: null,
      specialInstructions: null,
      organDonor: null,
      emergencyContacts: [],
      updatedAt: null,
    });

    const saved = await putProfile(owner, { ...fullProfile, conditions: ["  Type 1 diabetes ", "Asthma"] });
    expect(saved.status).toBe(200);
    const fields = (await json<{ data: Record<string, unknown> }>(saved)).data;
    expect(fields).toMatchObject(fullProfile);
    expect(fields).not.toHaveProperty("emergencyContacts");
    expect(typeof fields.updatedAt).toBe("string");

    expect((await addContact(owner, { name: "Alan Turing", relationship: "Brother", phone: "+44 20 7946 0000" })).status).toBe(201);
    const read = (await json<{ data: Profile }>(await getProfile(owner))).data;
    expect(read).toMatchObject(fullProfile);
    expect(read.emergencyContacts).toHaveLength(1);

    // PUT replaces: what is left out is cleared, lists become empty; the contacts stay.
    const replaced = await putProfile(owner, { allergies: ["Latex"], organDonor: false });
    expect(replaced.status).toBe(200);
    const after = (await json<{ data: Profile }>(await getProfile(owner))).data;
    expect(after).toMatchObject({ bloodType: null, conditions: [], allergies: ["Latex"], medications: [], physician: null, physicianPhone: null, specialInstructions: null, organDonor: false });
    expect(after.emergencyContacts).toHaveLength(1);

    const cleared = await putProfile(owner, {});
    expect((await json<{ data: Profile }>(cleared)).data).toMatchObject({ allergies: [], organDonor: null });
  });

  it("validates the profile (400 naming the field) and saves nothing", async () => {
    const owner = await registerAccount();
    const invalid: [Record<string, unknown>, string][] = [
      [{ bloodType: "Z+" }, "bloodType"],
      [{ bloodType: "ab+" }, "bloodType"],
      [{ conditions: "Asthma" }, "conditions"],
      [{ conditions: Array.from({ length: 21 }, (_, i) => `Condition ${i}`) }, "conditions"],
      [{ allergies: ["x".repeat(101)] }, "allergies.0"],
      [{ medications: ["ok", "   "] }, "medications.1"],
      [{ medications: [42] }, "medications.0"],
      [{ physician: "x".repeat(101) }, "physician"],
      [{ physicianPhone: "call me" }, "physicianPhone"],
      [{ specialInstructions: "x".repeat(501) }, "specialInstructions"],
      [{ organDonor: "yes" }, "organDonor"],
    ];
    for (const [body, field] of invalid) {
      const error = await expectError(await putProfile(owner, body), 400, "VALIDATION_ERROR");
      expect(Object.keys(error.details?.fieldErrors ?? {}), JSON.stringify(body)).toContain(field);
    }
    const [row] = await getDatabase().db.select().from(schema.emergencyProfiles).where(eq(schema.emergencyProfiles.userId, owner.id));
    expect(row).toBeUndefined();
    // 20 items of 100 characters is the limit, not over it.
    expect((await putProfile(owner, { conditions: Array.from({ length: 20 }, (_, i) => `${i}`.padEnd(100, "x")) })).status).toBe(200);
  });

  it("is 401 without a credential, and 405 for methods it does not take", async () => {
    await expectError(await getProfile(null), 401, "UNAUTHORIZED");
    await expectError(await putProfile(null, fullProfile), 401, "UNAUTHORIZED");
    await expectError(await addContact(null, { name: "A", relationship: "B", phone: "+1 555 0100" }), 401, "UNAUTHORIZED");
    await expectError(await patchContact(null, MISSING_ID, { name: "A" }), 401, "UNAUTHORIZED");
    await expectError(await deleteContact(null, MISSING_ID), 401, "UNAUTHORIZED");
    await expectError(await accesses(null), 401, "UNAUTHORIZED");
    const owner = await registerAccount();
    expect((await call(profilePostRoute, apiRequest("/api/v1/emergency", { method: "POST", headers: auth(owner), body: {} }))).status).toBe(405);
    expect((await call(contactsGetRoute, apiRequest("/api/v1/emergency/contacts", { headers: auth(owner) }))).status).toBe(405);
    expect((await call(scanPostRoute, apiRequest("/api/v1/scan/abc/emergency", { method: "POST", body: {} }), { encryptedId: "abc" })).status).toBe(405);
  });
});

describe("emergency contacts", () => {
  it("adds (201 with an id), edits in part, removes an e-mail, deletes ({ message }), then 404", async () => {
    const owner = await registerAccount();
    const created = await addContact(owner, { name: " Alan Turing ", relationship: "Brother", phone: "+44 20 7946 0000", email: "alan@example.com" });
    expect(created.status).toBe(201);
    const contact = (await json<{ data: Contact }>(created)).data;
    expect(contact).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: "Alan Turing", relationship: "Brother", phone: "+44 20 7946 0000", email: "alan@example.com" });

    const renamed = await patchContact(owner, contact.id, { relationship: "Twin brother" });
    expect(renamed.status).toBe(200);
    expect((await json<{ data: Contact }>(renamed)).data).toEqual({ ...contact, relationship: "Twin brother" });

    const unchanged = await patchContact(owner, contact.id, {});
    expect((await json<{ data: Contact }>(unchanged)).data.relationship).toBe("Twin brother");

    const noEmail = await patchContact(owner, contact.id, { email: null, phone: "+44 (0)20 7946 0001" });
    expect((await json<{ data: Contact }>(noEmail)).data).toMatchObject({ email: null, phone: "+44 (0)20 7946 0001" });

    const removed = await deleteContact(owner, contact.id);
    expect(removed.status).toBe(200);
    expect((await json<{ data: { message: string } }>(removed)).data.message).toMatch(/removed/);
    await expectError(await deleteContact(owner, contact.id), 404, "NOT_FOUND");
    await expectError(await patchContact(owner, contact.id, { name: "Ghost" }), 404, "NOT_FOUND");
    expect((await json<{ data: Profile }>(await getProfile(owner))).data.emergencyContacts).toEqual([]);
  });

  it("validates contacts: name, relationship and phone required and well-formed, e-mail optional but valid", async () => {
    const owner = await registerAccount();
    const good = { name: "Alan Turing", relationship: "Brother", phone: "+44 20 7946 0000" };
    const invalid: [Record<string, unknown>, string][] = [
      [{ ...good, name: undefined }, "name"],
      [{ ...good, name: "  " }, "name"],
      [{ ...good, name: "x".repeat(101) }, "name"],
      [{ ...good, relationship: undefined }, "relationship"],
      [{ ...good, phone: undefined }, "phone"],
      [{ ...good, phone: "call me maybe" }, "phone"],
      [{ ...good, phone: "1".repeat(51) }, "phone"],
      [{ ...good, email: "not an address" }, "email"],
    ];
    for (const [body, field] of invalid) {
      const error = await expectError(await addContact(owner, body), 400, "VALIDATION_ERROR");
      expect(Object.keys(error.details?.fieldErrors ?? {}), JSON.stringify(body)).toContain(field);
    }
    const contact = (await json<{ data: Contact }>(await addContact(owner, good))).data;
    for (const [body, field] of [
      [{ name: "" }, "name"],
      [{ name: null }, "name"],
      [{ phone: "abc" }, "phone"],
      [{ email: "nope" }, "email"],
    ] as const) {
      const error = await expectError(await patchContact(owner, contact.id, body), 400, "VALIDATION_ERROR");
      expect(Object.keys(error.details?.fieldErrors ?? {})).toContain(field);
    }
  });

  it("keeps another user's contacts out of reach (404), and a malformed id is 404", async () => {
    const owner = await registerAccount();
    const intruder = await registerAccount();
    const contact = (await json<{ data: Contact }>(await addContact(owner, { name: "Alan", relationship: "Brother", phone: "+1 555 0100" }))).data;
    for (const id of [contact.id, MISSING_ID, "not-a-uuid"]) {
      await expectError(await patchContact(intruder, id, { name: "Mallory" }), 404, "NOT_FOUND");
      await expectError(await deleteContact(intruder, id), 404, "NOT_FOUND");
    }
    expect((await json<{ data: Profile }>(await getProfile(intruder))).data.emergencyContacts).toEqual([]);
    expect((await json<{ data: Profile }>(await getProfile(owner))).data.emergencyContacts).toEqual([contact]);
  });

  it("allows at most five contacts (422 with the limit)", async () => {
    const owner = await registerAccount();
    for (let i = 1; i <= 5; i++) expect((await addContact(owner, { name: `Contact ${i}`, relationship: "Friend", phone: `+1 555 010${i}` })).status).toBe(201);
    const error = await expectError(await addContact(owner, { name: "Sixth", relationship: "Friend", phone: "+1 555 0106" }), 422, "UNPROCESSABLE_ENTITY");
    expect(error.details?.limit).toBe(5);
    const contacts = (await json<{ data: Profile }>(await getProfile(owner))).data.emergencyContacts;
    expect(contacts.map((contact) => contact.name)).toEqual(["Contact 1", "Contact 2", "Contact 3", "Contact 4", "Contact 5"]);
    // Removing one makes room again.
    expect((await deleteContact(owner, contacts[0]!.id)).status).toBe(200);
    expect((await addContact(owner, { name: "Sixth", relationship: "Friend", phone: "+1 555 0106" })).status).toBe(201);
  });

  it("never leaves six contacts when ten are added at once", async () => {
    const owner = await registerAccount();
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => addContact(owner, { name: `Racer ${i}`, relationship: "Friend", phone: `+1 555 02${String(i).padStart(2, "0")}` })));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 201, 422, 422, 422, 422, 422]);
    const rows = await getDatabase().db.select().from(schema.emergencyContacts).where(eq(schema.emergencyContacts.userId, owner.id));
    expect(rows).toHaveLength(5);
  });
});

async function ownerWithProfile(options: { firstName?: string; lastName?: string } = {}) {
  const owner = await registerAccount({ firstName: options.firstName ?? "Zenobia", lastName: options.lastName ?? "Quartermaine" });
  await getDatabase().db.update(schema.users).set({ phone: "+1 555 0199" }).where(eq(schema.users.id, owner.id));
  expect((await putProfile(owner, fullProfile)).status).toBe(200);
  const contact = (await json<{ data: Contact }>(await addContact(owner, { name: "Alan Turing", relationship: "Brother", phone: "+44 20 7946 0000", email: "alan.contact@example.com" }))).data;
  return { owner, contact };
}

describe("GET /scan/:encryptedId/emergency (first responders)", () => {
  it("serves the profile with the public contact view whatever the visibility, and nothing of the owner's account", async () => {
    const { owner, contact } = await ownerWithProfile();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "House keys" });
    await getDatabase().db.update(schema.tags).set({ visibility: "PRIVATE" }).where(eq(schema.tags.id, tag.id));

    const response = await scan(tag.encryptedId, { headers: { "user-agent": ANDROID_CHROME } });
    expect(response.status).toBe(200);
    expect(response.headers.get("X-RateLimit-Limit")).toBe("5");
    const text = await response.text();
    const body = JSON.parse(text) as { success: true; data: Record<string, unknown> & { emergencyContacts: Record<string, unknown>[] } };
    expect(Object.keys(body.data).sort()).toEqual(
      ["allergies", "bloodType", "conditions", "emergencyContacts", "medications", "organDonor", "ownerName", "physician", "physicianPhone", "specialInstructions", "updatedAt"].sort(),
    );
    // No name chosen for finders on this tag: the page says "the person who carries this tag", never the account's name.
    expect(body.data.ownerName).toBeNull();
    expect(body.data).toMatchObject(fullProfile);
    expect(body.data.emergencyContacts).toEqual([{ name: "Alan Turing", relationship: "Brother", phone: "+44 20 7946 0000" }]);
    for (const secret of [owner.email, owner.id, "+1 555 0199", "Zenobia", "Quartermaine", contact.id, "alan.contact@example.com", tag.id]) {
      expect(text, secret).not.toContain(secret);
    }
  });

  it("logs every read and notifies the owner each time, urgently (quiet hours hold nothing back), with the tag, the access and the city", async () => {
    const { owner } = await ownerWithProfile();
    // Quiet all day long: an ordinary notification would wait, this one must not.
    const quietFrom = new Date(Date.now() - 60 * 60_000).toISOString().slice(11, 16);
    const quietTo = new Date(Date.now() + 60 * 60_000).toISOString().slice(11, 16);
    await getDatabase().db.insert(schema.notificationPreferences).values({ userId: owner.id, quietHoursStart: quietFrom, quietHoursEnd: quietTo, timeZone: "UTC" });
    const tag = await giveTestTag(owner.id, { status: "LOST", itemName: "Backpack" });
    const ip = nextTestIp();
    expect((await scan(tag.encryptedId, { ip, headers: { "user-agent": ANDROID_CHROME } })).status).toBe(200);
    expect((await scan(tag.encryptedId, { ip })).status).toBe(200);

    const rows = await accessRows(owner.id);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.tagId).toBe(tag.id);
      expect(row.ipHash).toBe(hashClientIp(ip));
      expect(row.ipHash).not.toContain(ip);
    }
    expect(rows.map((row) => row.agent ?? "none").sort()).toEqual(["Chrome on Android", "none"]);

    const notes = await emergencyNotifications(owner.id);
    expect(notes).toHaveLength(2);
    const byAccess = (entries: { accessId: string }[]) => [...entries].sort((a, b) => a.accessId.localeCompare(b.accessId));
    expect(byAccess(notes.map((note) => note.data as { accessId: string }))).toEqual(byAccess(rows.map((row) => ({ tagId: tag.id, accessId: row.id, city: null }))));
    expect(notes[0]!.body).toContain("Backpack");

    const result = await getDatabase().db.execute(sql`select name, start_after from ${sql.raw(JOBS_SCHEMA)}.job where data->>'notificationId' = ${notes[0]!.id}`);
    const jobs = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { name: string; start_after: Date | string }[];
    expect(jobs.map((job) => job.name).sort()).toEqual(["notifications.email", "notifications.push"]);
    for (const job of jobs) expect(new Date(job.start_after).getTime()).toBeLessThan(Date.now() + 60_000);
  });

  it("records the trusted place of the reader and says it in the notification (the page's path, through the service)", async () => {
    const { owner } = await ownerWithProfile();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Bike" });
    const visitor = { ip: "203.0.113.77", userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1", geo: { latitude: 45.76, longitude: 4.84, city: "Lyon", country: "FR" }, method: "GET", prefetch: false, acceptLanguage: "fr" };
    const profile = await readEmergencyProfileByTag(systemContext(getDatabase().db), tag.encryptedId, visitor);
    expect(profile.bloodType).toBe("AB-");
    const [row] = await accessRows(owner.id);
    expect(row).toMatchObject({ tagId: tag.id, city: "Lyon", country: "FR", agent: "Safari on iOS", ipHash: hashClientIp("203.0.113.77") });
    const [note] = await emergencyNotifications(owner.id);
    expect(note?.data).toEqual({ tagId: tag.id, accessId: row!.id, city: "Lyon" });
    expect(note?.body).toContain("near Lyon, FR");
  });

  it("is 404 for an unknown, malformed, unowned or deactivated tag and for an owner with nothing to show, logging nothing", async () => {
    const { owner } = await ownerWithProfile();
    const deactivated = await giveTestTag(owner.id, { status: "DEACTIVATED" });
    const [unowned] = await mintTestTags(1);
    const bare = await registerAccount();
    const bareTag = await giveTestTag(bare.id, { status: "ACTIVE" });
    const emptied = await registerAccount();
    expect((await putProfile(emptied, {})).status).toBe(200);
    const emptiedTag = await giveTestTag(emptied.id, { status: "ACTIVE" });

    for (const encryptedId of ["q3Jk9vT0bX1mZ8wR4sY2uA6c", "not an id!", "x".repeat(65), unowned!.encryptedId, deactivated.encryptedId, bareTag.encryptedId, emptiedTag.encryptedId]) {
      const error = await expectError(await scan(encryptedId), 404, "NOT_FOUND");
      expect(error.message).not.toContain(owner.email);
    }
    expect(await accessRows(owner.id)).toEqual([]);
    expect(await accessRows(bare.id)).toEqual([]);
    expect(await emergencyNotifications(owner.id)).toEqual([]);

    // A contact alone is enough to serve the page: a first responder can call someone.
    const onlyContact = await registerAccount();
    expect((await addContact(onlyContact, { name: "Mum", relationship: "Mother", phone: "+1 555 0111" })).status).toBe(201);
    const contactTag = await giveTestTag(onlyContact.id, { status: "PENDING_SETUP" });
    const served = await scan(contactTag.encryptedId);
    expect(served.status).toBe(200);
    expect((await json<{ data: Profile }>(served)).data).toMatchObject({ bloodType: null, organDonor: null, emergencyContacts: [{ name: "Mum", relationship: "Mother", phone: "+1 555 0111" }] });
  });

  it("allows 5 reads per minute per IP, then 429 with Retry-After (other IPs unaffected)", async () => {
    await awayFromWindowEdge(60_000, 15_000);
    const { owner } = await ownerWithProfile();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE" });
    const ip = nextTestIp();
    for (let i = 0; i < 5; i++) expect((await scan(tag.encryptedId, { ip })).status).toBe(200);
    const limited = await scan(tag.encryptedId, { ip });
    await expectError(limited, 429, "RATE_LIMIT_EXCEEDED");
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(limited.headers.get("X-RateLimit-Remaining")).toBe("0");
    // Limited reads are not logged: only the five that were served.
    expect(await accessRows(owner.id)).toHaveLength(5);
    expect((await scan(tag.encryptedId, { ip: nextTestIp() })).status).toBe(200);
  });
});

describe("GET /emergency/accesses (the owner's access log)", () => {
  it("lists the owner's reads newest first, paginated, with the tag's name while the tag is still theirs", async () => {
    const { owner } = await ownerWithProfile();
    const keys = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Keys" });
    const bag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Bag" });
    expect((await scan(keys.encryptedId, { headers: { "user-agent": ANDROID_CHROME } })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await scan(bag.encryptedId)).status).toBe(200);

    const other = await ownerWithProfile();
    const otherTag = await giveTestTag(other.owner.id, { status: "ACTIVE", itemName: "Not yours" });
    expect((await scan(otherTag.encryptedId)).status).toBe(200);

    const response = await accesses(owner, "?page=1&limit=1");
    expect(response.status).toBe(200);
    const page = await json<{ data: Record<string, unknown>[]; meta: { total: number; page: number; totalPages: number } }>(response);
    expect(page.meta).toMatchObject({ total: 2, page: 1, totalPages: 2 });
    expect(page.data).toEqual([{ id: expect.any(String), accessedAt: expect.any(String), tagId: bag.id, tagName: "Bag", city: null, country: null, agent: null }]);
    const second = await json<{ data: Record<string, unknown>[] }>(await accesses(owner, "?page=2&limit=1"));
    expect(second.data).toEqual([expect.objectContaining({ tagId: keys.id, tagName: "Keys", agent: "Chrome on Android" })]);

    // A tag that left the account keeps its id in the log, not its new name.
    await getDatabase().db.update(schema.tags).set({ ownerId: other.owner.id, itemName: "Renamed by the new owner" }).where(eq(schema.tags.id, keys.id));
    const all = await json<{ data: { tagId: string; tagName: string | null }[] }>(await accesses(owner));
    expect(all.data.find((entry) => entry.tagId === keys.id)?.tagName).toBeNull();

    await expectError(await accesses(owner, "?limit=101"), 400, "VALIDATION_ERROR");
    await expectError(await accesses(owner, "?page=0"), 400, "VALIDATION_ERROR");
  });
});

describe("the ICE card's QR code", () => {
  it("encodes the tag's emergency page for the owner's own tags that serve it", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Wallet" });
    const off = await giveTestTag(owner.id, { status: "DEACTIVATED", itemName: "Old" });
    const ctx = { actor: { kind: "user" as const, userId: owner.id, role: "USER" as const, ip: "203.0.113.1" }, db: getDatabase().db };
    expect((await emergencyCardTags(ctx)).map((entry) => entry.id)).toEqual([tag.id]);
    const qr = await emergencyCardQr(ctx, tag.id);
    expect(qr.url).toMatch(new RegExp(`/t/${tag.encryptedId}/emergency$`));
    expect(qr.svg).toContain("<svg");
    await expect(emergencyCardQr(ctx, off.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    const intruder = await registerAccount();
    await expect(emergencyCardQr({ ...ctx, actor: { ...ctx.actor, userId: intruder.id } }, tag.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
