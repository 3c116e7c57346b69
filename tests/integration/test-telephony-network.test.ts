import { randomInt } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDatabase, schema } from "@/db/client";
import { createTestNetwork } from "@/lib/telephony/test-network";
import { createTestTelephonyProvider, listTestDeliveries } from "@/lib/telephony/test-provider";
import { FIXTURE_APP_URL as APP_URL, FIXTURE_PIN as PIN, FIXTURE_RELAY as RELAY, fixtureApp } from "../support/telephony-fixture";

/**
 * The test telephony network (lib/telephony/test-network.ts) against a small in-test app that answers
 * the TwiML contract (docs/relay.md): its webhooks are checked with the provider's own verifyWebhook, so
 * each request is Twilio's exact form and signature; the calls' state is in the real database.
 */

/** A fresh valid German mobile number, so no two tests share a phone. */
const freshNumber = () => `+49151${String(randomInt(0, 100_000_000)).padStart(8, "0")}`;

describe("the test telephony network", () => {
  it("plays a whole call: dial, PIN, the owner's phone rings, the whisper, 1 accepts, hang up", async () => {
    const finder = freshNumber();
    const owner = freshNumber();
    const { network, received } = fixtureApp(owner);

    const sid = await network.dial(finder);
    expect(sid).toMatch(/^CA[0-9a-f]{32}$/);
    const first = received[0]!;
    expect(first.path).toBe("/api/v1/webhooks/telephony/voice");
    expect(first.params).toMatchObject({ CallSid: sid, From: finder, To: RELAY, CallStatus: "ringing", Direction: "inbound", FromCountry: "DE", ToCountry: "US" });
    expect(first.params.AccountSid).toMatch(/^AC[0-9a-f]{32}$/);
    expect(first.params).not.toHaveProperty("Digits");
    let call = (await network.leg(sid))!;
    expect(call.status).toBe("gathering");
    expect(call.transcript).toEqual([{ kind: "say", text: "Enter the PIN.", language: "de-DE" }]);

    await network.pressDigits(sid, "111111");
    expect(received[1]!.params).toMatchObject({ CallSid: sid, Digits: "111111", CallStatus: "in-progress" });
    call = (await network.leg(sid))!;
    expect(call.status).toBe("gathering");
    expect(call.transcript.filter((entry) => entry.kind === "say").map((entry) => entry.text)).toEqual(["Enter the PIN.", "That PIN is wrong.", "Enter the PIN."]);

    await network.pressDigits(sid, PIN);
    call = (await network.leg(sid))!;
    expect(call.status).toBe("dialing");
    const [ringing] = await network.callsOf(owner);
    expect(ringing).toMatchObject({ parentSid: sid, from: RELAY, to: owner, status: "ringing" });
    const [callDelivery] = await listTestDeliveries(owner);
    expect(callDelivery).toMatchObject({ sid: ringing!.sid, kind: "call", from: RELAY, to: owner });

    await network.answer(ringing!.sid);
    const whisper = received.at(-1)!;
    expect(whisper.path).toBe("/api/v1/webhooks/telephony/voice/whisper?leg=L1");
    expect(whisper.params).toMatchObject({ CallSid: ringing!.sid, ParentCallSid: sid, From: RELAY, To: owner, CallStatus: "in-progress", Direction: "outbound-dial" });
    let ownerLeg = (await network.leg(ringing!.sid))!;
    expect(ownerLeg.status).toBe("whisper");
    expect(ownerLeg.transcript).toContainEqual({ kind: "say", text: "A finder of Rex is calling through Tag Service; press 1 to accept." });

    await network.pressDigits(ringing!.sid, "1");
    expect(received.at(-1)).toMatchObject({ path: "/api/v1/webhooks/telephony/voice/whisper?leg=L1&step=accept", params: { CallSid: ringing!.sid, ParentCallSid: sid, Digits: "1" } });
    ownerLeg = (await network.leg(ringing!.sid))!;
    call = (await network.leg(sid))!;
    expect([ownerLeg.status, call.status]).toEqual(["connected", "connected"]);

    await network.hangUp(sid);
    const status = received.at(-1)!;
    expect(status.path).toBe("/api/v1/webhooks/telephony/voice/status");
    expect(status.params).toMatchObject({ CallSid: sid, DialCallSid: ringing!.sid, DialCallStatus: "completed", CallStatus: "completed" });
    expect(Number(status.params.DialCallDuration)).toBeGreaterThanOrEqual(0);
    expect((await network.leg(sid))!).toMatchObject({ status: "ended", endStatus: "completed" });
    expect((await network.leg(ringing!.sid))!).toMatchObject({ status: "ended", endStatus: "completed" });
    await expect(network.hangUp(sid)).rejects.toThrow(/ended/);
  });

  it("the owner declining or pressing another key ends the caller's Dial (busy, no-answer), whose answer hangs up", async () => {
    const owner = freshNumber();
    const { network, received } = fixtureApp(owner);

    const declined = await network.dial(freshNumber());
    await network.pressDigits(declined, PIN);
    const [first] = await network.callsOf(owner);
    await network.decline(first!.sid);
    expect(received.at(-1)).toMatchObject({ path: "/api/v1/webhooks/telephony/voice/status", params: { CallSid: declined, DialCallStatus: "busy", CallStatus: "in-progress" } });
    expect(received.at(-1)!.params).not.toHaveProperty("DialCallDuration");
    expect(await network.leg(declined)).toMatchObject({ status: "ended", endStatus: "completed" });

    const refused = await network.dial(freshNumber());
    await network.pressDigits(refused, PIN);
    const [second] = await network.callsOf(owner);
    await network.answer(second!.sid);
    await network.pressDigits(second!.sid, "2");
    expect(received.at(-1)).toMatchObject({ path: "/api/v1/webhooks/telephony/voice/status", params: { CallSid: refused, DialCallStatus: "no-answer" } });
    expect(await network.leg(second!.sid)).toMatchObject({ status: "ended" });
    expect(await network.leg(refused)).toMatchObject({ status: "ended" });
  });

  it("the owner hanging up a connected call posts the Dial action and the caller hears its answer; no whisper bridges at once", async () => {
    const owner = freshNumber();
    const { network, received } = fixtureApp(owner, { whisper: false });
    const sid = await network.dial(freshNumber());
    await network.pressDigits(sid, PIN);
    const [ownerLeg] = await network.callsOf(owner);
    await network.answer(ownerLeg!.sid);
    expect(await network.leg(sid)).toMatchObject({ status: "connected" });
    await network.hangUp(ownerLeg!.sid);
    expect(received.at(-1)).toMatchObject({ path: "/api/v1/webhooks/telephony/voice/status", params: { CallSid: sid, DialCallStatus: "completed", CallStatus: "in-progress" } });
    expect(await network.leg(sid)).toMatchObject({ status: "ended", endStatus: "completed" });
  });

  it("saying nothing goes on with the verbs after the Gather; a refused webhook is Twilio's application error", async () => {
    const { network, transport } = fixtureApp(freshNumber());
    const quiet = await network.dial(freshNumber());
    await network.stayQuiet(quiet);
    const call = (await network.leg(quiet))!;
    expect(call).toMatchObject({ status: "ended", endStatus: "completed" });
    expect(call.transcript.filter((entry) => entry.kind === "say").map((entry) => entry.text)).toEqual(["Enter the PIN.", "Goodbye."]);
    await expect(network.pressDigits(quiet, PIN)).rejects.toThrow(/not waiting/);

    const wrongSecret = createTestNetwork({ provider: createTestTelephonyProvider({ relayNumber: RELAY, secret: "another-secret-of-16+" }), transport, appUrl: APP_URL });
    const refused = await wrongSecret.dial(freshNumber());
    expect(await wrongSecret.leg(refused)).toMatchObject({ status: "ended", endStatus: "failed" });
    expect((await wrongSecret.leg(refused))!.transcript[0]).toMatchObject({ kind: "say", text: expect.stringMatching(/application error/) });
  });

  it("two simultaneous presses act once: the step is claimed by the leg's version; a leg left busy can be hung up after 30 s", async () => {
    const { network, received } = fixtureApp(freshNumber());
    const sid = await network.dial(freshNumber());
    const results = await Promise.allSettled([network.pressDigits(sid, PIN), network.pressDigits(sid, PIN)]);
    expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(received.filter((request) => request.params.Digits)).toHaveLength(1);

    const stuck = await network.dial(freshNumber());
    await getDatabase().db.update(schema.testTelephonyCalls).set({ status: "busy" }).where(eq(schema.testTelephonyCalls.sid, stuck));
    await expect(network.hangUp(stuck)).rejects.toThrow(/ended/);
    await getDatabase()
      .db.update(schema.testTelephonyCalls)
      .set({ updatedAt: new Date(Date.now() - 31_000) })
      .where(eq(schema.testTelephonyCalls.sid, stuck));
    await network.hangUp(stuck);
    expect(await network.leg(stuck)).toMatchObject({ status: "ended", endStatus: "completed" });
  });

  it("texts: the sender's text and each Message of the answer are deliveries, signed as Twilio signs", async () => {
    const finder = freshNumber();
    const { network, received } = fixtureApp(freshNumber());
    const result = await network.sendText(finder, `${PIN} I found your dog`);
    expect(result).toMatchObject({ sid: expect.stringMatching(/^SM[0-9a-f]{32}$/), replies: ["Sent to the owner of Rex."] });
    expect(received.at(-1)).toMatchObject({ path: "/api/v1/webhooks/telephony/sms", params: { MessageSid: result.sid, From: finder, To: RELAY, Body: `${PIN} I found your dog`, NumMedia: "0" } });
    const deliveries = await listTestDeliveries(finder);
    expect(deliveries.map((d) => [d.from, d.to, d.body])).toEqual([
      [RELAY, finder, "Sent to the owner of Rex."],
      [finder, RELAY, `${PIN} I found your dog`],
    ]);
    expect(await network.sendText(finder, "no pin")).toMatchObject({ replies: [] });
  });
});

