import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { form, mockNextRequestScope } from "../support/next-request-scope";

// The conversation page's reply action runs inside Next's request scope, which a test does not have: the
// headers, the owner's session cookie and the cache calls are given here (tests/support/next-request-scope.ts).
// The routes, the webhooks, the services, the jobs and the database are the real ones.
const request = mockNextRequestScope("192.0.2.127");
const { eq, sql } = await import("drizzle-orm");
const { getDatabase, schema } = await import("@/db/client");
const { GET: listRoute } = await import("@/app/api/v1/messages/route");
const { GET: getThreadRoute } = await import("@/app/api/v1/messages/[threadId]/route");
const { POST: replyRoute } = await import("@/app/api/v1/messages/[threadId]/reply/route");
const { GET: finderThreadRoute } = await import("@/app/api/v1/scan/thread/[token]/route");
const { replyAction } = await import("@/app/(dashboard)/dashboard/messages/[threadId]/actions");
const { replyPanelDescription, threadTitle } = await import("@/components/messages/labels");
const { JOBS_SCHEMA, prepareJobs, runPendingJobs, stopJobs } = await import("@/lib/jobs");
const { textWebReplyToFinder } = await import("@/lib/services/relay");
const { setTelephonyProviderForTests, telephonyProvider } = await import("@/lib/telephony/provider");
const { bearer } = await import("../support/auth");
const { apiRequest, call, json, nextTestIp } = await import("../support/http");
const { contactOwnerOf } = await import("../support/messages");
const { deliveriesTo, freshNumber, postWebhook, RELAY_NUMBER, relayOwner, sid, threadsOfNumber, twiml } = await import("../support/relay");
const { find } = await import("../support/twiml");

type Owner = Awaited<ReturnType<typeof relayOwner>>;
type Reply = { id: string; sender: string; channel: string; content: string; textedToFinder: boolean | null };
type OwnerView = { threadId: string; finderName: string | null; notifiesFinder: boolean; relayPhone: { lastDigits: string; code: string | null; canTextBack: boolean } | null; messages: { sender: string; content: string }[] };

beforeAll(async () => {
  await prepareJobs();
});
afterAll(async () => {
  request.cookie = "";
  await stopJobs();
});

const db = () => getDatabase().db;
const SMS = "/api/v1/webhooks/telephony/sms";
const VOICE = "/api/v1/webhooks/telephony/voice";
const STATUS = "/api/v1/webhooks/telephony/voice/status";

async function text(from: string, body: string): Promise<string | null> {
  const root = twiml(await postWebhook(SMS, { MessageSid: sid("SM"), AccountSid: "AC" + "0".repeat(32), From: from, To: RELAY_NUMBER, Body: body, NumMedia: "0" }));
  return find(root, "Message")?.text ?? null;
}

/** A call through the relay with the right PIN, missed: the conversation it opens has only a call in it. */
async function callRelay(from: string, owner: Owner): Promise<void> {
  const callSid = sid("CA");
  const base = { CallSid: callSid, AccountSid: "AC" + "0".repeat(32), From: from, To: RELAY_NUMBER, CallStatus: "in-progress", Direction: "inbound" };
  twiml(await postWebhook(VOICE, base));
  twiml(await postWebhook(VOICE, { ...base, Digits: owner.pin }));
  twiml(await postWebhook(STATUS, { ...base, DialCallStatus: "no-answer" }));
}

async function reply(owner: Owner, threadId: string, content: string): Promise<Reply> {
  const response = await call(replyRoute, apiRequest(`/api/v1/messages/${threadId}/reply`, { method: "POST", headers: bearer(owner.account.accessToken), body: { content }, ip: nextTestIp() }), { threadId });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await json<{ data: Reply }>(response)).data;
}

async function ownerView(owner: Owner, threadId: string): Promise<OwnerView> {
  const response = await call(getThreadRoute, apiRequest(`/api/v1/messages/${threadId}`, { headers: bearer(owner.account.accessToken) }), { threadId });
  expect(response.status).toBe(200);
  return (await json<{ data: OwnerView }>(response)).data;
}

async function textsTo(finder: string, body: string) {
  return (await deliveriesTo(finder)).filter((delivery) => delivery.body === body);
}

async function jobsFor(messageId: string): Promise<number> {
  const rows: unknown = await db().execute(sql`select id from ${sql.raw(JOBS_SCHEMA)}.job where name = 'relay.text-owner-reply' and data->>'messageId' = ${messageId}`);
  return ((rows as { rows?: unknown[] }).rows ?? (rows as unknown[])).length;
}

const runReplyJobs = () => runPendingJobs({ name: "relay.text-owner-reply", ignoreStartAfter: true });

async function asOwner<T>(owner: Owner, run: () => Promise<T>): Promise<T> {
  request.ip = nextTestIp();
  request.cookie = owner.account.cookie;
  try {
    return await run();
  } finally {
    request.cookie = "";
  }
}

/** A finder who texted the owner's relay: the conversation it opened. */
async function textingFinder(itemName = "Rex") {
  const owner = await relayOwner({ itemName });
  const finder = freshNumber();
  await text(finder, `${owner.pin} I found your dog near the park`);
  const [thread] = await threadsOfNumber(owner.account.id);
  return { owner, finder, threadId: thread!.id };
}

describe("the owner's reply on the web to a finder who texted the relay", () => {
  it("is texted to the finder from the relay number as the owner's own text would be, once, after the reply commits", async () => {
    const { owner, finder, threadId } = await textingFinder("Rex");
    const digits = finder.slice(-2);

    const view = await ownerView(owner, threadId);
    expect(view.relayPhone).toMatchObject({ lastDigits: digits, canTextBack: true });
    expect(replyPanelDescription(view)).toMatch(new RegExp(`^Your reply is texted to the finder \\(phone ending ${digits}\\)`));

    const sent = await reply(owner, threadId, "Thank you! Where can I pick him up?");
    expect(sent).toMatchObject({ sender: "OWNER", channel: "web", content: "Thank you! Where can I pick him up?", textedToFinder: true });
    const body = "Owner of Rex: Thank you! Where can I pick him up?";
    // Nothing is texted inside the reply's transaction: the job does it once the reply is committed.
    expect(await textsTo(finder, body)).toHaveLength(0);
    expect(await jobsFor(sent.id)).toBe(1);
    await runReplyJobs();
    const texted = await textsTo(finder, body);
    expect(texted).toHaveLength(1);
    expect(texted[0]).toMatchObject({ kind: "sms", from: RELAY_NUMBER, to: finder });

    // The same text the owner's SMS answer gets (one code path): compare with an answer texted to the relay.
    expect(await text(owner.number, "See you at 5")).toBeNull();
    expect(await textsTo(finder, "Owner of Rex: See you at 5")).toHaveLength(1);

    // A retried or duplicated run of the same reply's job texts nothing more.
    const ctx = { actor: { kind: "system" as const }, db: db() };
    expect(await textWebReplyToFinder(ctx, sent.id)).toBe("done");
    expect(await textsTo(finder, body)).toHaveLength(1);

    // The owner never sees the finder's number; the finder's own page shows the reply too.
    expect(JSON.stringify(await ownerView(owner, threadId))).not.toContain(finder.slice(1, -2));
  });

  it("a send that fails is retried and charged to the day's cap once, not once per attempt", async () => {
    const { owner, finder, threadId } = await textingFinder("Rex");
    const sent = await reply(owner, threadId, "On my way");
    const body = "Owner of Rex: On my way";
    const ctx = { actor: { kind: "system" as const }, db: db() };
    const day = new Date().toISOString().slice(0, 10);
    const usage = async () => (await db().select({ count: schema.relayDailyUsage.count }).from(schema.relayDailyUsage).where(eq(schema.relayDailyUsage.day, day)))[0]?.count ?? 0;
    const before = await usage();

    setTelephonyProviderForTests({ ...telephonyProvider(), sendSms: () => Promise.reject(new Error("provider down")) });
    try {
      await expect(textWebReplyToFinder(ctx, sent.id)).rejects.toThrow("provider down");
      await expect(textWebReplyToFinder(ctx, sent.id)).rejects.toThrow("provider down");
    } finally {
      setTelephonyProviderForTests();
    }
    expect(await usage()).toBe(before);
    expect(await textsTo(finder, body)).toHaveLength(0);

    expect(await textWebReplyToFinder(ctx, sent.id)).toBe("texted");
    expect(await textsTo(finder, body)).toHaveLength(1);
    expect(await usage()).toBe(before + 1);
  });

  it("a finder's text the provider refuses is answered as usual and sent by a retry job, the number sealed in the job", async () => {
    const owner = await relayOwner({ itemName: "Rex" });
    const finder = freshNumber();
    setTelephonyProviderForTests({ ...telephonyProvider(), sendSms: () => Promise.reject(new Error("provider down")) });
    let confirmation: string | null;
    try {
      confirmation = await text(finder, `${owner.pin} Found him by the lake`);
    } finally {
      setTelephonyProviderForTests();
    }
    expect(confirmation).toMatch(/^Sent to the owner of Rex\./);
    const [thread] = await threadsOfNumber(owner.account.id);
    const body = `Rex (${thread!.relayCode}): Found him by the lake`;
    expect(await textsTo(owner.number, body)).toHaveLength(0);

    const rows: unknown = await db().execute(sql`select data from ${sql.raw(JOBS_SCHEMA)}.job where name = 'relay.send-text' and data->>'body' = ${body}`);
    const jobs = ((rows as { rows?: { data: unknown }[] }).rows ?? (rows as { data: unknown }[])).map((row) => JSON.stringify(row.data));
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).not.toContain(owner.number.slice(1));

    await runPendingJobs({ name: "relay.send-text", ignoreStartAfter: true });
    expect(await textsTo(owner.number, body)).toHaveLength(1);
  });

  it("ten identical replies at once are ten messages, each texted exactly once, even when every job runs twice at once", async () => {
    const { owner, finder, threadId } = await textingFinder("Keys");
    const replies = await Promise.all(Array.from({ length: 10 }, () => reply(owner, threadId, "Same answer")));
    expect(new Set(replies.map((one) => one.id)).size).toBe(10);
    expect(replies.every((one) => one.textedToFinder === true)).toBe(true);
    const ctx = { actor: { kind: "system" as const }, db: db() };
    const runs = await Promise.all(replies.flatMap((one) => [textWebReplyToFinder(ctx, one.id), textWebReplyToFinder(ctx, one.id)]));
    expect(runs.filter((run) => run === "texted")).toHaveLength(10);
    expect(runs.filter((run) => run === "done")).toHaveLength(10);
    // The queued jobs then find every reply claimed.
    await runReplyJobs();
    expect(await textsTo(finder, "Owner of Keys: Same answer")).toHaveLength(10);
    expect((await ownerView(owner, threadId)).messages.filter((message) => message.sender === "OWNER")).toHaveLength(10);
  });

  it("is saved but not texted once the 7-day window is over, and the page and the answer say the finder cannot be reached", async () => {
    const { owner, finder, threadId } = await textingFinder("Bike");
    await db()
      .update(schema.threads)
      .set({ finderPhoneUntil: new Date(Date.now() - 1000) })
      .where(eq(schema.threads.id, threadId));

    const view = await ownerView(owner, threadId);
    expect(view.relayPhone?.canTextBack).toBe(false);
    expect(replyPanelDescription(view)).toMatch(/^This finder can no longer be reached by text/);

    const sent = await reply(owner, threadId, "Are you still there?");
    expect(sent.textedToFinder).toBe(false);
    expect(await jobsFor(sent.id)).toBe(0);
    expect((await ownerView(owner, threadId)).messages.at(-1)).toMatchObject({ sender: "OWNER", content: "Are you still there?" });

    // Through the conversation page's form too.
    const state = await asOwner(owner, () => replyAction({ status: "idle" }, form({ threadId, content: "Hello again" })));
    expect(state).toMatchObject({ status: "success", message: "Your reply was saved. This finder can no longer be reached by text." });
    // A job that runs anyway (the window closed after it was queued) texts nothing.
    const ctx = { actor: { kind: "system" as const }, db: db() };
    expect(await textWebReplyToFinder(ctx, sent.id)).toBe("unreachable");
    await runReplyJobs();
    expect((await deliveriesTo(finder)).filter((delivery) => delivery.body?.startsWith("Owner of Bike"))).toHaveLength(0);
  });

  it("is saved but not texted to a number that sent STOP, nor to a finder who only called", async () => {
    const { owner, finder, threadId } = await textingFinder("Bag");
    expect(await text(finder, "STOP")).toContain("no more texts");
    expect(replyPanelDescription(await ownerView(owner, threadId))).toMatch(/^This finder can no longer be reached by text/);
    const stopped = await reply(owner, threadId, "Hello?");
    expect(stopped.textedToFinder).toBe(false);
    expect(await jobsFor(stopped.id)).toBe(0);

    const caller = freshNumber();
    await callRelay(caller, owner);
    const called = (await threadsOfNumber(owner.account.id)).find((thread) => thread.id !== threadId)!;
    expect((await ownerView(owner, called.id)).relayPhone).toMatchObject({ lastDigits: caller.slice(-2), canTextBack: false });
    expect((await reply(owner, called.id, "Sorry I missed you")).textedToFinder).toBe(false);
    await runReplyJobs();
    expect((await deliveriesTo(finder)).filter((delivery) => delivery.body?.startsWith("Owner of Bag"))).toHaveLength(0);
    expect((await deliveriesTo(caller)).filter((delivery) => delivery.kind === "sms")).toHaveLength(0);
  });

  it("says it is being texted when sent from the conversation page, and a web finder's conversation is not the relay's", async () => {
    const { owner, finder, threadId } = await textingFinder("Wallet");
    const state = await asOwner(owner, () => replyAction({ status: "idle" }, form({ threadId, content: "From the page" })));
    expect(state).toMatchObject({ status: "success", message: "Your reply was sent and is being texted to the finder." });
    await runReplyJobs();
    expect(await textsTo(finder, "Owner of Wallet: From the page")).toHaveLength(1);

    const [tag] = await db().select({ encryptedId: schema.tags.encryptedId }).from(schema.tags).where(eq(schema.tags.id, owner.tagId));
    const web = await contactOwnerOf(tag!.encryptedId, { message: "Found it on the bus" });
    const webThreadId = (await threadsOfNumber(owner.account.id)).find((thread) => thread.id !== threadId && !thread.finderPhoneHash)!.id;
    expect(web).toBeTruthy();
    const webView = await ownerView(owner, webThreadId);
    expect(webView.relayPhone).toBeNull();
    expect(replyPanelDescription(webView)).toMatch(/^The finder reads your reply/);
    expect((await reply(owner, webThreadId, "Thanks")).textedToFinder).toBeNull();
  });
});

describe("a caller who texts afterwards", () => {
  it("gets the conversation's link with their first text, once", async () => {
    const owner = await relayOwner({ itemName: "Rex" });
    const finder = freshNumber();
    await callRelay(finder, owner);
    const [thread] = await threadsOfNumber(owner.account.id);

    const first = await text(finder, `${owner.pin} I called earlier, I have your dog`);
    expect(first).toMatch(/^Sent to the owner of Rex\. Their answer comes by text from this number\. Follow the conversation: http:\/\/localhost:3000\/thread\/[A-Za-z0-9_-]+$/);
    expect(await threadsOfNumber(owner.account.id)).toHaveLength(1);

    // The link opens the same conversation: the call and the text.
    const token = first!.split("/thread/")[1]!;
    const finderView = await call(finderThreadRoute, apiRequest(`/api/v1/scan/thread/${token}`), { token });
    expect(finderView.status).toBe(200);
    const seen = (await json<{ data: { threadId: string; messages: { channel: string }[] } }>(finderView)).data;
    expect(seen.threadId).toBe(thread!.id);
    expect(seen.messages.map((message) => message.channel)).toEqual(["call", "sms"]);

    // The next text, and a call after it, give no new link.
    expect(await text(finder, `${owner.pin} He is fine`)).toBe("Sent to the owner of Rex. Their answer comes by text from this number.");
    await callRelay(finder, owner);
    expect(await text(finder, `${owner.pin} Still here`)).toBe("Sent to the owner of Rex. Their answer comes by text from this number.");
    const again = await call(finderThreadRoute, apiRequest(`/api/v1/scan/thread/${token}`), { token });
    expect(again.status).toBe(200);
  });
});

describe("one name for a phone finder", () => {
  it("is 'A finder (phone ending NN)' in the list, the conversation and the notifications", async () => {
    const { owner, finder, threadId } = await textingFinder("Rex");
    const label = `A finder (phone ending ${finder.slice(-2)})`;

    const listed = await call(listRoute, apiRequest("/api/v1/messages", { headers: bearer(owner.account.accessToken) }));
    expect(listed.status).toBe(200);
    const item = (await json<{ data: { id: string; finderName: string | null; finderPhoneLastDigits: string | null }[] }>(listed)).data.find((one) => one.id === threadId)!;
    expect(item.finderPhoneLastDigits).toBe(finder.slice(-2));
    expect(threadTitle(item)).toBe(label);

    expect(threadTitle(await ownerView(owner, threadId))).toBe(label);

    const notes = await db().select().from(schema.notifications).where(eq(schema.notifications.userId, owner.account.id));
    expect(notes.find((note) => note.type === "MESSAGE_RECEIVED")!.body).toMatch(new RegExp(`^${label.replace(/[()]/g, "\\$&")}: `));

    // A web finder without a name stays anonymous; a named one keeps their name.
    expect(threadTitle({ finderName: null, finderPhoneLastDigits: null })).toBe("Anonymous finder");
    expect(threadTitle({ finderName: "Sam", finderPhoneLastDigits: "42" })).toBe("Sam");
  });
});
