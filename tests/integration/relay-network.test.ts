import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { createTestTelephonyProvider } from "@/lib/telephony/test-provider";
import { createTestNetwork, type WebhookTransport } from "@/lib/telephony/test-network";
import { TWILIO_SIGNATURE_HEADER } from "@/lib/telephony/signature";
import { POST as voiceRoute } from "@/app/api/v1/webhooks/telephony/voice/route";
import { POST as whisperRoute } from "@/app/api/v1/webhooks/telephony/voice/whisper/route";
import { POST as statusRoute } from "@/app/api/v1/webhooks/telephony/voice/status/route";
import { POST as smsRoute } from "@/app/api/v1/webhooks/telephony/sms/route";
import type { RouteHandler } from "@/lib/http/route";
import { apiRequest, call } from "../support/http";
import { APP, deliveriesTo, freshNumber, relayOwner, threadsOfNumber } from "../support/relay";

/**
 * The app's webhooks against the test provider's network simulation (the other half of the TwiML
 * contract, docs/relay.md): the network posts what Twilio would and acts on the answers, here delivered
 * to the route handlers in process.
 */
const routes: Record<string, RouteHandler> = {
  "/api/v1/webhooks/telephony/voice": voiceRoute,
  "/api/v1/webhooks/telephony/voice/whisper": whisperRoute,
  "/api/v1/webhooks/telephony/voice/status": statusRoute,
  "/api/v1/webhooks/telephony/sms": smsRoute,
};

const inProcess: WebhookTransport = async ({ url, params, signature }) => {
  const target = new URL(url);
  const route = routes[target.pathname];
  if (!route) return { status: 404, body: "" };
  const response = await call(route, apiRequest(target.pathname + target.search, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", [TWILIO_SIGNATURE_HEADER]: signature }, rawBody: new URLSearchParams(params).toString() }));
  return { status: response.status, body: await response.text() };
};

const network = () => createTestNetwork({ provider: createTestTelephonyProvider(), transport: inProcess, appUrl: APP });

describe("the relay over the test telephony network", () => {
  it("a finder calls, types the PIN, the owner hears the whisper, presses 1, they talk; the call lands in the conversation", async () => {
    const owner = await relayOwner({ itemName: "Rex" });
    const finder = freshNumber("+1415555", 4);
    const phones = network();
    const sid = await phones.dial(finder);
    expect((await phones.leg(sid))?.status).toBe("gathering");
    await phones.pressDigits(sid, owner.pin);
    const parent = await phones.leg(sid);
    expect(parent?.status).toBe("dialing");
    const childSid = parent!.waiting && parent!.waiting.kind === "dial" ? parent!.waiting.childSid : "";
    await phones.answer(childSid);
    const child = await phones.leg(childSid);
    expect(child?.transcript.map((entry) => entry.text).join(" ")).toContain("A finder of Rex is calling through Tag Service; press 1 to accept.");
    await phones.pressDigits(childSid, "1");
    expect((await phones.leg(sid))?.status).toBe("connected");
    await phones.hangUp(sid);
    const [thread] = await threadsOfNumber(owner.account.id);
    const messages = await getDatabase().db.select().from(schema.threadMessages).where(eq(schema.threadMessages.threadId, thread!.id));
    expect(messages.map((message) => [message.channel, message.callOutcome])).toEqual([["call", "answered"]]);
  });

  it("a finder texts with the PIN, the owner's phone gets it, the owner answers and the finder's phone gets that", async () => {
    const owner = await relayOwner({ itemName: "Keys" });
    const finder = freshNumber();
    const phones = network();
    const sent = await phones.sendText(finder, `${owner.pin} Found your keys`);
    expect(sent.error).toBeUndefined();
    expect(sent.replies[0]).toContain("Sent to the owner of Keys");
    expect((await deliveriesTo(owner.number))[0]?.body).toMatch(/^Keys \([A-Z2-9]{4}\): Found your keys$/);
    const answered = await phones.sendText(owner.number, "Thank you!");
    expect(answered.replies).toEqual([]);
    expect((await deliveriesTo(finder)).map((delivery) => delivery.body)).toContain("Owner of Keys: Thank you!");
  });
});
