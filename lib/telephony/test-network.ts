import { createHash } from "node:crypto";
import { and, desc, eq, or, sql } from "drizzle-orm";
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { getDatabase, schema, type Executor } from "@/db/client";
import type { TestTelephonyCall } from "@/db/schema";
import { env } from "@/lib/env";
import { TWILIO_SIGNATURE_HEADER } from "./signature";
import { createTestTelephonyProvider, testSid, type TestTelephonyProvider } from "./test-provider";
import { parseTwiml, type Verb } from "./twiml";
import type { WebhookParams } from "./types";

/**
 * The test provider's telephone network (docs/relay.md "The development phone"): a phone dials or texts
 * the relay number, and the network does what Twilio does. It POSTs Twilio-shaped, signed, form-encoded
 * webhooks to the app and acts on the TwiML answers: <Say> is heard, <Gather> waits for keys, <Dial>
 * rings the owner's number and runs the <Number url> whisper on their leg when they answer (an empty
 * answer bridges the two), the <Dial action> hears how the dialled call ended, <Message> texts the
 * caller. Each leg's state is a row of test_telephony_calls, claimed by its version for each step, so two
 * app instances play one network and two simultaneous presses act once.
 *
 * Timeouts are the phone user's buttons (say nothing, let it ring out), not timers: the development page
 * is operated by a person at their own pace.
 */

export const VOICE_WEBHOOK_PATH = "/api/v1/webhooks/telephony/voice";
export const SMS_WEBHOOK_PATH = "/api/v1/webhooks/telephony/sms";

/** What Twilio says when a webhook fails or answers something that is not TwiML; then it hangs up. */
export const APPLICATION_ERROR = "We are sorry, an application error has occurred. Goodbye.";

export interface WebhookRequest {
  url: string;
  method: "GET" | "POST";
  params: WebhookParams;
  /** X-Twilio-Signature. */
  signature: string;
}

/** Sends one webhook and answers its status and body; throws when it cannot be delivered. */
export type WebhookTransport = (request: WebhookRequest) => Promise<{ status: number; body: string }>;

/** Delivery over HTTP, as Twilio does: form-encoded POST (or GET with the parameters in the query). */
export const httpTransport: WebhookTransport = async ({ url, method, params, signature }) => {
  const body = new URLSearchParams(params).toString();
  const target = method === "GET" ? `${url}${url.includes("?") ? "&" : "?"}${body}` : url;
  const response = await fetch(target, {
    method,
    headers: { [TWILIO_SIGNATURE_HEADER]: signature, ...(method === "POST" ? { "Content-Type": "application/x-www-form-urlencoded" } : {}) },
    body: method === "POST" ? body : undefined,
    redirect: "manual",
    signal: AbortSignal.timeout(15_000),
  });
  return { status: response.status, body: await response.text() };
};

export type CallStatus = "gathering" | "dialing" | "ringing" | "whisper" | "connected" | "busy" | "ended";
export type DialCallStatus = "completed" | "no-answer" | "busy" | "failed" | "canceled";

export type TranscriptEntry = { kind: "say"; text: string; language?: string } | { kind: "event"; text: string };

/** What a leg waits on: keys for a <Gather>, the outcome of its <Dial>, or (an owner's leg) to be answered. */
export type Waiting =
  | { kind: "gather"; url: string; method: "GET" | "POST"; numDigits?: number; finishOnKey: string; rest: Verb[]; documentUrl: string }
  | { kind: "dial"; action?: string; method: "GET" | "POST"; childSid: string; rest: Verb[]; documentUrl: string }
  | { kind: "ring"; url?: string; method: "GET" | "POST" };

export interface CallLeg {
  sid: string;
  parentSid: string | null;
  from: string;
  to: string;
  status: CallStatus;
  transcript: TranscriptEntry[];
  waiting: Waiting | null;
  endStatus: string | null;
  connectedAt: Date | null;
  endedAt: Date | null;
  createdAt: Date;
}

/** Refusals of a step the leg is not in (pressing keys on a call that waits for none, say). */
export class TestNetworkError extends Error {}

export interface TextResult {
  sid: string;
  /** The texts the answer's <Message> verbs sent back. */
  replies: string[];
  /** Set when the webhook failed (Twilio then sends nothing back). */
  error?: string;
}

export interface TestNetworkOptions {
  provider?: TestTelephonyProvider;
  transport?: WebhookTransport;
  /** Where the app is (default APP_URL); webhooks go there, and TwiML may point nowhere else. */
  appUrl?: string;
  db?: () => Executor;
}

/** How long a leg may stay busy (a webhook in flight) before hanging up may end it anyway. */
const STALE_BUSY_MS = 30_000;

const ACCOUNT_SID = `AC${createHash("sha256").update("tag-service test telephony account").digest("hex").slice(0, 32)}`;

function countryOf(number: string): string | undefined {
  return parsePhoneNumberFromString(number)?.country;
}

function toLeg(row: TestTelephonyCall): CallLeg {
  return {
    sid: row.sid,
    parentSid: row.parentSid,
    from: row.from,
    to: row.to,
    status: row.status as CallStatus,
    transcript: row.transcript as TranscriptEntry[],
    waiting: row.waiting as Waiting | null,
    endStatus: row.endStatus,
    connectedAt: row.connectedAt,
    endedAt: row.endedAt,
    createdAt: row.createdAt,
  };
}

/** Keys as a <Gather> takes them: up to the finish key, at most numDigits. */
export function gatheredDigits(keys: string, gather: { numDigits?: number; finishOnKey: string }): string {
  let digits = keys.replace(/[^0-9*#]/g, "");
  if (gather.finishOnKey) {
    const finish = digits.indexOf(gather.finishOnKey);
    if (finish >= 0) digits = digits.slice(0, finish);
  }
  return gather.numDigits ? digits.slice(0, gather.numDigits) : digits;
}

export function createTestNetwork(options: TestNetworkOptions = {}) {
  const provider = options.provider ?? createTestTelephonyProvider();
  const transport = options.transport ?? httpTransport;
  const db = options.db ?? (() => getDatabase().db);
  const appUrl = () => (options.appUrl ?? env.APP_URL).replace(/\/+$/, "");
  const calls = schema.testTelephonyCalls;

  /** A TwiML URL resolved against the document it came from; only the app's own origin is called. */
  function resolveUrl(url: string, base: string): string {
    const resolved = new URL(url, base);
    if (resolved.origin !== new URL(appUrl()).origin) throw new TestNetworkError(`TwiML pointed outside the app: ${resolved.origin}`);
    return resolved.toString();
  }

  /** Posts one signed webhook; answers the TwiML's verbs, or throws when the app's answer is not TwiML. */
  async function request(url: string, method: "GET" | "POST", params: WebhookParams): Promise<Verb[]> {
    const signedUrl = method === "GET" ? `${url}${url.includes("?") ? "&" : "?"}${new URLSearchParams(params).toString()}` : url;
    const signature = provider.signWebhook(signedUrl, method === "GET" ? {} : params);
    const answer = await transport({ url, method, params, signature });
    if (answer.status < 200 || answer.status >= 300) throw new TestNetworkError(`the webhook ${new URL(url).pathname} answered ${answer.status}`);
    return parseTwiml(answer.body);
  }

  async function insertLeg(leg: { sid: string; parentSid?: string | null; from: string; to: string; status: CallStatus; waiting?: Waiting | null; transcript?: TranscriptEntry[] }) {
    await db()
      .insert(calls)
      .values({ sid: leg.sid, parentSid: leg.parentSid ?? null, from: leg.from, to: leg.to, status: leg.status, waiting: leg.waiting ?? null, transcript: leg.transcript ?? [] });
  }

  /**
   * Takes a leg for one step: only from one of `statuses`, and no one else can take it until it is saved
   * (its status is `busy` meanwhile). Null when it is not in such a state.
   */
  async function claim(sid: string, statuses: CallStatus[], options: { orStaleBusy?: boolean } = {}): Promise<CallLeg | null> {
    const [row] = await db().select().from(calls).where(eq(calls.sid, sid)).limit(1);
    if (!row) return null;
    // A step whose process stopped mid-webhook leaves its leg busy: after a while it may be hung up.
    const stale = options.orStaleBusy === true && row.status === "busy" && Date.now() - row.updatedAt.getTime() > STALE_BUSY_MS;
    if (!stale && !statuses.includes(row.status as CallStatus)) return null;
    const taken = await db()
      .update(calls)
      .set({ status: "busy", version: sql`${calls.version} + 1`, updatedAt: new Date() })
      .where(and(eq(calls.sid, sid), eq(calls.version, row.version)))
      .returning({ sid: calls.sid });
    // The leg keeps the status it was taken in; the step's save writes the next one.
    return taken.length ? toLeg(row) : null;
  }

  async function save(leg: CallLeg): Promise<void> {
    await db()
      .update(calls)
      .set({ status: leg.status, transcript: leg.transcript, waiting: leg.waiting, endStatus: leg.endStatus, connectedAt: leg.connectedAt, endedAt: leg.endedAt, updatedAt: new Date() })
      .where(eq(calls.sid, leg.sid));
  }

  function end(leg: CallLeg, status: string, event?: string) {
    if (event) leg.transcript.push({ kind: "event", text: event });
    leg.status = "ended";
    leg.endStatus = status;
    leg.waiting = null;
    leg.endedAt = new Date();
  }

  /** The parameters Twilio posts with every voice webhook of this leg. */
  function voiceParams(leg: CallLeg, callStatus: string): WebhookParams {
    const params: WebhookParams = {
      AccountSid: ACCOUNT_SID,
      ApiVersion: "2010-04-01",
      CallSid: leg.sid,
      CallStatus: callStatus,
      Called: leg.to,
      Caller: leg.from,
      Direction: leg.parentSid ? "outbound-dial" : "inbound",
      From: leg.from,
      To: leg.to,
    };
    if (leg.parentSid) params.ParentCallSid = leg.parentSid;
    const fromCountry = countryOf(leg.from);
    const toCountry = countryOf(leg.to);
    if (fromCountry) params.FromCountry = fromCountry;
    if (toCountry) params.ToCountry = toCountry;
    return params;
  }

  /** Fetches a document for `leg` and runs it; a failed webhook is Twilio's application error. */
  async function fetchAndRun(leg: CallLeg, url: string, method: "GET" | "POST", params: WebhookParams): Promise<void> {
    let verbs: Verb[];
    try {
      verbs = await request(url, method, params);
    } catch (error) {
      await applicationError(leg, error);
      return;
    }
    await runSafely(leg, verbs, url);
  }

  /** run(), where a step that cannot be taken (TwiML pointing outside the app) is an application error too. */
  async function runSafely(leg: CallLeg, verbs: Verb[], documentUrl: string): Promise<void> {
    try {
      await run(leg, verbs, documentUrl);
    } catch (error) {
      if (leg.status === "ended") throw error;
      await applicationError(leg, error);
    }
  }

  /** A webhook that failed or answered no TwiML: Twilio apologises and hangs up. */
  async function applicationError(leg: CallLeg, error: unknown): Promise<void> {
    leg.transcript.push({ kind: "say", text: APPLICATION_ERROR, language: "en-US" });
    end(leg, "failed", `(${error instanceof Error ? error.message : String(error)})`);
    await save(leg);
    if (leg.parentSid) await dialEnded(leg.parentSid, "failed");
  }

  /**
   * Runs TwiML verbs on a leg until one waits (Gather, Dial) or ends the call, then saves the leg. The
   * end of the document hangs the finder's call up; on an owner's leg it ends the whisper and bridges.
   */
  async function run(leg: CallLeg, verbs: Verb[], documentUrl: string): Promise<void> {
    for (let index = 0; index < verbs.length; index++) {
      const verb = verbs[index]!;
      const rest = verbs.slice(index + 1);
      switch (verb.verb) {
        case "Say":
          leg.transcript.push({ kind: "say", text: verb.text, ...(verb.language ? { language: verb.language } : {}) });
          break;
        case "Play":
          leg.transcript.push({ kind: "event", text: "(plays a recording)" });
          break;
        case "Pause":
          break;
        case "Message": {
          const to = verb.to ?? leg.from;
          await provider.record({ sid: testSid("SM"), kind: "sms", from: leg.to, to, body: verb.body });
          leg.transcript.push({ kind: "event", text: `(a text was sent to ${to})` });
          break;
        }
        case "Gather":
          for (const prompt of verb.prompts) if (prompt.verb === "Say") leg.transcript.push({ kind: "say", text: prompt.text, ...(prompt.language ? { language: prompt.language } : {}) });
          leg.status = leg.parentSid ? "whisper" : "gathering";
          leg.waiting = { kind: "gather", url: resolveUrl(verb.action ?? documentUrl, documentUrl), method: verb.method as "GET" | "POST", numDigits: verb.numDigits, finishOnKey: verb.finishOnKey, rest, documentUrl };
          await save(leg);
          return;
        case "Dial": {
          const number = verb.numbers[0];
          if (leg.parentSid || !number) {
            leg.transcript.push({ kind: "event", text: "(a <Dial> with nothing to ring is skipped)" });
            break;
          }
          const child = testSid("CA");
          const callerId = verb.callerId ?? leg.from;
          await insertLeg({
            sid: child,
            parentSid: leg.sid,
            from: callerId,
            to: number.number,
            status: "ringing",
            waiting: { kind: "ring", ...(number.url ? { url: resolveUrl(number.url, documentUrl) } : {}), method: number.method as "GET" | "POST" },
          });
          await provider.record({ sid: child, kind: "call", from: callerId, to: number.number, body: null });
          leg.transcript.push({ kind: "event", text: `(ringing ${number.number})` });
          leg.status = "dialing";
          leg.waiting = { kind: "dial", ...(verb.action ? { action: resolveUrl(verb.action, documentUrl) } : {}), method: verb.method as "GET" | "POST", childSid: child, rest, documentUrl };
          await save(leg);
          return;
        }
        case "Redirect":
          await save(leg);
          await fetchAndRun(leg, resolveUrl(verb.url || documentUrl, documentUrl), verb.method as "GET" | "POST", voiceParams(leg, "in-progress"));
          return;
        case "Hangup":
          end(leg, "completed", "(hung up)");
          await save(leg);
          if (leg.parentSid) await dialEnded(leg.parentSid, "no-answer");
          return;
        case "Reject":
          end(leg, verb.reason === "busy" ? "busy" : "no-answer", "(rejected)");
          await save(leg);
          return;
        case "unknown":
          leg.transcript.push({ kind: "event", text: `(ignored <${verb.name}>)` });
          break;
      }
    }
    if (leg.parentSid) {
      await bridge(leg);
      return;
    }
    end(leg, "completed", "(the call ended)");
    await save(leg);
  }

  /** The whisper finished without hanging up: both legs are connected. */
  async function bridge(child: CallLeg): Promise<void> {
    const parent = await claim(child.parentSid!, ["dialing"]);
    if (!parent) {
      end(child, "canceled", "(the caller had hung up)");
      await save(child);
      return;
    }
    const now = new Date();
    for (const leg of [parent, child]) {
      leg.status = "connected";
      leg.connectedAt = now;
      leg.transcript.push({ kind: "event", text: "(connected)" });
    }
    child.waiting = null;
    await save(child);
    await save(parent);
  }

  /**
   * The parent's <Dial> is over (`status`): its action hears it and its answer continues the call, or,
   * without an action, the verbs after <Dial> do. When the caller already hung up, the answer is ignored.
   */
  async function dialEnded(parentSid: string, status: DialCallStatus, options: { callerGone?: CallLeg } = {}): Promise<void> {
    const parent = options.callerGone ?? (await claim(parentSid, ["dialing", "connected"]));
    if (!parent || parent.waiting?.kind !== "dial") {
      if (parent) await save(parent);
      return;
    }
    const waiting = parent.waiting;
    const duration = status === "completed" && parent.connectedAt ? Math.max(0, Math.round((Date.now() - parent.connectedAt.getTime()) / 1000)) : undefined;
    parent.transcript.push({ kind: "event", text: `(the dialled call ended: ${status})` });
    if (options.callerGone) {
      if (waiting.action) {
        const params = { ...voiceParams(parent, "completed"), DialCallSid: waiting.childSid, DialCallStatus: status, ...(duration !== undefined ? { DialCallDuration: String(duration) } : {}) };
        await request(waiting.action, waiting.method, params).catch(() => undefined);
      }
      return;
    }
    parent.status = "busy";
    parent.waiting = null;
    if (!waiting.action) {
      await runSafely(parent, waiting.rest, waiting.documentUrl);
      return;
    }
    const params = { ...voiceParams(parent, "in-progress"), DialCallSid: waiting.childSid, DialCallStatus: status, ...(duration !== undefined ? { DialCallDuration: String(duration) } : {}) };
    await fetchAndRun(parent, waiting.action, waiting.method, params);
  }

  async function leg(sid: string): Promise<CallLeg | null> {
    const [row] = await db().select().from(calls).where(eq(calls.sid, sid)).limit(1);
    return row ? toLeg(row) : null;
  }

  return {
    relayNumber: provider.relayNumber,

    /** A phone dials `to` (the relay number): answers the CallSid once the app's first answer has run. */
    async dial(from: string, to: string = provider.relayNumber): Promise<string> {
      const sid = testSid("CA");
      await insertLeg({ sid, from, to, status: "busy" });
      const call = (await leg(sid))!;
      await fetchAndRun(call, `${appUrl()}${VOICE_WEBHOOK_PATH}`, "POST", voiceParams(call, "ringing"));
      return sid;
    },

    /** Keys typed on a leg waiting in a <Gather> (the caller's, or the owner's during the whisper). */
    async pressDigits(sid: string, keys: string): Promise<void> {
      const call = await claim(sid, ["gathering", "whisper"]);
      if (!call || call.waiting?.kind !== "gather") {
        if (call) await save(call);
        throw new TestNetworkError("this call is not waiting for keys");
      }
      const gather = call.waiting;
      const digits = gatheredDigits(keys, gather);
      call.transcript.push({ kind: "event", text: `(pressed ${digits || "nothing"})` });
      call.waiting = null;
      await fetchAndRun(call, gather.url, gather.method, { ...voiceParams(call, "in-progress"), Digits: digits, FinishedOnKey: keys.includes(gather.finishOnKey) ? gather.finishOnKey : "" });
    },

    /** Nothing typed until the <Gather> times out: Twilio goes on with the verbs after it. */
    async stayQuiet(sid: string): Promise<void> {
      const call = await claim(sid, ["gathering", "whisper"]);
      if (!call || call.waiting?.kind !== "gather") {
        if (call) await save(call);
        throw new TestNetworkError("this call is not waiting for keys");
      }
      const gather = call.waiting;
      call.transcript.push({ kind: "event", text: "(no keys: the prompt timed out)" });
      call.waiting = null;
      await runSafely(call, gather.rest, gather.documentUrl);
    },

    /** The owner answers their ringing phone: the whisper runs on their leg (no whisper: connected at once). */
    async answer(childSid: string): Promise<void> {
      const child = await claim(childSid, ["ringing"]);
      if (!child || child.waiting?.kind !== "ring") {
        if (child) await save(child);
        throw new TestNetworkError("this phone is not ringing");
      }
      const ring = child.waiting;
      child.transcript.push({ kind: "event", text: "(answered)" });
      child.waiting = null;
      if (!ring.url) {
        await runSafely(child, [], "");
        return;
      }
      await fetchAndRun(child, ring.url, ring.method, voiceParams(child, "in-progress"));
    },

    /** The owner declines (busy) or lets it ring out (no-answer): the caller's <Dial> ends so. */
    async decline(childSid: string, outcome: "busy" | "no-answer" = "busy"): Promise<void> {
      const child = await claim(childSid, ["ringing"]);
      if (!child) throw new TestNetworkError("this phone is not ringing");
      end(child, outcome, outcome === "busy" ? "(declined)" : "(not answered)");
      await save(child);
      await dialEnded(child.parentSid!, outcome);
    },

    /**
     * Either side hangs up. The caller's leg ends, and a <Dial> in progress hears it (completed with its
     * duration when connected, canceled before); the owner hanging up ends their leg and the caller's
     * <Dial> (completed when connected, no-answer during the whisper), whose answer the caller then hears.
     */
    async hangUp(sid: string): Promise<void> {
      const call = await claim(sid, ["gathering", "dialing", "connected", "whisper", "ringing"], { orStaleBusy: true });
      if (!call) throw new TestNetworkError("this call has ended");
      if (call.parentSid) {
        const wasConnected = call.connectedAt !== null;
        end(call, wasConnected ? "completed" : "canceled", "(hung up)");
        await save(call);
        await dialEnded(call.parentSid, wasConnected ? "completed" : "no-answer");
        return;
      }
      const waiting = call.waiting;
      end(call, "completed", "(hung up)");
      await save(call);
      if (waiting?.kind === "dial") {
        const child = await claim(waiting.childSid, ["ringing", "whisper", "connected"]);
        if (child) {
          end(child, child.connectedAt ? "completed" : "canceled", "(the caller hung up)");
          await save(child);
        }
        await dialEnded(call.sid, call.connectedAt ? "completed" : "canceled", { callerGone: { ...call, waiting } });
      }
    },

    /** A phone texts `to` (the relay number): the app's <Message> answers come back to it as texts. */
    async sendText(from: string, body: string, to: string = provider.relayNumber): Promise<TextResult> {
      const sid = testSid("SM");
      await provider.record({ sid, kind: "sms", from, to, body });
      const params: WebhookParams = {
        AccountSid: ACCOUNT_SID,
        ApiVersion: "2010-04-01",
        Body: body,
        From: from,
        MessageSid: sid,
        NumMedia: "0",
        NumSegments: "1",
        SmsMessageSid: sid,
        SmsSid: sid,
        SmsStatus: "received",
        To: to,
      };
      const fromCountry = countryOf(from);
      const toCountry = countryOf(to);
      if (fromCountry) params.FromCountry = fromCountry;
      if (toCountry) params.ToCountry = toCountry;
      let verbs: Verb[];
      try {
        verbs = await request(`${appUrl()}${SMS_WEBHOOK_PATH}`, "POST", params);
      } catch (error) {
        return { sid, replies: [], error: error instanceof Error ? error.message : String(error) };
      }
      const replies: string[] = [];
      for (const verb of verbs) {
        if (verb.verb !== "Message") continue;
        await provider.record({ sid: testSid("SM"), kind: "sms", from: to, to: verb.to ?? from, body: verb.body });
        replies.push(verb.body);
      }
      return { sid, replies };
    },

    /** One leg by its sid. */
    leg,

    /** A phone's calls, newest first: those it made and those that rang it. */
    async callsOf(number: string, limit = 5): Promise<CallLeg[]> {
      const rows = await db()
        .select()
        .from(calls)
        .where(or(and(eq(calls.from, number), sql`${calls.parentSid} is null`), and(eq(calls.to, number), sql`${calls.parentSid} is not null`)))
        .orderBy(desc(calls.createdAt), desc(calls.sid))
        .limit(limit);
      return rows.map(toLeg);
    },
  };
}

export type TestNetwork = ReturnType<typeof createTestNetwork>;

/** The network the development phone plays: the test provider's relay number and secret, webhooks over HTTP to APP_URL. */
export function testNetwork(): TestNetwork {
  return createTestNetwork();
}
