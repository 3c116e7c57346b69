import { randomBytes } from "node:crypto";
import { desc, eq, max, or } from "drizzle-orm";
import { getDatabase, schema, type Executor } from "@/db/client";
import type { TestTelephonyDelivery } from "@/db/schema";
export type { TestTelephonyDelivery };
import { env, type Env } from "@/lib/env";
import { telephonyWebhookSecret } from "@/lib/secrets";
import { signTwilioRequest, verifyTwilioRequest } from "./signature";
import type { SmsInput, TelephonyProvider, WebhookParams, WebhookToVerify } from "./types";

/**
 * The built-in test telephony provider (docs/relay.md), used without the TWILIO_* variables, as the test
 * payment provider stands in for Stripe. It plays Twilio's side: what it delivers (texts sent; calls
 * bridged, from part 2 on) goes to its own table, test_telephony_deliveries, which the app never reads
 * and the development phone lists; the webhooks it sends are signed with TELEPHONY_WEBHOOK_SECRET in
 * Twilio's exact scheme, so the app verifies them with the same `twilio.validateRequest`.
 */

/** Twilio-shaped ids: a two-letter prefix (SM message, CA call) and 32 hex digits. */
export function testSid(prefix: "SM" | "CA"): string {
  return `${prefix}${randomBytes(16).toString("hex")}`;
}

let lastStamp = 0;

/** Strictly increasing within the process, so a code and the text after it list in the order they were sent. */
function nextTimestamp(): Date {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return new Date(lastStamp);
}

export interface TestTelephonyOptions {
  relayNumber?: string;
  /** The signing secret (default: TELEPHONY_WEBHOOK_SECRET, or the development secret outside production). */
  secret?: string;
  /** The provider's own storage (default: the app's database handle, outside any app transaction). */
  db?: () => Executor;
}

export interface TestTelephonyProvider extends TelephonyProvider {
  readonly name: "test";
  /** The X-Twilio-Signature the provider sends with a webhook to `url` carrying `params`. */
  signWebhook(url: string, params: WebhookParams): string;
  /** Records a delivery of another kind (a bridged call, from part 2 on). */
  record(delivery: { sid: string; kind: "sms" | "call"; from: string; to: string; body?: string | null }): Promise<TestTelephonyDelivery>;
}

export function createTestTelephonyProvider(options: TestTelephonyOptions = {}, e: Env = env): TestTelephonyProvider {
  const relayNumber = options.relayNumber ?? e.TELEPHONY_RELAY_NUMBER;
  const secret = () => options.secret ?? telephonyWebhookSecret(e);
  const db = options.db ?? (() => getDatabase().db);

  async function record(delivery: { sid: string; kind: "sms" | "call"; from: string; to: string; body?: string | null }): Promise<TestTelephonyDelivery> {
    const [row] = await db()
      .insert(schema.testTelephonyDeliveries)
      .values({ ...delivery, body: delivery.body ?? null, createdAt: nextTimestamp() })
      .returning();
    if (!row) throw new Error("test telephony provider: the delivery was not recorded");
    return row;
  }

  return {
    name: "test",
    relayNumber,
    async sendSms(input: SmsInput) {
      const row = await record({ sid: testSid("SM"), kind: "sms", from: relayNumber, to: input.to, body: input.body });
      return { sid: row.sid };
    },
    verifyWebhook(request: WebhookToVerify) {
      return verifyTwilioRequest(secret(), request.signature, request.url, request.params);
    },
    signWebhook(url: string, params: WebhookParams) {
      return signTwilioRequest(secret(), url, params);
    },
    record,
  };
}

/** What the test provider delivered to or from `number` (E.164), newest first: the development phone's list. */
export async function listTestDeliveries(number: string, limit = 50, db: Executor = getDatabase().db): Promise<TestTelephonyDelivery[]> {
  const table = schema.testTelephonyDeliveries;
  return db
    .select()
    .from(table)
    .where(or(eq(table.to, number), eq(table.from, number)))
    .orderBy(desc(table.createdAt), desc(table.id))
    .limit(limit);
}

/** The numbers `from` (the relay number) most recently texted or rang, newest first: the development phone's owner choices. */
export async function listTestRecipients(from: string, limit = 10, db: Executor = getDatabase().db): Promise<string[]> {
  const table = schema.testTelephonyDeliveries;
  const rows = await db
    .select({ to: table.to, last: max(table.createdAt) })
    .from(table)
    .where(eq(table.from, from))
    .groupBy(table.to)
    .orderBy(desc(max(table.createdAt)))
    .limit(limit);
  return rows.map((row) => row.to);
}
