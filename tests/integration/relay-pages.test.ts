import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { form, mockNextRequestScope, redirectOf } from "../support/next-request-scope";

/**
 * The relay's pages (issue 27, docs/relay.md): the account's phone forms, the tag page's relay forms, lost
 * mode's relay offer, and the public view's `relay` that the finder page and GET /scan/{encryptedId} share.
 * Real FormData through the real server actions (action.for from the relay contracts), next-auth, rate
 * limiter, services and database; only Next's request scope is given (tests/support/next-request-scope.ts).
 */
const request = mockNextRequestScope("192.0.2.57");
const { eq } = await import("drizzle-orm");
const { getDatabase, schema } = await import("@/db/client");
const { GET: scanRoute } = await import("@/app/api/v1/scan/[encryptedId]/route");
const { GET: devPhoneRoute } = await import("@/app/api/dev/phone/route");
const { POST: requestCodeRoute } = await import("@/app/api/v1/auth/phone/route");
const { requestPhoneCodeAction, verifyPhoneCodeAction } = await import("@/app/(dashboard)/dashboard/account/phone-actions");
const { regenerateRelayPinAction, updateTagRelayAction } = await import("@/app/(dashboard)/dashboard/tags/[id]/relay-actions");
const { saveLostModeAction } = await import("@/app/(dashboard)/dashboard/tags/[id]/actions");
const { relaySmsHref, relayTelHref } = await import("@/lib/finder-page/tag-page");
const { prepareJobs, stopJobs } = await import("@/lib/jobs");
const { bearer, registerAccount } = await import("../support/auth");
const { apiRequest, call, json, nextTestIp } = await import("../support/http");
const { giveTestTag, tagRow } = await import("../support/tags");

type TestAccount = Awaited<ReturnType<typeof registerAccount>>;
type Relay = { number: string; pin: string } | null;

const RELAY_NUMBER = "+15005550006";
const idle = { status: "idle" } as const;

beforeAll(async () => {
  await prepareJobs();
});
afterAll(async () => {
  request.cookie = "";
  await stopJobs();
});

/** A fresh valid German mobile number, so no two tests share a number's limits. */
const freshNumber = () => `+49151${String(randomInt(0, 100_000_000)).padStart(8, "0")}`;

async function asOwner<T>(account: TestAccount, run: () => Promise<T>): Promise<T> {
  request.ip = nextTestIp();
  request.cookie = account.cookie;
  try {
    return await run();
  } finally {
    request.cookie = "";
  }
}

/** The code in the newest text the test provider delivered to the number (the development phone). */
async function lastCode(number: string): Promise<string> {
  const response = await call(devPhoneRoute, apiRequest(`/api/dev/phone?number=${encodeURIComponent(number)}`));
  const [latest] = (await json<{ data: { body: string | null }[] }>(response)).data;
  const code = latest?.body?.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code texted to ${number}`);
  return code;
}

/** Verifies `number` for the account through the account page's two forms. */
async function verifyThroughPage(account: TestAccount, number: string): Promise<void> {
  expect(await asOwner(account, () => requestPhoneCodeAction(idle, form({ phone: number })))).toMatchObject({ status: "success" });
  expect(await asOwner(account, async () => verifyPhoneCodeAction(idle, form({ code: await lastCode(number) })))).toMatchObject({ status: "success" });
}

async function scanRelay(encryptedId: string): Promise<{ relay: Relay; text: string }> {
  const response = await call(scanRoute, apiRequest(`/api/v1/scan/${encodeURIComponent(encryptedId)}`, { ip: nextTestIp(), headers: { "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1" } }), { encryptedId });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return { relay: (JSON.parse(text) as { data: { relay: Relay } }).data.relay, text };
}

const relayRow = async (tagId: string) => (await getDatabase().db.select().from(schema.tagRelays).where(eq(schema.tagRelays.tagId, tagId)))[0];

describe("the account page's phone forms (POST /auth/phone, /auth/phone/verify)", () => {
  it("sends a code, refuses a wrong one with the tries left, verifies the right one, and shows only the last 2 digits", async () => {
    const owner = await registerAccount();
    const number = freshNumber();
    const sent = await asOwner(owner, () => requestPhoneCodeAction(idle, form({ phone: number })));
    expect(sent).toMatchObject({ status: "success", message: expect.stringContaining(`ending in ${number.slice(-2)}`) });
    expect(JSON.stringify(sent)).not.toContain(number.slice(3));
    const code = await lastCode(number);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    const refused = await asOwner(owner, () => verifyPhoneCodeAction(idle, form({ code: wrong })));
    expect(refused).toMatchObject({ status: "error", fieldErrors: { code: ["Wrong code. 4 tries left."] } });
    const malformed = await asOwner(owner, () => verifyPhoneCodeAction(idle, form({ code: "12a" })));
    expect(malformed).toMatchObject({ status: "error", fieldErrors: { code: ["Enter the 6-digit code."] } });
    const verified = await asOwner(owner, () => verifyPhoneCodeAction(idle, form({ code })));
    expect(verified).toMatchObject({ status: "success", message: expect.stringContaining(`ending in ${number.slice(-2)} is verified`) });
    const [row] = await getDatabase().db.select().from(schema.ownerPhones).where(eq(schema.ownerPhones.userId, owner.id));
    expect(row?.lastDigits).toBe(number.slice(-2));
    // Spent: the same code again is refused beside the field.
    expect(await asOwner(owner, () => verifyPhoneCodeAction(idle, form({ code })))).toMatchObject({ status: "error", fieldErrors: { code: [expect.stringMatching(/already used|Ask for a code/)] } });
  });

  it("takes a national number with the country chosen beside it", async () => {
    const owner = await registerAccount();
    const number = freshNumber();
    const national = `0${number.slice(3)}`;
    const sent = await asOwner(owner, () => requestPhoneCodeAction(idle, form({ phone: national, country: "DE" })));
    expect(sent).toMatchObject({ status: "success", message: expect.stringContaining(`ending in ${number.slice(-2)}`) });
    expect(await lastCode(number)).toMatch(/^\d{6}$/);
  });

  it("answers an invalid number beside the field, keeping what was typed", async () => {
    const owner = await registerAccount();
    const state = await asOwner(owner, () => requestPhoneCodeAction(idle, form({ phone: "+49 12" })));
    expect(state).toMatchObject({ status: "error", values: { phone: "+49 12", country: "" }, fieldErrors: { phone: [expect.stringContaining("not a valid phone number")] } });
  });

  it("shares the API's budget of codes: 5 an hour per account, counted through either door", async () => {
    const owner = await registerAccount();
    for (let i = 0; i < 3; i++) {
      const response = await call(requestCodeRoute, apiRequest("/api/v1/auth/phone", { method: "POST", headers: bearer(owner.accessToken), body: { phone: freshNumber() }, ip: nextTestIp() }));
      expect(response.status).toBe(202);
    }
    for (let i = 0; i < 2; i++) expect(await asOwner(owner, () => requestPhoneCodeAction(idle, form({ phone: freshNumber() })))).toMatchObject({ status: "success" });
    const limited = await asOwner(owner, () => requestPhoneCodeAction(idle, form({ phone: "+4915112345678" })));
    expect(limited).toMatchObject({ status: "error", values: { phone: "+4915112345678" } });
    expect(limited.message).toMatch(/^Too many codes asked for\. Please wait \d+ minutes and try again\.$/);
  });
});

describe("the tag page's relay forms (PATCH /tags/{id}/relay, POST /tags/{id}/relay/pin)", () => {
  it("without a verified phone, refuses to turn it on and saves nothing", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Rex" });
    const state = await asOwner(owner, () => updateTagRelayAction(idle, form({ tagId: tag.id, enabled: "true" })));
    expect(state).toMatchObject({ status: "error", message: expect.stringContaining("Verify your phone number first") });
    expect(await relayRow(tag.id)).toBeUndefined();
  });

  it("turns it on with quiet hours, gives a new PIN, turns it off and clears the quiet hours; answers half quiet hours beside the field", async () => {
    const owner = await registerAccount();
    await verifyThroughPage(owner, freshNumber());
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Rex" });

    const half = await asOwner(owner, () => updateTagRelayAction(idle, form({ tagId: tag.id, enabled: "true", quietFrom: "22:00", quietTo: "" })));
    expect(half).toMatchObject({ status: "error", values: { enabled: "true", quietFrom: "22:00", quietTo: "" }, fieldErrors: { quietTo: [expect.any(String)] } });
    expect(await relayRow(tag.id)).toBeUndefined();

    const on = await asOwner(owner, () => updateTagRelayAction(idle, form({ tagId: tag.id, enabled: "true", quietFrom: "22:00", quietTo: "07:00" })));
    expect(on).toMatchObject({ status: "success", values: { enabled: "true", quietFrom: "22:00", quietTo: "07:00" } });
    const row = await relayRow(tag.id);
    expect(row).toMatchObject({ enabled: true, quietFrom: "22:00", quietTo: "07:00", pin: expect.stringMatching(/^\d{6}$/) });
    expect(on.message).toContain(row!.pin!);

    const renewed = await asOwner(owner, () => regenerateRelayPinAction(idle, form({ tagId: tag.id })));
    const newPin = (await relayRow(tag.id))!.pin!;
    expect(newPin).not.toBe(row!.pin);
    expect(renewed).toMatchObject({ status: "success", message: expect.stringContaining(newPin) });

    const off = await asOwner(owner, () => updateTagRelayAction(idle, form({ tagId: tag.id, quietFrom: "", quietTo: "" })));
    expect(off).toMatchObject({ status: "success", values: { enabled: "", quietFrom: "", quietTo: "" } });
    expect(await relayRow(tag.id)).toMatchObject({ enabled: false, quietFrom: null, quietTo: null });
    expect(await asOwner(owner, () => regenerateRelayPinAction(idle, form({ tagId: tag.id })))).toMatchObject({ status: "error", message: expect.stringContaining("Turn the relay on first") });
  });

  it("names no tag for another owner's tag or a malformed id", async () => {
    const owner = await registerAccount();
    await verifyThroughPage(owner, freshNumber());
    const other = await registerAccount();
    const theirs = await giveTestTag(other.id, { status: "ACTIVE", itemName: "Not yours" });
    expect(await asOwner(owner, () => updateTagRelayAction(idle, form({ tagId: theirs.id, enabled: "true" })))).toMatchObject({ status: "error" });
    expect(await asOwner(owner, () => updateTagRelayAction(idle, form({ tagId: "not-a-tag", enabled: "true" })))).toMatchObject({ status: "error" });
    expect(await relayRow(theirs.id)).toBeUndefined();
  });
});

describe("lost mode's relay offer", () => {
  it("turns lost mode and the relay on in one save", async () => {
    const owner = await registerAccount();
    await verifyThroughPage(owner, freshNumber());
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Rex" });
    const path = await asOwner(owner, () => redirectOf(saveLostModeAction(idle, form({ tagId: tag.id, lostMessage: "Please call.", amount: "", currency: "EUR", description: "", relay: "true" }))));
    expect(path).toBe(`/dashboard/tags/${tag.id}?notice=lost-on-relay`);
    expect((await tagRow(tag.id))?.status).toBe("LOST");
    expect(await relayRow(tag.id)).toMatchObject({ enabled: true, pin: expect.stringMatching(/^\d{6}$/) });
  });

  it("saves nothing when the relay is refused (no verified phone): one transaction", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Rex" });
    const state = await asOwner(owner, () => saveLostModeAction(idle, form({ tagId: tag.id, lostMessage: "Please call.", amount: "", currency: "EUR", description: "", relay: "true" })));
    expect(state).toMatchObject({ status: "error", values: { lostMessage: "Please call." } });
    expect((await tagRow(tag.id))?.status).toBe("ACTIVE");
    expect(await relayRow(tag.id)).toBeUndefined();
  });
});

describe("the scan answer's relay (GET /scan/{encryptedId}, the finder page's view)", () => {
  it("is null while off, the relay's number and the tag's PIN while on, never the owner's number; null again once the number moves to another account", async () => {
    const owner = await registerAccount();
    const number = freshNumber();
    await verifyThroughPage(owner, number);
    const tag = await giveTestTag(owner.id, { status: "LOST", itemName: "Rex" });
    expect((await scanRelay(tag.encryptedId)).relay).toBeNull();

    await asOwner(owner, () => updateTagRelayAction(idle, form({ tagId: tag.id, enabled: "true" })));
    const pin = (await relayRow(tag.id))!.pin!;
    const on = await scanRelay(tag.encryptedId);
    expect(on.relay).toEqual({ number: RELAY_NUMBER, pin });
    expect(on.text).not.toContain(number.slice(3));
    expect(relayTelHref(on.relay!)).toBe(`tel:${RELAY_NUMBER},,${pin}`);
    expect(relaySmsHref(on.relay!)).toBe(`sms:${RELAY_NUMBER}?&body=${pin}%20`);

    // Another account proves the same number: it moves there, and this owner's relays go off.
    await verifyThroughPage(await registerAccount(), number);
    expect((await scanRelay(tag.encryptedId)).relay).toBeNull();
  });

  it("is null for a switched-off tag even with the relay on", async () => {
    const owner = await registerAccount();
    await verifyThroughPage(owner, freshNumber());
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Keys" });
    await asOwner(owner, () => updateTagRelayAction(idle, form({ tagId: tag.id, enabled: "true" })));
    expect((await scanRelay(tag.encryptedId)).relay).toMatchObject({ number: RELAY_NUMBER });
    await getDatabase().db.update(schema.tags).set({ status: "DEACTIVATED" }).where(eq(schema.tags.id, tag.id));
    expect((await scanRelay(tag.encryptedId)).relay).toBeNull();
  });
});
