import { and, eq } from "drizzle-orm";
import { schema, type Transaction } from "@/db/client";
import { openSealedText, sealText } from "@/lib/auth/tokens";
import { env } from "@/lib/env";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { describeError, log } from "@/lib/log";
import { checkRateLimits, countAttempt } from "@/lib/ratelimit";
import { telephonyProvider } from "@/lib/telephony/provider";
import type { WebhookParams } from "@/lib/telephony/provider";
import { type ServiceContext, withTransaction } from "@/lib/services/context";
import { ForbiddenError, ValidationError } from "@/lib/services/errors";
import { threadUrl } from "@/lib/services/messages";
import { addRelayMessage, callLength, FINDER_PHONE_SEAL, notifyOwnerOfCall, notifyOwnerOfText, numberBlockedBy, openConversations, phoneThread } from "./conversation";
import { hashPhoneNumber } from "./phone-number";
import { isInsideQuietHours } from "./quiet-hours";
import { findOwnerByPhone, resolveRelayPin, type ResolvedRelayPin } from "./resolve";
import { cleanText, finderText, routeOwnerReply, smsKeyword } from "./sms-words";
import { spendRelayUnit } from "./spend";
import { callerLocale, dialOwner, emptyVoice, gatherPin, hangUp, messaging, prompt, relayUrls, sayAndHangUp, whisper } from "./twiml";

/**
 * The relay's webhooks (docs/relay.md, part 2): POST /webhooks/telephony/voice, /voice/whisper,
 * /voice/status and /sms. Each is verified (403 without a valid signature), answered once per provider
 * sid and step (relay_webhook_events: a replay gets the stored answer and has no second effect), and
 * answers TwiML. Texts to the other side go out once the answer is committed, with a deadline, so the
 * provider is answered within a second.
 */

export type TelephonyWebhook = "voice" | "whisper" | "status" | "sms";

export interface TelephonyWebhookInput {
  /** The URL the provider signed: APP_URL + path behind TRUST_PROXY, else the request's. */
  url: string;
  signature: string | null;
  /** The raw form-encoded body. */
  rawBody: string;
}

/** How long the webhook waits for the texts it sends before answering; slower ones finish in the background. */
export const SEND_DEADLINE_MS = 600;

type Tx = ServiceContext & { db: Transaction };
type Outgoing = { to: string; body: string };
interface Answer {
  twiml: string;
  texts?: Outgoing[];
}

/** The form body as Twilio's parameters (a repeated name keeps its last value, as Twilio signs). */
export function formParams(rawBody: string): WebhookParams {
  const params: WebhookParams = {};
  for (const [name, value] of new URLSearchParams(rawBody)) params[name] = value;
  return params;
}

const SID = /^[A-Za-z]{2}[0-9a-fA-F]{32}$/;

function required(params: WebhookParams, name: string, pattern?: RegExp): string {
  const value = params[name]?.trim();
  if (!value || value.length > 200 || (pattern && !pattern.test(value))) throw ValidationError.field(name, `${name} is missing or malformed.`);
  return value;
}

/** Verifies, then answers once per sid and step; a replay answers what was stored. */
export async function receiveTelephonyWebhook(ctx: ServiceContext, kind: TelephonyWebhook, input: TelephonyWebhookInput): Promise<string> {
  const params = formParams(input.rawBody);
  if (!telephonyProvider().verifyWebhook({ signature: input.signature, url: input.url, params })) {
    throw new ForbiddenError("The webhook's signature is missing or not valid.");
  }
  const query = new URL(input.url).searchParams;
  const sid = kind === "sms" ? required(params, "MessageSid", SID) : required(params, "CallSid", SID);
  const digits = params.Digits?.trim() ?? "";
  const step = kind === "voice" ? `voice:${digits}` : kind === "whisper" ? `whisper:${query.get("step") ?? ""}:${digits}` : kind;
  const now = new Date();
  const texts: Outgoing[] = [];
  const twiml = await withTransaction(ctx, async (tx) => {
    const [claimed] = await tx.db.insert(schema.relayWebhookEvents).values({ sid, step: step.slice(0, 100), answer: "" }).onConflictDoNothing().returning();
    if (!claimed) {
      // The first delivery committed (a concurrent one waited on the key): its answer, and nothing more.
      const [stored] = await tx.db
        .select({ answer: schema.relayWebhookEvents.answer })
        .from(schema.relayWebhookEvents)
        .where(and(eq(schema.relayWebhookEvents.sid, sid), eq(schema.relayWebhookEvents.step, step.slice(0, 100))));
      return stored?.answer ?? "";
    }
    const answer = await answerWebhook(tx, kind, params, query, now);
    texts.push(...(answer.texts ?? []));
    await tx.db
      .update(schema.relayWebhookEvents)
      .set({ answer: answer.twiml })
      .where(and(eq(schema.relayWebhookEvents.sid, sid), eq(schema.relayWebhookEvents.step, step.slice(0, 100))));
    return answer.twiml;
  });
  await sendWithDeadline(ctx, texts);
  return twiml;
}

async function sendWithDeadline(ctx: ServiceContext, texts: Outgoing[]): Promise<void> {
  if (!texts.length) return;
  const sending = Promise.all(texts.map((text) => telephonyProvider().sendSms(text).catch((error: unknown) => retryLater(ctx, text, error))));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([sending, new Promise((resolve) => (timer = setTimeout(resolve, SEND_DEADLINE_MS)))]);
  clearTimeout(timer);
}

/** The seal of a relayed text's number while it waits in a retry job. */
const RETRY_TEXT_SEAL = "relay-text-retry";

/**
 * A relayed text the provider refused or never answered goes to the job `relay.send-text`, which retries
 * with backoff: a finder's first text must not be lost to a provider's bad minute. The number is sealed.
 */
async function retryLater(ctx: ServiceContext, text: Outgoing, error: unknown): Promise<void> {
  log.warn("relay text not sent; queued to retry", { error: describeError(error), requestId: ctx.requestId });
  try {
    await enqueueJob(ctx, "relay.send-text", { sealedTo: sealText(RETRY_TEXT_SEAL, text.to), body: text.body });
  } catch (queueError) {
    log.error("relay text lost: not sent and not queued", { error: describeError(queueError), requestId: ctx.requestId });
  }
}

/** The job's send (`relay.send-text`): opens the sealed number and sends; a failure throws so the job retries. */
export async function sendSealedRelayText(data: { sealedTo: string; body: string }): Promise<void> {
  await telephonyProvider().sendSms({ to: openSealedText(RETRY_TEXT_SEAL, data.sealedTo), body: data.body });
}

function answerWebhook(tx: Tx, kind: TelephonyWebhook, params: WebhookParams, query: URLSearchParams, now: Date): Promise<Answer> {
  switch (kind) {
    case "voice":
      return answerVoice(tx, params, now);
    case "whisper":
      return answerWhisper(tx, params, query);
    case "status":
      return answerStatus(tx, params);
    case "sms":
      return answerSms(tx, params, now);
  }
}

const ipOf = (ctx: ServiceContext) => (ctx.actor.kind === "system" ? "0.0.0.0" : ctx.actor.ip);

/** A PIN from a number: counted as a guess first (3 an hour per number), given back when it is right. */
async function tryPin(tx: Tx, phoneHash: string, pin: string): Promise<{ resolved: ResolvedRelayPin | null; allowed: boolean; last: boolean }> {
  const counted = await countAttempt(["relayPinGuesses"], { ip: ipOf(tx), key: phoneHash });
  if (!counted.decision.allowed) return { resolved: null, allowed: false, last: true };
  const resolved = await resolveRelayPin(tx.db, pin);
  if (resolved) await counted.refund();
  return { resolved, allowed: true, last: counted.decision.remaining <= 0 };
}

/** A PIN of a relay its owner turned off (the PIN is kept on the row): the owner cannot be reached now. */
async function switchedOffPin(tx: Tx, pin: string): Promise<boolean> {
  if (!/^\d{6}$/.test(pin)) return false;
  const [row] = await tx.db
    .select({ tagId: schema.tagRelays.tagId })
    .from(schema.tagRelays)
    .innerJoin(schema.tags, and(eq(schema.tags.id, schema.tagRelays.tagId), eq(schema.tags.ownerId, schema.tagRelays.ownerId)))
    .where(and(eq(schema.tagRelays.pin, pin), eq(schema.tagRelays.enabled, false)))
    .limit(1);
  return Boolean(row);
}

/** Per number and tag (texts and calls an hour). */
async function finderWithinLimit(tx: Tx, phoneHash: string, tagId: string): Promise<boolean> {
  return (await checkRateLimits(["relayFinderContacts"], { ip: ipOf(tx), key: `${phoneHash}:${tagId}` })).allowed;
}

async function answerVoice(tx: Tx, params: WebhookParams, now: Date): Promise<Answer> {
  const urls = relayUrls(env.APP_URL);
  const locale = callerLocale(params);
  const from = params.From?.trim() || "anonymous";
  const phoneHash = hashPhoneNumber(from);
  const digits = params.Digits?.trim();
  if (!digits) {
    const waiting = await checkRateLimits(["relayPinGuesses"], { ip: ipOf(tx), key: phoneHash }, { consume: false });
    return { twiml: waiting.allowed && waiting.remaining > 0 ? gatherPin(urls, locale) : sayAndHangUp(locale, prompt(locale, "busy")) };
  }
  const guess = await tryPin(tx, phoneHash, digits);
  if (!guess.allowed) return { twiml: sayAndHangUp(locale, prompt(locale, "tooManyWrong")) };
  const relay = guess.resolved;
  if (!relay) {
    if (await switchedOffPin(tx, digits)) return { twiml: sayAndHangUp(locale, prompt(locale, "unavailable")) };
    return { twiml: guess.last ? sayAndHangUp(locale, prompt(locale, "tooManyWrong")) : gatherPin(urls, locale, prompt(locale, "wrongPin")) };
  }
  if (isInsideQuietHours(now, relay.quietHours, relay.timeZone) || (await numberBlockedBy(tx.db, relay.ownerId, phoneHash))) {
    return { twiml: sayAndHangUp(locale, prompt(locale, "unavailable")) };
  }
  if (!(await finderWithinLimit(tx, phoneHash, relay.tagId))) return { twiml: sayAndHangUp(locale, prompt(locale, "busy")) };
  const ownerCalls = await checkRateLimits(["relayOwnerCalls"], { ip: ipOf(tx), key: relay.ownerId });
  if (!ownerCalls.allowed || !(await spendRelayUnit(tx, now))) return { twiml: sayAndHangUp(locale, prompt(locale, "unavailable")) };
  const { thread } = await phoneThread(tx, { tagId: relay.tagId, ownerId: relay.ownerId, phone: from, locale, sealForReply: false, now });
  const [call] = await tx.db
    .insert(schema.relayCalls)
    .values({ callSid: required(params, "CallSid"), tagId: relay.tagId, ownerId: relay.ownerId, threadId: thread.id })
    .onConflictDoNothing()
    .returning();
  if (!call) return { twiml: hangUp() };
  return { twiml: dialOwner(urls, locale, { relayNumber: telephonyProvider().relayNumber, ownerPhone: relay.ownerPhone, leg: call.id }) };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function relayCallOfLeg(tx: Tx, leg: string | null) {
  if (!leg || !UUID.test(leg)) return undefined;
  const [row] = await tx.db
    .select({ id: schema.relayCalls.id, itemName: schema.tags.itemName })
    .from(schema.relayCalls)
    .innerJoin(schema.tags, eq(schema.tags.id, schema.relayCalls.tagId))
    .where(eq(schema.relayCalls.id, leg));
  return row;
}

async function answerWhisper(tx: Tx, params: WebhookParams, query: URLSearchParams): Promise<Answer> {
  const call = await relayCallOfLeg(tx, query.get("leg"));
  if (!call) return { twiml: hangUp() };
  if (query.get("step") === "accept") return { twiml: params.Digits?.trim() === "1" ? emptyVoice() : hangUp() };
  return { twiml: whisper(relayUrls(env.APP_URL), call.id, call.itemName) };
}

async function answerStatus(tx: Tx, params: WebhookParams): Promise<Answer> {
  const [call] = await tx.db.select().from(schema.relayCalls).where(eq(schema.relayCalls.callSid, required(params, "CallSid"))).for("update");
  if (!call || call.outcome) return { twiml: hangUp() };
  const answered = params.DialCallStatus === "completed";
  const seconds = answered ? Math.max(0, Math.min(24 * 3600, Number.parseInt(params.DialCallDuration ?? "0", 10) || 0)) : null;
  await tx.db
    .update(schema.relayCalls)
    .set({ outcome: answered ? "answered" : "missed", durationSeconds: seconds })
    .where(eq(schema.relayCalls.id, call.id));
  const [thread] = await tx.db.select().from(schema.threads).where(eq(schema.threads.id, call.threadId));
  const [tag] = await tx.db.select({ itemName: schema.tags.itemName }).from(schema.tags).where(eq(schema.tags.id, call.tagId));
  if (thread) {
    await addRelayMessage(tx, thread.id, {
      sender: "FINDER",
      channel: "call",
      content: answered ? `Call through the relay, answered (${callLength(seconds ?? 0)}).` : "Missed call through the relay.",
      callOutcome: answered ? "answered" : "missed",
      callSeconds: seconds,
    });
    await notifyOwnerOfCall(tx, thread, tag?.itemName ?? null, { answered, seconds });
  }
  return { twiml: hangUp() };
}

export const HELP_TEXT = "Tag Service relay: start your text with the 6-digit PIN from the tag's page to reach its owner, e.g. 123456 I found your dog. Text STOP to stop texts.";
const STOP_TEXT = "You will get no more texts from the Tag Service relay. Text START to get them again.";
const START_TEXT = "Texts from the Tag Service relay are on again. Text STOP to stop them.";

async function optedOut(tx: Tx, phoneHash: string): Promise<boolean> {
  const [row] = await tx.db.select({ phoneHash: schema.relayOptOuts.phoneHash }).from(schema.relayOptOuts).where(eq(schema.relayOptOuts.phoneHash, phoneHash));
  return Boolean(row);
}

async function answerSms(tx: Tx, params: WebhookParams, now: Date): Promise<Answer> {
  const from = required(params, "From");
  const body = cleanText(params.Body ?? "");
  const phoneHash = hashPhoneNumber(from);
  const keyword = smsKeyword(body);
  if (keyword === "stop") {
    await tx.db.insert(schema.relayOptOuts).values({ phoneHash }).onConflictDoNothing();
    return { twiml: messaging(STOP_TEXT) };
  }
  if (keyword === "start") {
    await tx.db.delete(schema.relayOptOuts).where(eq(schema.relayOptOuts.phoneHash, phoneHash));
    return { twiml: messaging(START_TEXT) };
  }
  if (keyword === "help") return { twiml: messaging(HELP_TEXT) };
  const owner = await findOwnerByPhone(tx.db, from);
  if (owner) {
    const owned = await answerOwnerText(tx, owner.ownerId, body, now);
    if (owned) return owned;
  }
  return answerFinderText(tx, from, phoneHash, body, now);
}

/** An owner's text: to the finder who texted last within 7 days, or the one its code names; null to read it as a finder's text (an owner with a PIN and no open conversation). */
async function answerOwnerText(tx: Tx, ownerId: string, body: string, now: Date): Promise<Answer | null> {
  const open = await openConversations(tx.db, ownerId, now);
  if (!open.length && finderText(body)) return null;
  const route = routeOwnerReply(body, open);
  if (route.kind === "none") return { twiml: messaging("No finder has texted you through the relay in the last 7 days. Answer finders in your inbox on the web.") };
  if (route.kind === "empty") return { twiml: messaging("Write your answer after the conversation's code.") };
  if (route.kind === "ask") {
    return { twiml: messaging(`Several finders are texting you. Start your text with the conversation's code (${route.codes.join(", ")}), e.g. ${route.codes[0]} Thank you!`) };
  }
  const target = open.find((conversation) => conversation.threadId === route.threadId)!;
  await addRelayMessage(tx, target.threadId, { sender: "OWNER", channel: "sms", content: route.text });
  const answer = await ownerAnswerText(tx, target, route.text, now);
  if (answer.kind === "optedOut") return { twiml: messaging("This finder has stopped texts from the relay. Your answer is in the conversation on the web.") };
  if (answer.kind === "overCap") return { twiml: messaging("The relay cannot send more texts today. Your answer is in the conversation on the web.") };
  return { twiml: messaging(), texts: [answer.text] };
}

export type OwnerAnswerText = { kind: "text"; text: Outgoing } | { kind: "optedOut" } | { kind: "overCap" };

/**
 * The owner's answer as the text to the finder ("Owner of <item>: …"), whether the owner texted it or wrote
 * it on the web (docs/relay.md): refused when the finder's number sent STOP or the daily cap is spent.
 * The caller sends it once its transaction has committed.
 */
export async function ownerAnswerText(tx: Tx, target: { tagId: string; sealed: string }, text: string, now: Date): Promise<OwnerAnswerText> {
  const [tag] = await tx.db.select({ itemName: schema.tags.itemName }).from(schema.tags).where(eq(schema.tags.id, target.tagId));
  const finderPhone = openSealedText(FINDER_PHONE_SEAL, target.sealed);
  if (await optedOut(tx, hashPhoneNumber(finderPhone))) return { kind: "optedOut" };
  if (!(await spendRelayUnit(tx, now))) return { kind: "overCap" };
  return { kind: "text", text: { to: finderPhone, body: `Owner of ${tag?.itemName?.trim() || "the item"}: ${text}` } };
}

async function answerFinderText(tx: Tx, from: string, phoneHash: string, body: string, now: Date): Promise<Answer> {
  const parsed = finderText(body);
  if (!parsed) return { twiml: messaging(HELP_TEXT) };
  const guess = await tryPin(tx, phoneHash, parsed.pin);
  if (!guess.allowed) return { twiml: messaging("Too many wrong PINs from this number. Please try again later, or use the tag's web page.") };
  const relay = guess.resolved;
  if (!relay) {
    if (await switchedOffPin(tx, parsed.pin)) return { twiml: messaging("The owner cannot take texts through the relay now. Please use the tag's web page.") };
    return { twiml: messaging("That PIN is not right. Check the 6-digit PIN on the tag's page and start your text with it.") };
  }
  if (await numberBlockedBy(tx.db, relay.ownerId, phoneHash)) return { twiml: messaging("The owner is not accepting messages from this number.") };
  if (!parsed.text) return { twiml: messaging("Write your message after the PIN, e.g. 123456 I found your dog.") };
  if (!(await finderWithinLimit(tx, phoneHash, relay.tagId))) return { twiml: messaging("Too many texts to this owner just now. Please try again later, or use the tag's web page.") };
  if (!(await spendRelayUnit(tx, now))) return { twiml: messaging("The relay cannot take more texts today. Please use the tag's web page to write to the owner.") };
  const locale = callerLocale({ From: from });
  const { thread, newToken } = await phoneThread(tx, { tagId: relay.tagId, ownerId: relay.ownerId, phone: from, locale, sealForReply: true, now });
  const message = await addRelayMessage(tx, thread.id, { sender: "FINDER", channel: "sms", content: parsed.text });
  await notifyOwnerOfText(tx, thread, relay.itemName, parsed.text, message.id);
  const item = relay.itemName?.trim() || "your tagged item";
  const ownerOptedOut = await optedOut(tx, hashPhoneNumber(relay.ownerPhone));
  const texts = ownerOptedOut ? [] : [{ to: relay.ownerPhone, body: `${item} (${thread.relayCode}): ${parsed.text}` }];
  const link = newToken ? ` Follow the conversation: ${threadUrl(newToken)}` : "";
  return { twiml: messaging(`Sent to the owner of ${item}. Their answer comes by text from this number.${link}`), texts };
}
