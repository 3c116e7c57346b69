import { afterEach, describe, expect, it, vi } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { GET as getThreadRoute, PATCH as setThreadStatusRoute } from "@/app/api/v1/messages/[threadId]/route";
import { PATCH as patchRelayRoute } from "@/app/api/v1/tags/[id]/relay/route";
import { hashPhoneNumber } from "@/lib/services/relay";
import { bearer } from "../support/auth";
import { apiRequest, call, json } from "../support/http";
import { APP, deliveriesTo, freshNumber, postWebhook, RELAY_NUMBER, relayOwner, sid, threadsOfNumber, twiml } from "../support/relay";
import { childNames, find } from "../support/twiml";

const VOICE = "/api/v1/webhooks/telephony/voice";
const STATUS = "/api/v1/webhooks/telephony/voice/status";

afterEach(() => {
  vi.useRealTimers();
});

function dial(callSid: string, from: string, digits?: string, extra: Record<string, string> = {}) {
  return postWebhook(VOICE, { CallSid: callSid, AccountSid: "AC" + "0".repeat(32), From: from, To: RELAY_NUMBER, CallStatus: "in-progress", Direction: "inbound", ...(digits !== undefined ? { Digits: digits } : {}), ...extra });
}

/** A US number: the prompts are English. */
const usNumber = () => freshNumber("+1415555", 4);

const wrong = (pin: string) => String((Number(pin) + 1) % 1_000_000).padStart(6, "0");

async function notificationsOf(userId: string) {
  return getDatabase().db.select().from(schema.notifications).where(eq(schema.notifications.userId, userId));
}

describe("POST /webhooks/telephony/voice: signatures and hostile input", () => {
  it("answers 403 without a signature or with a wrong one, and 400 without a CallSid; never 500", async () => {
    const params = { CallSid: sid("CA"), From: freshNumber(), To: RELAY_NUMBER };
    const missing = await postWebhook(VOICE, params, { signature: null });
    expect(missing.status).toBe(403);
    expect(JSON.parse(missing.text).error.code).toBe("FORBIDDEN");
    expect((await postWebhook(VOICE, params, { signature: "AAAAAAAAAAAAAAAAAAAAAAAAAAA=" })).status).toBe(403);
    // A signature for other parameters is refused too.
    const other = await postWebhook(VOICE, { ...params, Digits: "123456" }, { signature: (await import("@/lib/telephony/test-provider")).createTestTelephonyProvider().signWebhook(`${APP}${VOICE}`, params) });
    expect(other.status).toBe(403);
    const noSid = await postWebhook(VOICE, { From: freshNumber() });
    expect(noSid.status).toBe(400);
    const junk = await postWebhook(VOICE, { CallSid: "CA\u0000", From: "\ud800" });
    expect(junk.status).toBe(400);
  });
});

describe("a call through the relay", () => {
  it("gathers the PIN in the caller's language, dials the owner with the whisper, and records the answered call in the conversation", async () => {
    const owner = await relayOwner({ itemName: "Rex" });
    const finder = freshNumber();
    const callSid = sid("CA");

    const first = twiml(await dial(callSid, finder, undefined, { FromCountry: "DE" }));
    expect(first.name).toBe("Response");
    expect(childNames(first)).toEqual(["Gather", "Say", "Hangup"]);
    const gather = find(first, "Gather")!;
    expect(gather.attributes).toMatchObject({ input: "dtmf", numDigits: "6", action: `${APP}${VOICE}`, method: "POST", timeout: "10" });
    expect(find(gather, "Say")!.attributes.language).toBe("de-DE");
    expect(find(gather, "Say")!.text).toContain("PIN");

    const english = twiml(await dial(sid("CA"), freshNumber("+1415555", 4)));
    expect(find(english, "Say")!.attributes.language).toBe("en-US");

    const connected = twiml(await dial(callSid, finder, owner.pin, { FromCountry: "DE" }));
    expect(childNames(connected)).toEqual(["Say", "Dial"]);
    const dialNode = find(connected, "Dial")!;
    expect(dialNode.attributes).toMatchObject({ callerId: RELAY_NUMBER, action: `${APP}${STATUS}`, method: "POST", timeout: "25" });
    const number = find(dialNode, "Number")!;
    expect(number.text).toBe(owner.number);
    expect(number.attributes.method).toBe("POST");
    const whisperUrl = new URL(number.attributes.url!);
    expect(whisperUrl.pathname).toBe("/api/v1/webhooks/telephony/voice/whisper");
    const leg = whisperUrl.searchParams.get("leg")!;
    // The owner's number is in the TwiML for the provider only; never the finder's anywhere the owner reads.

    const childSid = sid("CA");
    const whisper = twiml(await postWebhook(`/api/v1/webhooks/telephony/voice/whisper?leg=${leg}`, { CallSid: childSid, ParentCallSid: callSid, From: RELAY_NUMBER, To: owner.number }));
    expect(childNames(whisper)).toEqual(["Gather", "Hangup"]);
    const ownerGather = find(whisper, "Gather")!;
    expect(ownerGather.attributes).toMatchObject({ numDigits: "1", method: "POST", timeout: "8", action: `${APP}/api/v1/webhooks/telephony/voice/whisper?leg=${leg}&step=accept` });
    expect(find(ownerGather, "Say")!.text).toBe("A finder of Rex is calling through Tag Service; press 1 to accept.");

    const accepted = twiml(await postWebhook(`/api/v1/webhooks/telephony/voice/whisper?leg=${leg}&step=accept`, { CallSid: childSid, ParentCallSid: callSid, Digits: "1" }));
    expect(accepted.children).toEqual([]);
    const declined = twiml(await postWebhook(`/api/v1/webhooks/telephony/voice/whisper?leg=${leg}&step=accept`, { CallSid: sid("CA"), Digits: "2" }));
    expect(childNames(declined)).toEqual(["Hangup"]);

    const ended = twiml(await postWebhook(STATUS, { CallSid: callSid, DialCallStatus: "completed", DialCallDuration: "125" }));
    expect(childNames(ended)).toEqual(["Hangup"]);
    // A replay of the status: the same answer, no second message or notification.
    expect(twiml(await postWebhook(STATUS, { CallSid: callSid, DialCallStatus: "completed", DialCallDuration: "125" })).children.map((c) => c.name)).toEqual(["Hangup"]);

    const [thread] = await threadsOfNumber(owner.account.id);
    expect(thread).toMatchObject({ tagId: owner.tagId, finderPhoneHash: hashPhoneNumber(finder), finderPhoneLastDigits: finder.slice(-2), finderPhoneSealed: null });
    const read = await call(getThreadRoute, apiRequest(`/api/v1/messages/${thread!.id}`, { headers: bearer(owner.account.accessToken) }), { threadId: thread!.id });
    expect(read.status).toBe(200);
    const body = await json<{ data: { messages: { sender: string; channel: string; call: unknown; content: string }[] } }>(read);
    expect(body.data.messages).toEqual([expect.objectContaining({ sender: "FINDER", channel: "call", call: { outcome: "answered", durationSeconds: 125 }, content: "Call through the relay, answered (2 min 5 s)." })]);
    expect(JSON.stringify(body)).not.toContain(finder.slice(1, -2));

    const received = (await notificationsOf(owner.account.id)).filter((n) => n.type === "CALL_RECEIVED");
    expect(received).toHaveLength(1);
    expect(received[0]!.data).toMatchObject({ threadId: thread!.id });
    expect(received[0]!.body).toContain(`ending ${finder.slice(-2)}`);
  });

  it("records a missed call (CALL_MISSED) in the same conversation as the finder's next call", async () => {
    const owner = await relayOwner();
    const finder = freshNumber();
    const first = sid("CA");
    twiml(await dial(first, finder, owner.pin));
    twiml(await postWebhook(STATUS, { CallSid: first, DialCallStatus: "no-answer" }));
    const second = sid("CA");
    twiml(await dial(second, finder, owner.pin));
    twiml(await postWebhook(STATUS, { CallSid: second, DialCallStatus: "busy" }));
    const threads = await threadsOfNumber(owner.account.id);
    expect(threads).toHaveLength(1);
    const messages = await getDatabase().db.select().from(schema.threadMessages).where(eq(schema.threadMessages.threadId, threads[0]!.id));
    expect(messages.map((m) => [m.channel, m.callOutcome, m.callSeconds])).toEqual([
      ["call", "missed", null],
      ["call", "missed", null],
    ]);
    expect((await notificationsOf(owner.account.id)).filter((n) => n.type === "CALL_MISSED")).toHaveLength(2);
  });

  it("says a wrong PIN and gathers again, hangs up at the third, and the number then waits", async () => {
    const owner = await relayOwner();
    const finder = usNumber();
    const callSid = sid("CA");
    const once = twiml(await dial(callSid, finder, wrong(owner.pin)));
    expect(childNames(once)).toEqual(["Say", "Gather", "Say", "Hangup"]);
    expect(once.children[0]!.text).toContain("not right");
    // The same digits again in the same call is a replay: the same answer, not counted twice.
    expect((await dial(callSid, finder, wrong(owner.pin))).text).toBe((await dial(callSid, finder, wrong(owner.pin))).text);
    expect(childNames(twiml(await dial(callSid, finder, wrong(wrong(owner.pin)))))).toEqual(["Say", "Gather", "Say", "Hangup"]);
    const third = twiml(await dial(callSid, finder, wrong(wrong(wrong(owner.pin)))));
    expect(childNames(third)).toEqual(["Say", "Hangup"]);
    // A new call from the number, even with the right PIN, is refused for now.
    const again = twiml(await dial(sid("CA"), finder));
    expect(childNames(again)).toEqual(["Say", "Hangup"]);
    expect(childNames(twiml(await dial(sid("CA"), finder, owner.pin)))).toEqual(["Say", "Hangup"]);
    expect(await threadsOfNumber(owner.account.id)).toEqual([]);
  });

  it("says the owner cannot take calls in quiet hours, with the relay off, and when the owner blocked the number", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-27T23:30:00Z"));
    const quiet = await relayOwner({ quietHours: { from: "22:00", to: "07:00" } });
    const inQuiet = twiml(await dial(sid("CA"), usNumber(), quiet.pin));
    expect(childNames(inQuiet)).toEqual(["Say", "Hangup"]);
    expect(inQuiet.children[0]!.text).toContain("cannot take calls now");
    vi.useRealTimers();

    const off = await relayOwner();
    const patched = await call(patchRelayRoute, apiRequest(`/api/v1/tags/${off.tagId}/relay`, { method: "PATCH", headers: bearer(off.account.accessToken), body: { enabled: false } }), { id: off.tagId });
    expect(patched.status).toBe(200);
    expect(find(twiml(await dial(sid("CA"), usNumber(), off.pin)), "Say")!.text).toContain("cannot take calls now");

    const owner = await relayOwner();
    const finder = usNumber();
    const first = sid("CA");
    twiml(await dial(first, finder, owner.pin));
    const [thread] = await threadsOfNumber(owner.account.id);
    const blocked = await call(setThreadStatusRoute, apiRequest(`/api/v1/messages/${thread!.id}`, { method: "PATCH", headers: bearer(owner.account.accessToken), body: { status: "BLOCKED" } }), { threadId: thread!.id });
    expect(blocked.status).toBe(200);
    const refused = twiml(await dial(sid("CA"), finder, owner.pin));
    expect(find(refused, "Say")!.text).toContain("cannot take calls now");
    // Another number still gets through.
    expect(childNames(twiml(await dial(sid("CA"), usNumber(), owner.pin)))).toEqual(["Say", "Dial"]);
    expect(await deliveriesTo(finder)).toEqual([]);
    const calls = await getDatabase().db.select().from(schema.relayCalls).where(and(eq(schema.relayCalls.ownerId, owner.account.id)));
    expect(calls).toHaveLength(2);
  });
});

describe("call limits", () => {
  it("limits calls per owner a day (relayOwnerCalls) and per number and tag an hour (relayFinderContacts)", async () => {
    const { resetRateLimiterForTests } = await import("@/lib/ratelimit");
    resetRateLimiterForTests({ relayOwnerCalls: { limit: 2 }, relayFinderContacts: { limit: 1 } });
    try {
      const owner = await relayOwner();
      const finder = usNumber();
      expect(childNames(twiml(await dial(sid("CA"), finder, owner.pin)))).toEqual(["Say", "Dial"]);
      const again = twiml(await dial(sid("CA"), finder, owner.pin));
      expect(childNames(again)).toEqual(["Say", "Hangup"]);
      expect(again.children[0]!.text).toContain("Too many calls from this number");
      expect(childNames(twiml(await dial(sid("CA"), usNumber(), owner.pin)))).toEqual(["Say", "Dial"]);
      const third = twiml(await dial(sid("CA"), usNumber(), owner.pin));
      expect(third.children[0]!.text).toContain("cannot take calls now");
    } finally {
      resetRateLimiterForTests();
    }
  });
});

describe("the relay does not follow a tag", () => {
  it("is switched off when the tag is released or a transfer of it is accepted: its PIN stops answering at once", async () => {
    const { DELETE: releaseRoute } = await import("@/app/api/v1/tags/[id]/route");
    const { POST: offerRoute } = await import("@/app/api/v1/tags/[id]/transfer/route");
    const { POST: acceptRoute } = await import("@/app/api/v1/tags/transfers/[id]/accept/route");
    const { registerAccount } = await import("../support/auth");
    const relayRow = async (tagId: string) => (await getDatabase().db.select().from(schema.tagRelays).where(eq(schema.tagRelays.tagId, tagId)))[0];

    const released = await relayOwner();
    expect((await call(releaseRoute, apiRequest(`/api/v1/tags/${released.tagId}`, { method: "DELETE", headers: bearer(released.account.accessToken) }), { id: released.tagId })).status).toBe(200);
    expect((await relayRow(released.tagId))?.enabled).toBe(false);

    const given = await relayOwner();
    const recipient = await registerAccount();
    await getDatabase().db.update(schema.users).set({ emailVerified: true }).where(eq(schema.users.id, recipient.id));
    const offered = await call(offerRoute, apiRequest(`/api/v1/tags/${given.tagId}/transfer`, { method: "POST", headers: bearer(given.account.accessToken), body: { email: recipient.email } }), { id: given.tagId });
    expect(offered.status).toBe(201);
    const transferId = (await json<{ data: { id: string } }>(offered)).data.id;
    expect((await relayRow(given.tagId))?.enabled).toBe(true);
    expect((await call(acceptRoute, apiRequest(`/api/v1/tags/transfers/${transferId}/accept`, { method: "POST", headers: bearer(recipient.accessToken) }), { id: transferId })).status).toBe(200);
    expect((await relayRow(given.tagId))?.enabled).toBe(false);
    const afterwards = twiml(await dial(sid("CA"), usNumber(), given.pin));
    expect(childNames(afterwards)).toEqual(["Say", "Gather", "Say", "Hangup"]);
  });
});
