import { randomInt } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { POST as requestCodeRoute } from "@/app/api/v1/auth/phone/route";
import { POST as verifyCodeRoute } from "@/app/api/v1/auth/phone/verify/route";
import { GET as getRelayRoute, PATCH as patchRelayRoute } from "@/app/api/v1/tags/[id]/relay/route";
import { POST as pinRoute } from "@/app/api/v1/tags/[id]/relay/pin/route";
import { GET as devPhoneRoute } from "@/app/api/dev/phone/route";
import { GET as exportRoute } from "@/app/api/v1/auth/me/export/route";
import { openSealedText } from "@/lib/auth/tokens";
import { systemContext, withTransaction } from "@/lib/services/context";
import { assignRelayPin, findOwnerByPhone, hashPhoneNumber, resolveRelayPin, switchOffTagRelay } from "@/lib/services/relay";
import { setTelephonyProviderForTests } from "@/lib/telephony/provider";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, call, json } from "../support/http";
import { giveTestTag } from "../support/tags";

type ErrorBody = { success: false; error: { code: string; message: string; details?: Record<string, unknown> } };
type Relay = { enabled: boolean; number: string; pin: string | null; quietHours: { from: string; to: string; timeZone: string } | null };

const RELAY_NUMBER = "+15005550006";
const MISSING_ID = "00000000-0000-4000-8000-000000000000";

/** A fresh valid German mobile number (0151 and 8 digits), so no two tests share a number's limits. */
function freshNumber(): string {
  return `+49151${String(randomInt(0, 100_000_000)).padStart(8, "0")}`;
}

afterEach(() => {
  setTelephonyProviderForTests();
  vi.unstubAllEnvs();
});

function requestCode(account: TestAccount, body: unknown) {
  return call(requestCodeRoute, apiRequest("/api/v1/auth/phone", { method: "POST", headers: bearer(account.accessToken), body }));
}

function verifyCode(account: TestAccount, code: string) {
  return call(verifyCodeRoute, apiRequest("/api/v1/auth/phone/verify", { method: "POST", headers: bearer(account.accessToken), body: { code } }));
}

async function devPhone(number: string) {
  const response = await call(devPhoneRoute, apiRequest(`/api/dev/phone?number=${encodeURIComponent(number)}`));
  expect(response.status).toBe(200);
  return (await json<{ data: { sid: string; kind: string; from: string; to: string; body: string | null; createdAt: string }[] }>(response)).data;
}

/** The code in the newest text the test provider delivered to the number. */
async function lastCode(number: string): Promise<string> {
  const [latest] = await devPhone(number);
  const code = latest?.body?.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code texted to ${number}`);
  return code;
}

async function verifiedOwner(number = freshNumber()): Promise<{ account: TestAccount; number: string }> {
  const account = await registerAccount();
  expect((await requestCode(account, { phone: number })).status).toBe(202);
  expect((await verifyCode(account, await lastCode(number))).status).toBe(200);
  return { account, number };
}

function getRelay(account: TestAccount, tagId: string) {
  return call(getRelayRoute, apiRequest(`/api/v1/tags/${tagId}/relay`, { headers: bearer(account.accessToken) }), { id: tagId });
}

function patchRelay(account: TestAccount, tagId: string, body: unknown) {
  return call(patchRelayRoute, apiRequest(`/api/v1/tags/${tagId}/relay`, { method: "PATCH", headers: bearer(account.accessToken), body }), { id: tagId });
}

function newPin(account: TestAccount, tagId: string) {
  return call(pinRoute, apiRequest(`/api/v1/tags/${tagId}/relay/pin`, { method: "POST", headers: bearer(account.accessToken) }), { id: tagId });
}

const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

describe("POST /auth/phone and /auth/phone/verify", () => {
  it("texts a code through the test provider and verifies the number, showing only its last 2 digits", async () => {
    const account = await registerAccount();
    const number = freshNumber();
    const spaced = `${number.slice(0, 3)} ${number.slice(3, 6)} ${number.slice(6)}`;
    const sent = await requestCode(account, { phone: spaced });
    expect(sent.status).toBe(202);
    const sentBody = (await json<{ data: { message: string; lastDigits: string; expiresAt: string } }>(sent)).data;
    expect(sentBody.lastDigits).toBe(number.slice(-2));
    expect(new Date(sentBody.expiresAt).getTime() - Date.now()).toBeGreaterThan(9 * 60 * 1000);
    expect(JSON.stringify(sentBody)).not.toContain(number.slice(3));

    const [text] = await devPhone(number);
    expect(text).toMatchObject({ kind: "sms", from: RELAY_NUMBER, to: number });
    expect(text!.sid).toMatch(/^SM[0-9a-f]{32}$/);

    // Stored sealed and hashed, the code only as a hash.
    const [pending] = await getDatabase().db.select().from(schema.phoneVerifications).where(eq(schema.phoneVerifications.userId, account.id));
    const code = await lastCode(number);
    expect(JSON.stringify(pending)).not.toContain(number.slice(1));
    expect(JSON.stringify(pending)).not.toContain(code);

    const verified = await verifyCode(account, code);
    expect(verified.status).toBe(200);
    const body = (await json<{ data: Record<string, unknown> }>(verified)).data;
    expect(body).toEqual({ lastDigits: number.slice(-2), verifiedAt: expect.any(String) });

    const [stored] = await getDatabase().db.select().from(schema.ownerPhones).where(eq(schema.ownerPhones.userId, account.id));
    expect(stored!.lastDigits).toBe(number.slice(-2));
    expect(stored!.phoneSealed).not.toContain(number.slice(1));
    expect(openSealedText("relay-owner-phone", stored!.phoneSealed)).toBe(number);
    expect(stored!.phoneHash).toBe(hashPhoneNumber(number));
    expect(await findOwnerByPhone(getDatabase().db, number)).toEqual({ ownerId: account.id });

    // The code is spent.
    const again = await verifyCode(account, code);
    expect(again.status).toBe(400);
    expect((await json<ErrorBody>(again)).error.code).toBe("VALIDATION_ERROR");
  });

  it("takes a national number with its country, and refuses an invalid one with 400", async () => {
    const account = await registerAccount();
    const number = freshNumber();
    expect((await requestCode(account, { phone: `0${number.slice(3)}`, country: "DE" })).status).toBe(202);
    expect((await devPhone(number)).length).toBe(1);
    for (const phone of ["12345", "+49 1", "not a number", `0${number.slice(3)}`]) {
      const response = await requestCode(account, { phone });
      expect(response.status, phone).toBe(400);
      const body = await json<ErrorBody>(response);
      expect(body.error.code).toBe("VALIDATION_ERROR");
      expect(body.error.details).toMatchObject({ fieldErrors: { phone: [expect.any(String)] } });
    }
    // Every request counts against the account's 5 an hour, refused ones too: another account for the rest.
    const other = await registerAccount();
    expect((await requestCode(other, { phone: number, country: "Germany" })).status).toBe(400);
    expect((await requestCode(other, {})).status).toBe(400);
  });

  it("answers 400 for no code pending, a malformed code and an expired code", async () => {
    const account = await registerAccount();
    expect((await verifyCode(account, "123456")).status).toBe(400);
    expect((await verifyCode(account, "12345")).status).toBe(400);
    const number = freshNumber();
    await requestCode(account, { phone: number });
    const code = await lastCode(number);
    await getDatabase().db.update(schema.phoneVerifications).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(schema.phoneVerifications.userId, account.id));
    const expired = await verifyCode(account, code);
    expect(expired.status).toBe(400);
    expect((await json<ErrorBody>(expired)).error.message).toMatch(/expired/);
    expect(await findOwnerByPhone(getDatabase().db, number)).toBeNull();
  });

  it("spends the code after 5 wrong tries: the right one no longer works", async () => {
    const account = await registerAccount();
    const number = freshNumber();
    await requestCode(account, { phone: number });
    const code = await lastCode(number);
    const messages: string[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await verifyCode(account, wrongCode(code));
      expect(response.status).toBe(400);
      messages.push((await json<ErrorBody>(response)).error.message);
    }
    expect(messages[0]).toMatch(/4 tries left/);
    expect(messages[4]).toMatch(/used up/);
    const right = await verifyCode(account, code);
    expect(right.status).toBe(400);
    expect((await json<ErrorBody>(right)).error.message).toMatch(/used up/);
    // A new code starts over.
    await requestCode(account, { phone: number });
    expect((await verifyCode(account, await lastCode(number))).status).toBe(200);
  });

  it("verifies once when ten requests bring the right code at the same time", async () => {
    const account = await registerAccount();
    const number = freshNumber();
    await requestCode(account, { phone: number });
    const code = await lastCode(number);
    const statuses = (await Promise.all(Array.from({ length: 10 }, () => verifyCode(account, code)))).map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 400)).toHaveLength(9);
  });

  it("lets a burst of wrong codes use at most 5 tries", async () => {
    const account = await registerAccount();
    const number = freshNumber();
    await requestCode(account, { phone: number });
    const code = await lastCode(number);
    const responses = await Promise.all(Array.from({ length: 12 }, () => verifyCode(account, wrongCode(code))));
    expect(responses.every((response) => response.status === 400)).toBe(true);
    const [pending] = await getDatabase().db.select().from(schema.phoneVerifications).where(eq(schema.phoneVerifications.userId, account.id));
    expect(pending!.attempts).toBe(5);
    expect((await verifyCode(account, code)).status).toBe(400);
  });

  it("limits codes per account (5 an hour) and per number (5 a day, whoever asks)", async () => {
    const account = await registerAccount();
    for (let i = 0; i < 5; i++) expect((await requestCode(account, { phone: freshNumber() })).status).toBe(202);
    const limited = await requestCode(account, { phone: freshNumber() });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBeTruthy();

    const number = freshNumber();
    for (let i = 0; i < 5; i++) expect((await requestCode(await registerAccount(), { phone: number })).status).toBe(202);
    const byNumber = await requestCode(await registerAccount(), { phone: number });
    expect(byNumber.status).toBe(429);
    expect((await json<ErrorBody>(byNumber)).error.code).toBe("RATE_LIMIT_EXCEEDED");
    expect(await devPhone(number)).toHaveLength(5);
  });

  it("answers 503 when the text cannot be sent, and leaves no code behind", async () => {
    const account = await registerAccount();
    setTelephonyProviderForTests({
      name: "twilio",
      relayNumber: RELAY_NUMBER,
      sendSms: () => Promise.reject(new Error("provider down")),
      verifyWebhook: () => false,
    });
    const response = await requestCode(account, { phone: freshNumber() });
    expect(response.status).toBe(503);
    expect((await json<ErrorBody>(response)).error.code).toBe("SERVICE_UNAVAILABLE");
    expect(await getDatabase().db.select().from(schema.phoneVerifications).where(eq(schema.phoneVerifications.userId, account.id))).toHaveLength(0);
  });

  it("moves a number to the account that verifies it last, switching the earlier account's relays off", async () => {
    const first = await verifiedOwner();
    const tag = await giveTestTag(first.account.id, { status: "ACTIVE", itemName: "Rex" });
    const on = (await json<{ data: Relay }>(await patchRelay(first.account, tag.id, { enabled: true }))).data;
    expect(on.enabled).toBe(true);

    const second = await registerAccount();
    await requestCode(second, { phone: first.number });
    expect((await verifyCode(second, await lastCode(first.number))).status).toBe(200);

    expect(await findOwnerByPhone(getDatabase().db, first.number)).toEqual({ ownerId: second.id });
    expect(await getDatabase().db.select().from(schema.ownerPhones).where(eq(schema.ownerPhones.userId, first.account.id))).toHaveLength(0);
    expect((await json<{ data: Relay }>(await getRelay(first.account, tag.id))).data).toMatchObject({ enabled: false, pin: null });
    expect(await resolveRelayPin(getDatabase().db, on.pin!)).toBeNull();
    // Without a number the first account cannot turn it back on.
    expect((await patchRelay(first.account, tag.id, { enabled: true })).status).toBe(409);
  });

  it("requires a signed-in caller", async () => {
    expect((await call(requestCodeRoute, apiRequest("/api/v1/auth/phone", { method: "POST", body: { phone: freshNumber() } }))).status).toBe(401);
    expect((await call(verifyCodeRoute, apiRequest("/api/v1/auth/phone/verify", { method: "POST", body: { code: "123456" } }))).status).toBe(401);
  });
});

describe("GET/PATCH /tags/:id/relay and POST /tags/:id/relay/pin", () => {
  it("is off by default, and refuses to turn on without a verified phone (409 PHONE_NOT_VERIFIED)", async () => {
    const account = await registerAccount();
    const tag = await giveTestTag(account.id, { status: "ACTIVE" });
    const read = await getRelay(account, tag.id);
    expect(read.status).toBe(200);
    expect((await json<{ data: Relay }>(read)).data).toEqual({ enabled: false, number: RELAY_NUMBER, pin: null, quietHours: null });
    const refused = await patchRelay(account, tag.id, { enabled: true });
    expect(refused.status).toBe(409);
    const body = await json<ErrorBody>(refused);
    expect(body.error.code).toBe("CONFLICT");
    expect(body.error.details).toEqual({ reason: "PHONE_NOT_VERIFIED" });
    // Turning it off, or setting quiet hours while off, needs no phone.
    const off = await patchRelay(account, tag.id, { enabled: false, quietHours: { from: "22:00", to: "07:00" } });
    expect(off.status).toBe(200);
    expect((await json<{ data: Relay }>(off)).data).toEqual({ enabled: false, number: RELAY_NUMBER, pin: null, quietHours: { from: "22:00", to: "07:00", timeZone: "UTC" } });
  });

  it("turns on with a 6-digit PIN, keeps, clears and validates quiet hours in the owner's zone, and resolves the PIN", async () => {
    const { account, number } = await verifiedOwner();
    const tag = await giveTestTag(account.id, { status: "LOST", itemName: "Rex" });
    await getDatabase().db.insert(schema.notificationPreferences).values({ userId: account.id, timeZone: "Europe/Berlin" });

    const on = await patchRelay(account, tag.id, { enabled: true, quietHours: { from: "22:00", to: "07:00" } });
    expect(on.status).toBe(200);
    const relay = (await json<{ data: Relay }>(on)).data;
    expect(relay).toEqual({ enabled: true, number: RELAY_NUMBER, pin: expect.stringMatching(/^\d{6}$/), quietHours: { from: "22:00", to: "07:00", timeZone: "Europe/Berlin" } });
    expect((await json<{ data: Relay }>(await getRelay(account, tag.id))).data).toEqual(relay);

    expect(await resolveRelayPin(getDatabase().db, relay.pin!)).toEqual({
      tagId: tag.id,
      ownerId: account.id,
      itemName: "Rex",
      ownerPhone: number,
      quietHours: { from: "22:00", to: "07:00" },
      timeZone: "Europe/Berlin",
    });

    // Absent keeps the quiet hours; a still-on relay keeps its PIN.
    const kept = (await json<{ data: Relay }>(await patchRelay(account, tag.id, { enabled: true }))).data;
    expect(kept).toEqual(relay);
    const cleared = (await json<{ data: Relay }>(await patchRelay(account, tag.id, { enabled: true, quietHours: null }))).data;
    expect(cleared).toEqual({ ...relay, quietHours: null });

    for (const quietHours of [{ from: "22:00", to: "22:00" }, { from: "25:00", to: "07:00" }, { from: "22:00" }, "22-07"]) {
      const bad = await patchRelay(account, tag.id, { enabled: true, quietHours });
      expect(bad.status, JSON.stringify(quietHours)).toBe(400);
    }
    expect((await patchRelay(account, tag.id, { quietHours: null })).status).toBe(400);
  });

  it("frees the PIN when off, takes it back when on again, and gives a new one on request", async () => {
    const { account } = await verifiedOwner();
    const tag = await giveTestTag(account.id, { status: "ACTIVE" });
    const first = (await json<{ data: Relay }>(await patchRelay(account, tag.id, { enabled: true }))).data.pin!;

    const off = (await json<{ data: Relay }>(await patchRelay(account, tag.id, { enabled: false }))).data;
    expect(off).toMatchObject({ enabled: false, pin: null });
    expect(await resolveRelayPin(getDatabase().db, first)).toBeNull();
    const refused = await newPin(account, tag.id);
    expect(refused.status).toBe(409);
    expect((await json<ErrorBody>(refused)).error.details).toEqual({ reason: "RELAY_OFF" });

    expect((await json<{ data: Relay }>(await patchRelay(account, tag.id, { enabled: true }))).data.pin).toBe(first);
    const renewed = await newPin(account, tag.id);
    expect(renewed.status).toBe(200);
    const second = (await json<{ data: Relay }>(renewed)).data.pin!;
    expect(second).toMatch(/^\d{6}$/);
    expect(second).not.toBe(first);
    expect(await resolveRelayPin(getDatabase().db, first)).toBeNull();
    expect((await resolveRelayPin(getDatabase().db, second))?.tagId).toBe(tag.id);
  });

  it("is 404 for another's tag or no tag, on every endpoint", async () => {
    const { account } = await verifiedOwner();
    const stranger = await registerAccount();
    const tag = await giveTestTag(account.id, { status: "ACTIVE" });
    await patchRelay(account, tag.id, { enabled: true });
    for (const id of [tag.id, MISSING_ID]) {
      expect((await getRelay(stranger, id)).status).toBe(404);
      expect((await patchRelay(stranger, id, { enabled: false })).status).toBe(404);
      expect((await newPin(stranger, id)).status).toBe(404);
    }
    expect((await getRelay(stranger, "not-a-uuid")).status).toBe(404);
    expect((await json<{ data: Relay }>(await getRelay(account, tag.id))).data.enabled).toBe(true);
    expect((await call(getRelayRoute, apiRequest(`/api/v1/tags/${tag.id}/relay`), { id: tag.id })).status).toBe(401);
  });

  it("does not follow the tag to a new owner", async () => {
    const previous = await verifiedOwner();
    const next = await verifiedOwner();
    const tag = await giveTestTag(previous.account.id, { status: "ACTIVE", itemName: "Bike" });
    const pin = (await json<{ data: Relay }>(await patchRelay(previous.account, tag.id, { enabled: true, quietHours: { from: "23:00", to: "06:00" } }))).data.pin!;
    // A hand-over as the tag's domain makes it: the owner changes.
    await getDatabase().db.update(schema.tags).set({ ownerId: next.account.id }).where(eq(schema.tags.id, tag.id));
    expect(await resolveRelayPin(getDatabase().db, pin)).toBeNull();
    expect((await json<{ data: Relay }>(await getRelay(next.account, tag.id))).data).toEqual({ enabled: false, number: RELAY_NUMBER, pin: null, quietHours: null });
    const theirs = (await json<{ data: Relay }>(await patchRelay(next.account, tag.id, { enabled: true }))).data;
    expect(theirs.quietHours).toBeNull();
    expect((await resolveRelayPin(getDatabase().db, theirs.pin!))?.ownerPhone).toBe(next.number);
    // The hand-over's own switch frees the PIN at once.
    await switchOffTagRelay(getDatabase().db, tag.id);
    expect(await resolveRelayPin(getDatabase().db, theirs.pin!)).toBeNull();
  });

  it("does not resolve a PIN of a deactivated tag, or a malformed PIN", async () => {
    const { account } = await verifiedOwner();
    const tag = await giveTestTag(account.id, { status: "ACTIVE" });
    const pin = (await json<{ data: Relay }>(await patchRelay(account, tag.id, { enabled: true }))).data.pin!;
    await getDatabase().db.update(schema.tags).set({ status: "DEACTIVATED" }).where(eq(schema.tags.id, tag.id));
    expect(await resolveRelayPin(getDatabase().db, pin)).toBeNull();
    expect(await resolveRelayPin(getDatabase().db, "12345")).toBeNull();
    expect(await resolveRelayPin(getDatabase().db, "' or 1=1")).toBeNull();
  });

  it("gives ten tags turned on at the same time ten different PINs", async () => {
    const { account } = await verifiedOwner();
    const tags = await Promise.all(Array.from({ length: 10 }, () => giveTestTag(account.id, { status: "ACTIVE" })));
    const responses = await Promise.all(tags.map((tag) => patchRelay(account, tag.id, { enabled: true })));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    const pins = await Promise.all(responses.map(async (response) => (await json<{ data: Relay }>(response)).data.pin));
    expect(new Set(pins).size).toBe(10);
  });

  it("retries on a taken PIN: ten simultaneous allocations that all draw the same PIN first end with ten different ones", async () => {
    const { account } = await verifiedOwner();
    const tags = await Promise.all(Array.from({ length: 10 }, () => giveTestTag(account.id, { status: "ACTIVE" })));
    const db = getDatabase().db;
    await db.insert(schema.tagRelays).values(tags.map((tag) => ({ tagId: tag.id, ownerId: account.id })));
    const colliding = `${randomInt(100_000, 1_000_000)}`;
    const pins = await Promise.all(
      tags.map((tag) => {
        let draws = 0;
        // Every allocation draws the same PIN first; only one may keep it.
        const next = () => (draws++ === 0 ? colliding : String(randomInt(0, 1_000_000)).padStart(6, "0"));
        return withTransaction(systemContext(db), (tx) => assignRelayPin(tx.db, tag.id, { next }));
      }),
    );
    expect(new Set(pins).size).toBe(10);
    expect(pins.filter((pin) => pin === colliding)).toHaveLength(1);
    const rows = await db.select().from(schema.tagRelays).where(eq(schema.tagRelays.ownerId, account.id));
    expect(rows.every((row) => row.enabled)).toBe(true);
    expect(new Set(rows.map((row) => row.pin)).size).toBe(10);
  });
});

describe("the data export", () => {
  it("carries the relay number as its last 2 digits and the tags' relay settings, never the number or a hash", async () => {
    const { account, number } = await verifiedOwner();
    const tag = await giveTestTag(account.id, { status: "ACTIVE" });
    const pin = (await json<{ data: Relay }>(await patchRelay(account, tag.id, { enabled: true, quietHours: { from: "22:00", to: "07:00" } }))).data.pin;
    const response = await call(exportRoute, apiRequest("/api/v1/auth/me/export", { headers: bearer(account.accessToken) }));
    expect(response.status).toBe(200);
    const text = await response.text();
    const { data } = JSON.parse(text) as { data: { relayPhone: unknown[]; tagRelays: unknown[] } };
    expect(data.relayPhone).toEqual([{ lastDigits: number.slice(-2), verifiedAt: expect.any(String) }]);
    expect(data.tagRelays).toEqual([{ tagId: tag.id, enabled: true, pin, quietHours: { from: "22:00", to: "07:00" }, updatedAt: expect.any(String) }]);
    expect(text).not.toContain(number.slice(3));
    expect(text).not.toContain(hashPhoneNumber(number));
  });
});

describe("GET /api/dev/phone", () => {
  it("lists what the test provider delivered to a number, newest first", async () => {
    const account = await registerAccount();
    const number = freshNumber();
    await requestCode(account, { phone: number });
    await requestCode(account, { phone: number });
    const texts = await devPhone(number);
    expect(texts).toHaveLength(2);
    expect(new Date(texts[0]!.createdAt).getTime()).toBeGreaterThan(new Date(texts[1]!.createdAt).getTime());
    expect(await devPhone(freshNumber())).toEqual([]);
    expect((await call(devPhoneRoute, apiRequest("/api/dev/phone?number=0151"))).status).toBe(400);
  });

  it("is 404 when switched off, as the development mailbox", async () => {
    vi.stubEnv("ENABLE_DEV_MAILBOX", "false");
    vi.resetModules();
    const { GET: disabled } = await import("@/app/api/dev/phone/route");
    const response = await call(disabled, apiRequest(`/api/dev/phone?number=${encodeURIComponent(RELAY_NUMBER)}`));
    expect(response.status).toBe(404);
  });
});
