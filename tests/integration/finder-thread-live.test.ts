import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET as streamRoute } from "@/app/api/v1/scan/thread/[token]/stream/route";
import { PUT as emailRoute } from "@/app/api/v1/scan/thread/[token]/email/route";
import { listMailbox } from "@/lib/email/mailbox";
import { prepareJobs, runPendingJobs, stopJobs } from "@/lib/jobs";
import { setPingInterval, stopNotificationHub } from "@/lib/realtime";
import { MINUTE_MS } from "@/lib/ratelimit/policies";
import { POST as ownerReplyRoute } from "@/app/api/v1/messages/[threadId]/reply/route";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, awayFromWindowEdge, call, json, nextTestIp } from "../support/http";
import { giveTestTag } from "../support/tags";
import { contactOwnerOf, finderReplyRequest, finderThread, inbox, ownerReply, ownerThread, statusRequest, threadRowByToken, type ErrorBody } from "../support/messages";

beforeAll(async () => {
  await prepareJobs();
});

afterAll(async () => {
  await stopJobs();
  await stopNotificationHub();
});

/** Reads SSE frames (up to a blank line each) off a stream body. */
class Frames {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffer = "";
  private pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  done = false;

  constructor(response: Response) {
    this.reader = response.body!.getReader();
  }

  /** The next frame's text, or null once the stream ended; skips `retry:` and (unless asked) pings. */
  async next({ timeoutMs = 1500, pings = false } = {}): Promise<string | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = this.buffer.indexOf("\n\n");
      if (end >= 0) {
        const frame = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        if (frame.startsWith("retry:") || (frame === ": ping" && !pings)) continue;
        return frame;
      }
      if (this.done) return null;
      this.pending ??= this.reader.read();
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error("no frame in time");
      let timer: ReturnType<typeof setTimeout> | undefined;
      const result = await Promise.race([this.pending, new Promise<"timeout">((resolve) => (timer = setTimeout(resolve, remaining, "timeout")))]);
      clearTimeout(timer);
      if (result === "timeout") throw new Error("no frame in time");
      this.pending = undefined;
      if (result.done) this.done = true;
      else this.buffer += this.decoder.decode(result.value, { stream: true });
    }
  }

  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => {});
  }
}

const open: Frames[] = [];

afterEach(async () => {
  setPingInterval();
  for (const frames of open.splice(0)) await frames.cancel();
});

function streamRequest(token: string, ip = nextTestIp()): Promise<Response> {
  return call(streamRoute, apiRequest(`/api/v1/scan/thread/${encodeURIComponent(token)}/stream`, { ip }), { token });
}

async function openStream(token: string): Promise<{ response: Response; frames: Frames }> {
  const response = await streamRequest(token);
  expect(response.status).toBe(200);
  const frames = new Frames(response);
  open.push(frames);
  return { response, frames };
}

function emailRequest(token: string, body: unknown, ip = nextTestIp()): Promise<Response> {
  return call(emailRoute, apiRequest(`/api/v1/scan/thread/${encodeURIComponent(token)}/email`, { method: "PUT", body, ip }), { token });
}

async function conversation(): Promise<{ owner: TestAccount; token: string; threadId: string }> {
  const owner = await registerAccount();
  const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Blue backpack" });
  const { threadToken } = await contactOwnerOf(tag.encryptedId, { message: "Found your bag at the station" });
  const row = await threadRowByToken(threadToken);
  return { owner, token: threadToken, threadId: row!.id };
}

const UNKNOWN_TOKEN = randomBytes(32).toString("base64url");

describe("GET /api/v1/scan/thread/{token}/stream", () => {
  it("sends `event: thread` within a second of the owner's reply, to that conversation's streams only", async () => {
    const a = await conversation();
    const b = await conversation();
    const streamA = await openStream(a.token);
    const streamB = await openStream(b.token);
    expect(streamA.response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(streamA.response.headers.get("cache-control")).toBe("no-cache, no-transform");

    const started = Date.now();
    await ownerReply(a.owner, a.threadId, "Thank you! I can pick it up tonight.");
    expect(await streamA.frames.next({ timeoutMs: 1000 })).toBe(`event: thread\ndata: ${JSON.stringify({ change: "message" })}`);
    expect(Date.now() - started).toBeLessThan(1000);
    // The frame carries nothing of the message: the page reads the thread with its token.
    expect((await finderThread(a.token)).messages.at(-1)!.content).toBe("Thank you! I can pick it up tonight.");

    // B's next frame is its own conversation's: A's reply never reached it.
    await ownerReply(b.owner, b.threadId, "Hello from B");
    expect(await streamB.frames.next()).toContain('"change":"message"');
  });

  it("also tells the finder's other tabs of the finder's own reply", async () => {
    const { token } = await conversation();
    const { frames } = await openStream(token);
    expect((await finderReplyRequest(token, { message: "It is at the desk now" })).status).toBe(201);
    expect(await frames.next()).toContain('"change":"message"');
  });

  it("answers 404 for an unknown or malformed token", async () => {
    for (const token of [UNKNOWN_TOKEN, "short"]) {
      const response = await streamRequest(token);
      expect(response.status).toBe(404);
      expect((await json<ErrorBody>(response)).error.code).toBe("NOT_FOUND");
    }
  });

  it("ends with `event: closed` when the owner closes or blocks the conversation, and refuses a closed one (403)", async () => {
    for (const status of ["CLOSED", "BLOCKED"] as const) {
      const { owner, token, threadId } = await conversation();
      const { frames } = await openStream(token);
      expect((await statusRequest(owner, threadId, status)).status).toBe(200);
      expect(await frames.next()).toBe(`event: closed\ndata: ${JSON.stringify({ status })}`);
      expect(await frames.next()).toBeNull();

      const refused = await streamRequest(token);
      expect(refused.status).toBe(403);
      expect((await json<ErrorBody>(refused)).error.code).toBe("FORBIDDEN");
    }
  });

  it("sends a ping at the (injected) interval", async () => {
    setPingInterval(50);
    const { token } = await conversation();
    const { frames } = await openStream(token);
    expect(await frames.next({ pings: true })).toBe(": ping");
  });

  it("opens 60 streams per 10 minutes from one IP: the 61st is 429", async () => {
    await awayFromWindowEdge(10 * MINUTE_MS, 60_000);
    const { token } = await conversation();
    const ip = nextTestIp();
    for (let i = 1; i <= 60; i++) {
      const response = await streamRequest(token, ip);
      expect(response.status).toBe(200);
      await response.body!.cancel();
    }
    const limited = await streamRequest(token, ip);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
  });
});

describe("PUT /api/v1/scan/thread/{token}/email", () => {
  const address = () => `finder-${randomBytes(4).toString("hex")}@example.net`;

  async function sendEmails() {
    const report = await runPendingJobs({ name: "email.send" });
    expect(report.failed).toBe(0);
  }

  it("e-mails the finder on the owner's next reply (one per 10 minutes), never showing the owner the address", async () => {
    const { owner, token, threadId } = await conversation();
    const finderEmail = address();
    expect((await finderThread(token)).emailOnReply).toBe(false);
    expect((await ownerThread(owner, threadId)).notifiesFinder).toBe(false);

    const response = await emailRequest(token, { finderEmail: `  ${finderEmail} ` });
    expect(response.status).toBe(200);
    expect((await json<{ data: { emailOnReply: boolean } }>(response)).data.emailOnReply).toBe(true);
    expect((await finderThread(token)).emailOnReply).toBe(true);
    // Nothing is sent until the owner replies.
    await sendEmails();
    expect(await listMailbox({ to: finderEmail })).toHaveLength(0);

    const ownerView = await ownerThread(owner, threadId);
    expect(ownerView.notifiesFinder).toBe(true);
    expect(JSON.stringify(ownerView)).not.toContain(finderEmail);

    await ownerReply(owner, threadId, "Thanks, I will come by.");
    await ownerReply(owner, threadId, "Actually, in an hour.");
    await sendEmails();
    const mails = await listMailbox({ to: finderEmail });
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`thread?token=${token}`);
  });

  it("validates the address, refuses a closed conversation (403) and an unknown token (404)", async () => {
    const { owner, token, threadId } = await conversation();
    const invalid = await emailRequest(token, { finderEmail: "not-an-address" });
    expect(invalid.status).toBe(400);
    expect((await json<ErrorBody>(invalid)).error.code).toBe("VALIDATION_ERROR");
    expect((await emailRequest(token, { finderEmail: `${"a".repeat(250)}@example.net` })).status).toBe(400);
    expect((await emailRequest(UNKNOWN_TOKEN, { finderEmail: address() })).status).toBe(404);
    expect((await statusRequest(owner, threadId, "CLOSED")).status).toBe(200);
    const closed = await emailRequest(token, { finderEmail: address() });
    expect(closed.status).toBe(403);
    expect((await threadRowByToken(token))!.finderEmail).toBeNull();
  });

  it("takes 10 opt-ins an hour from one IP: the 11th is 429", async () => {
    await awayFromWindowEdge(60 * MINUTE_MS, 60_000);
    const { token } = await conversation();
    const ip = nextTestIp();
    for (let i = 1; i <= 10; i++) expect((await emailRequest(token, { finderEmail: address() }, ip)).status).toBe(200);
    expect((await emailRequest(token, { finderEmail: address() }, ip)).status).toBe(429);
  });
});

describe("the owner's side of a conversation that tripped the scam rules", () => {
  async function flaggedConversation() {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Wallet" });
    const { threadToken } = await contactOwnerOf(tag.encryptedId, { message: "I have your wallet. Pay the delivery fee first with a gift card and I send it." });
    const clean = await contactOwnerOf(tag.encryptedId, { message: "Found your wallet on the bus, it is at the driver's desk." });
    const [flaggedRow, cleanRow] = await Promise.all([threadRowByToken(threadToken), threadRowByToken(clean.threadToken)]);
    return { owner, flaggedId: flaggedRow!.id, cleanId: cleanRow!.id };
  }

  function replyRequest(owner: TestAccount, threadId: string, body: unknown): Promise<Response> {
    return call(ownerReplyRoute, apiRequest(`/api/v1/messages/${threadId}/reply`, { method: "POST", body, headers: bearer(owner.accessToken) }), { threadId });
  }

  it("marks the flagged conversation in the inbox list before it is opened", async () => {
    const { owner, flaggedId, cleanId } = await flaggedConversation();
    const { data } = await inbox(owner);
    expect(data.find((item) => item.id === flaggedId)!.scamFlagged).toBe(true);
    expect(data.find((item) => item.id === cleanId)!.scamFlagged).toBe(false);
  });

  it("asks before a reply with a phone number or address goes to a flagged conversation (409 CONFIRM_CONTACT_DETAILS), and sends it once confirmed", async () => {
    const { owner, flaggedId, cleanId } = await flaggedConversation();
    for (const content of ["Call me on +44 7700 900123", "Bring it to 12 Baker Street please", "Write to me at ada@example.org"]) {
      const refused = await replyRequest(owner, flaggedId, { content });
      expect(refused.status).toBe(409);
      const body = await json<ErrorBody>(refused);
      expect(body.error.code).toBe("CONFLICT");
      expect(body.error.details).toEqual({ reason: "CONFIRM_CONTACT_DETAILS" });
    }
    expect((await ownerThread(owner, flaggedId)).messages).toHaveLength(1);
    // Without contact details, or confirmed, the reply goes.
    expect((await replyRequest(owner, flaggedId, { content: "Please hand it to the police." })).status).toBe(201);
    expect((await replyRequest(owner, flaggedId, { content: "Call me on +44 7700 900123", confirmContactDetails: true })).status).toBe(201);
    // A conversation that tripped nothing is never asked.
    expect((await replyRequest(owner, cleanId, { content: "Call me on +44 7700 900123" })).status).toBe(201);
  });
});
