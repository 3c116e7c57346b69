import { randomInt } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDatabase, schema } from "@/db/client";
import { POST as requestCodeRoute } from "@/app/api/v1/auth/phone/route";
import { POST as verifyCodeRoute } from "@/app/api/v1/auth/phone/verify/route";
import { PATCH as patchRelayRoute } from "@/app/api/v1/tags/[id]/relay/route";
import { env } from "@/lib/env";
import { createTestNetwork, type WebhookTransport } from "@/lib/telephony/test-network";
import { listTestDeliveries } from "@/lib/telephony/test-provider";
import { appFetch } from "../support/app-fetch";
import { bearer, registerAccount } from "../support/auth";
import { apiRequest, call, json } from "../support/http";
import { giveTestTag } from "../support/tags";

/**
 * The test telephony network against the app's real relay webhooks (app/api/v1/webhooks/telephony,
 * reached in-process through their route handlers with the exact form body and X-Twilio-Signature the
 * network sends): a whole call and a text exchange, as the development phone plays them.
 */

const freshNumber = () => `+49151${String(randomInt(0, 100_000_000)).padStart(8, "0")}`;

const fetchApp = await appFetch();
const transport: WebhookTransport = async ({ url, method, params, signature }) => {
  const body = new URLSearchParams(params).toString();
  const response = await fetchApp(
    new Request(method === "GET" ? `${url}${url.includes("?") ? "&" : "?"}${body}` : url, {
      method,
      headers: { "X-Twilio-Signature": signature, ...(method === "POST" ? { "Content-Type": "application/x-www-form-urlencoded" } : {}) },
      body: method === "POST" ? body : undefined,
    }),
  );
  return { status: response.status, body: await response.text() };
};
const network = createTestNetwork({ transport });

/** An owner whose number is verified with the code the test provider delivered, and a tag with the relay on. */
async function relayOwner(itemName: string) {
  const account = await registerAccount();
  const number = freshNumber();
  expect((await call(requestCodeRoute, apiRequest("/api/v1/auth/phone", { method: "POST", headers: bearer(account.accessToken), body: { phone: number } }))).status).toBe(202);
  const [codeText] = await listTestDeliveries(number, 1);
  const code = codeText!.body!.match(/\b(\d{6})\b/)![1]!;
  expect((await call(verifyCodeRoute, apiRequest("/api/v1/auth/phone/verify", { method: "POST", headers: bearer(account.accessToken), body: { code } }))).status).toBe(200);
  const tag = await giveTestTag(account.id, { itemName, status: "ACTIVE" });
  const patched = await call(patchRelayRoute, apiRequest(`/api/v1/tags/${tag.id}/relay`, { method: "PATCH", headers: bearer(account.accessToken), body: { enabled: true } }), { id: tag.id });
  expect(patched.status).toBe(200);
  const { data } = await json<{ data: { pin: string; number: string } }>(patched);
  expect(data.number).toBe(network.relayNumber);
  return { account, number, tagId: tag.id, pin: data.pin };
}

/** The relay sends texts to the other side after answering, within its deadline: wait for them a little. */
async function textsTo(number: string, wanted: (body: string) => boolean) {
  for (let attempt = 0; attempt < 40; attempt++) {
    const texts = (await listTestDeliveries(number, 10)).filter((delivery) => delivery.to === number && delivery.kind === "sms");
    if (texts.some((delivery) => wanted(delivery.body ?? ""))) return texts;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no such text reached ${number}`);
}

const said = (transcript: { kind: string; text: string }[]) => transcript.filter((entry) => entry.kind === "say").map((entry) => entry.text);

describe("the development phone against the relay's webhooks", () => {
  it("a whole call: dial, PIN, the owner's phone rings, the whisper names the item, 1 connects, hang up; the call lands in the conversation", async () => {
    const owner = await relayOwner("Rex the dog");
    const finder = freshNumber();

    const sid = await network.dial(finder);
    let call = (await network.leg(sid))!;
    expect(call.status, JSON.stringify(call.transcript)).toBe("gathering");
    expect(said(call.transcript).join(" ")).toMatch(/PIN/);

    await network.pressDigits(sid, owner.pin);
    call = (await network.leg(sid))!;
    expect(call.status, JSON.stringify(call.transcript)).toBe("dialing");
    const [ringing] = await network.callsOf(owner.number);
    expect(ringing).toMatchObject({ parentSid: sid, from: network.relayNumber, to: owner.number, status: "ringing" });
    expect((await listTestDeliveries(owner.number, 1))[0]).toMatchObject({ kind: "call", from: network.relayNumber, to: owner.number });

    await network.answer(ringing!.sid);
    let ownerLeg = (await network.leg(ringing!.sid))!;
    expect(ownerLeg.status, JSON.stringify(ownerLeg.transcript)).toBe("whisper");
    expect(said(ownerLeg.transcript).join(" ")).toContain("Rex the dog");

    await network.pressDigits(ringing!.sid, "1");
    ownerLeg = (await network.leg(ringing!.sid))!;
    expect(ownerLeg.status, JSON.stringify(ownerLeg.transcript)).toBe("connected");
    expect((await network.leg(sid))!.status).toBe("connected");

    await network.hangUp(sid);
    expect(await network.leg(sid)).toMatchObject({ status: "ended", endStatus: "completed" });
    expect(await network.leg(ringing!.sid)).toMatchObject({ status: "ended", endStatus: "completed" });

    const threads = await getDatabase().db.select().from(schema.threads).where(eq(schema.threads.ownerId, owner.account.id));
    expect(threads).toHaveLength(1);
    const messages = await getDatabase().db.select().from(schema.threadMessages).where(eq(schema.threadMessages.threadId, threads[0]!.id));
    const calls = messages.filter((message) => message.channel === "call");
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ callOutcome: "answered" });
    expect(calls[0]!.callSeconds).toBeGreaterThanOrEqual(0);
  });

  it("the owner declining is a missed call in the conversation", async () => {
    const owner = await relayOwner("Bike");
    const sid = await network.dial(freshNumber());
    await network.pressDigits(sid, owner.pin);
    const [ringing] = await network.callsOf(owner.number);
    await network.decline(ringing!.sid);
    expect(await network.leg(sid)).toMatchObject({ status: "ended" });
    const [thread] = await getDatabase().db.select().from(schema.threads).where(eq(schema.threads.ownerId, owner.account.id));
    const messages = await getDatabase().db.select().from(schema.threadMessages).where(eq(schema.threadMessages.threadId, thread!.id));
    expect(messages.filter((message) => message.channel === "call")).toMatchObject([{ callOutcome: "missed" }]);
  });

  it("a wrong PIN is said to be wrong and gathered again, with the number never spoken", async () => {
    const owner = await relayOwner("Keys");
    const sid = await network.dial(freshNumber());
    await network.pressDigits(sid, String((Number(owner.pin) + 1) % 1_000_000).padStart(6, "0"));
    const call = (await network.leg(sid))!;
    expect(call.status).toBe("gathering");
    expect(said(call.transcript).length).toBeGreaterThan(1);
    expect(JSON.stringify(call.transcript)).not.toContain(owner.number);
  });

  it("a text exchange: the finder's PIN text reaches the owner from the relay number, the owner's reply reaches the finder", async () => {
    const owner = await relayOwner("Blue backpack");
    const finder = freshNumber();

    const sent = await network.sendText(finder, `${owner.pin} I found your backpack at the station`);
    expect(sent.error).toBeUndefined();
    const toOwner = await textsTo(owner.number, (body) => body.includes("I found your backpack"));
    expect(toOwner[0]).toMatchObject({ from: network.relayNumber });
    expect(toOwner[0]!.body).toContain("I found your backpack at the station");
    expect(toOwner[0]!.body).not.toContain(finder);

    const reply = await network.sendText(owner.number, "Thank you! I will come by at six.");
    expect(reply.error).toBeUndefined();
    const toFinder = await textsTo(finder, (body) => body.includes("I will come by at six"));
    expect(toFinder.some((delivery) => delivery.from === network.relayNumber && delivery.body?.includes("I will come by at six"))).toBe(true);
    expect(JSON.stringify(toFinder)).not.toContain(owner.number);
    expect(env.TELEPHONY_RELAY_NUMBER).toBe(network.relayNumber);
  });
});
