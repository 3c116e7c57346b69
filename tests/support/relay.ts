import { randomBytes, randomInt } from "node:crypto";
import { expect } from "vitest";
import { eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { POST as requestCodeRoute } from "@/app/api/v1/auth/phone/route";
import { POST as verifyCodeRoute } from "@/app/api/v1/auth/phone/verify/route";
import { PATCH as patchRelayRoute } from "@/app/api/v1/tags/[id]/relay/route";
import { POST as voiceRoute } from "@/app/api/v1/webhooks/telephony/voice/route";
import { POST as whisperRoute } from "@/app/api/v1/webhooks/telephony/voice/whisper/route";
import { POST as statusRoute } from "@/app/api/v1/webhooks/telephony/voice/status/route";
import { POST as smsRoute } from "@/app/api/v1/webhooks/telephony/sms/route";
import { listTestDeliveries, createTestTelephonyProvider } from "@/lib/telephony/test-provider";
import type { RouteHandler } from "@/lib/http/route";
import { bearer, registerAccount, type TestAccount } from "./auth";
import { apiRequest, call, json } from "./http";
import { giveTestTag } from "./tags";
import { parseXml, type XmlNode } from "./twiml";

export const RELAY_NUMBER = "+15005550006";
export const APP = "http://localhost:3000";

/** A fresh valid number: German mobiles for finders and owners, or another country's when asked. */
export function freshNumber(prefix = "+49151", digits = 8): string {
  return `${prefix}${String(randomInt(0, 10 ** digits)).padStart(digits, "0")}`;
}

export const sid = (prefix: "CA" | "SM") => `${prefix}${randomBytes(16).toString("hex")}`;

/** An owner with a verified number and a tag whose relay is on. */
export async function relayOwner(options: { itemName?: string; quietHours?: { from: string; to: string } } = {}): Promise<{ account: TestAccount; number: string; tagId: string; pin: string }> {
  const account = await registerAccount();
  const number = freshNumber();
  expect((await call(requestCodeRoute, apiRequest("/api/v1/auth/phone", { method: "POST", headers: bearer(account.accessToken), body: { phone: number } }))).status).toBe(202);
  const [latest] = await listTestDeliveries(number, 1);
  const code = latest!.body!.match(/\b(\d{6})\b/)![1]!;
  expect((await call(verifyCodeRoute, apiRequest("/api/v1/auth/phone/verify", { method: "POST", headers: bearer(account.accessToken), body: { code } }))).status).toBe(200);
  const tag = await giveTestTag(account.id, { itemName: options.itemName ?? "Rex", status: "ACTIVE" });
  const patched = await call(
    patchRelayRoute,
    apiRequest(`/api/v1/tags/${tag.id}/relay`, { method: "PATCH", headers: bearer(account.accessToken), body: { enabled: true, ...(options.quietHours ? { quietHours: options.quietHours } : {}) } }),
    { id: tag.id },
  );
  expect(patched.status).toBe(200);
  const { data } = await json<{ data: { pin: string } }>(patched);
  return { account, number, tagId: tag.id, pin: data.pin };
}

const routes: Record<string, RouteHandler> = {
  "/api/v1/webhooks/telephony/voice": voiceRoute,
  "/api/v1/webhooks/telephony/voice/whisper": whisperRoute,
  "/api/v1/webhooks/telephony/voice/status": statusRoute,
  "/api/v1/webhooks/telephony/sms": smsRoute,
};

/** Posts a Twilio-format webhook to `pathAndQuery`, signed by the test provider unless `signature` says otherwise. */
export async function postWebhook(pathAndQuery: string, params: Record<string, string>, options: { signature?: string | null; ip?: string } = {}) {
  const url = `${APP}${pathAndQuery}`;
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  const signature = options.signature === undefined ? createTestTelephonyProvider().signWebhook(url, params) : options.signature;
  if (signature !== null) headers["x-twilio-signature"] = signature;
  const route = routes[new URL(url).pathname]!;
  const response = await call(route, apiRequest(pathAndQuery, { method: "POST", headers, rawBody: new URLSearchParams(params).toString(), ip: options.ip }));
  const text = await response.text();
  return { status: response.status, text, xml: response.status === 200 ? parseXml(text) : null, contentType: response.headers.get("content-type") };
}

/** The TwiML of a 200 answer. */
export function twiml(answer: { status: number; xml: XmlNode | null; text: string }): XmlNode {
  expect(answer.status, answer.text).toBe(200);
  return answer.xml!;
}

export async function threadsOfNumber(ownerId: string) {
  return getDatabase().db.select().from(schema.threads).where(eq(schema.threads.ownerId, ownerId));
}

export async function deliveriesTo(number: string) {
  return (await listTestDeliveries(number, 50)).filter((delivery) => delivery.to === number);
}
