import { describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { GET as getThreadRoute, PATCH as setThreadStatusRoute } from "@/app/api/v1/messages/[threadId]/route";
import { GET as finderThreadRoute } from "@/app/api/v1/scan/thread/[token]/route";
import { openSealedText } from "@/lib/auth/tokens";
import { eraseExpiredFinderNumbers, FINDER_PHONE_SEAL, hashPhoneNumber, RELAY_DAILY_CAP } from "@/lib/services/relay";
import { resetRateLimiterForTests } from "@/lib/ratelimit";
import { bearer } from "../support/auth";
import { apiRequest, call, json } from "../support/http";
import { deliveriesTo, freshNumber, postWebhook, RELAY_NUMBER, relayOwner, sid, threadsOfNumber, twiml } from "../support/relay";
import { childNames, find } from "../support/twiml";

const SMS = "/api/v1/webhooks/telephony/sms";

function text(from: string, body: string, messageSid = sid("SM")) {
  return postWebhook(SMS, { MessageSid: messageSid, AccountSid: "AC" + "0".repeat(32), From: from, To: RELAY_NUMBER, Body: body, NumMedia: "0" });
}

/** The text of the answer's <Message>, or null for an empty Response. */
async function reply(answer: ReturnType<typeof text>): Promise<string | null> {
  const root = twiml(await answer);
  expect(root.name).toBe("Response");
  return find(root, "Message")?.text ?? null;
}

type OwnerThread = { data: { messages: { sender: string; channel: string; content: string; warnings: string[] }[] } };

async function ownerView(accessToken: string, threadId: string) {
  const response = await call(getThreadRoute, apiRequest(`/api/v1/messages/${threadId}`, { headers: bearer(accessToken) }), { threadId });
  expect(response.status).toBe(200);
  return json<OwnerThread>(response);
}

describe("POST /webhooks/telephony/sms", () => {
  it("refuses a missing or wrong signature with 403 and a body without MessageSid with 400", async () => {
    const params = { MessageSid: sid("SM"), From: freshNumber(), To: RELAY_NUMBER, Body: "123456 hi" };
    expect((await postWebhook(SMS, params, { signature: null })).status).toBe(403);
    expect((await postWebhook(SMS, params, { signature: "bm9wZQ==" })).status).toBe(403);
    expect((await postWebhook(SMS, { From: freshNumber(), Body: "x" })).status).toBe(400);
  });

  it("relays a finder's <PIN> <text> to the owner, confirms, keeps the conversation, and a replay changes nothing", async () => {
    const owner = await relayOwner({ itemName: "Rex" });
    const finder = freshNumber();
    const messageSid = sid("SM");
    const confirmation = await reply(text(finder, `${owner.pin} I found your dog near the park`, messageSid));
    expect(confirmation).toMatch(/^Sent to the owner of Rex\. .*Follow the conversation: http:\/\/localhost:3000\/thread\/[A-Za-z0-9_-]+$/);
    const [thread] = await threadsOfNumber(owner.account.id);
    expect(thread).toMatchObject({ tagId: owner.tagId, finderPhoneHash: hashPhoneNumber(finder), finderPhoneLastDigits: finder.slice(-2) });
    expect(thread!.relayCode).toMatch(/^[A-Z2-9]{4}$/);
    expect(openSealedText(FINDER_PHONE_SEAL, thread!.finderPhoneSealed!)).toBe(finder);
    expect(thread!.finderPhoneUntil!.getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);

    const toOwner = await deliveriesTo(owner.number);
    expect(toOwner[0]).toMatchObject({ kind: "sms", from: RELAY_NUMBER, body: `Rex (${thread!.relayCode}): I found your dog near the park` });

    // A replay: the same answer, no second message, text or notification.
    expect(await reply(text(finder, `${owner.pin} I found your dog near the park`, messageSid))).toBe(confirmation);
    expect(await deliveriesTo(owner.number)).toHaveLength(toOwner.length);

    // The next text continues the conversation, without a new link.
    expect(await reply(text(finder, `${owner.pin} He is safe with me`))).toBe("Sent to the owner of Rex. Their answer comes by text from this number.");
    expect(await threadsOfNumber(owner.account.id)).toHaveLength(1);

    const view = await ownerView(owner.account.accessToken, thread!.id);
    expect((view.data as unknown as { relayPhone: unknown }).relayPhone).toEqual({ lastDigits: finder.slice(-2), code: thread!.relayCode, canTextBack: true });
    expect(view.data.messages.map((m) => [m.sender, m.channel, m.content])).toEqual([
      ["FINDER", "sms", "I found your dog near the park"],
      ["FINDER", "sms", "He is safe with me"],
    ]);
    expect(JSON.stringify(view)).not.toContain(finder.slice(1, -2));
    const notes = await getDatabase().db.select().from(schema.notifications).where(eq(schema.notifications.userId, owner.account.id));
    expect(notes.filter((n) => n.type === "MESSAGE_RECEIVED")).toHaveLength(2);
    // The messages' own notice, worded for a text, naming the finder by the last 2 digits only.
    expect(notes.filter((n) => n.type === "MESSAGE_RECEIVED").map((n) => [n.title, n.body])).toEqual(
      expect.arrayContaining([["New text about “Rex”", `A finder (phone ending ${finder.slice(-2)}): I found your dog near the park`]]),
    );

    // The finder's link shows the same conversation.
    const token = confirmation!.split("/thread/")[1]!;
    const finderView = await call(finderThreadRoute, apiRequest(`/api/v1/scan/thread/${token}`), { token });
    expect(finderView.status).toBe(200);
    expect((await json<OwnerThread>(finderView)).data.messages).toHaveLength(2);
  });

  it("limits texts per number and tag (relayFinderContacts), and answers well within a second", async () => {
    resetRateLimiterForTests({ relayFinderContacts: { limit: 2 } });
    try {
      const owner = await relayOwner();
      const finder = freshNumber();
      for (const body of ["one", "two"]) {
        const started = Date.now();
        expect(await reply(text(finder, `${owner.pin} ${body}`))).toContain("Sent to the owner");
        expect(Date.now() - started).toBeLessThan(1000);
      }
      expect(await reply(text(finder, `${owner.pin} three`))).toContain("Too many texts to this owner");
      // Another number is not held back.
      expect(await reply(text(freshNumber(), `${owner.pin} hello`))).toContain("Sent to the owner");
    } finally {
      resetRateLimiterForTests();
    }
  });

  it("has one effect for ten simultaneous deliveries of one MessageSid, each answered the same", async () => {
    const owner = await relayOwner({ itemName: "Cat" });
    const finder = freshNumber();
    // A first text makes the process create the erasure job's queue (on a pooled connection of its own,
    // once per process), as any earlier text would have in a running server.
    await reply(text(freshNumber(), `${owner.pin} warm-up`));
    const messageSid = sid("SM");
    const answers = await Promise.all(Array.from({ length: 10 }, () => text(finder, `${owner.pin} Found your cat`, messageSid)));
    expect(answers.map((answer) => answer.status), answers.map((answer) => answer.text).join("\n")).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
    const thread = (await threadsOfNumber(owner.account.id)).find((row) => row.finderPhoneHash === hashPhoneNumber(finder));
    const messages = await getDatabase().db.select().from(schema.threadMessages).where(eq(schema.threadMessages.threadId, thread!.id));
    expect(messages).toHaveLength(1);
    expect((await deliveriesTo(owner.number)).filter((delivery) => delivery.body?.includes("Found your cat"))).toHaveLength(1);
  });

  it("runs the scam rules on texts: the message carries the warning and the notification says so", async () => {
    const owner = await relayOwner();
    const finder = freshNumber();
    await reply(text(finder, `${owner.pin} Send a gift card first and I will return it`));
    const [thread] = await threadsOfNumber(owner.account.id);
    const view = await ownerView(owner.account.accessToken, thread!.id);
    expect(view.data.messages[0]!.warnings).toContain("GIFT_CARD");
    const [note] = await getDatabase().db.select().from(schema.notifications).where(eq(schema.notifications.userId, owner.account.id));
    expect(note!.body).toContain("flagged as a possible scam");
  });

  it("sends the owner's text to the finder who texted last; with several open it asks for the code, and <code> <text> routes", async () => {
    const owner = await relayOwner({ itemName: "Keys" });
    const first = freshNumber();
    await reply(text(first, `${owner.pin} Found your keys`));
    expect(await reply(text(owner.number, "Thank you so much!"))).toBeNull();
    expect((await deliveriesTo(first))[0]).toMatchObject({ from: RELAY_NUMBER, body: "Owner of Keys: Thank you so much!" });

    const second = freshNumber();
    await reply(text(second, `${owner.pin} I think I saw them too`));
    const asked = await reply(text(owner.number, "Where are you?"));
    const threads = await threadsOfNumber(owner.account.id);
    const secondThread = threads.find((t) => t.finderPhoneHash === hashPhoneNumber(second))!;
    expect(asked).toContain("Start your text with the conversation's code");
    expect(asked).toContain(secondThread.relayCode!);
    expect(await deliveriesTo(second)).toHaveLength(0);

    expect(await reply(text(owner.number, `${secondThread.relayCode!.toLowerCase()} Where are you?`))).toBeNull();
    expect((await deliveriesTo(second))[0]!.body).toBe("Owner of Keys: Where are you?");
    const view = await ownerView(owner.account.accessToken, secondThread.id);
    expect(view.data.messages.map((m) => [m.sender, m.channel, m.content])).toEqual([
      ["FINDER", "sms", "I think I saw them too"],
      ["OWNER", "sms", "Where are you?"],
    ]);
    // The owner's number never reaches the finder.
    for (const delivery of [...(await deliveriesTo(first)), ...(await deliveriesTo(second))]) expect(delivery.body).not.toContain(owner.number.slice(1));
  });

  it("tells an owner with no open conversation to use the inbox, and erases numbers whose window has passed", async () => {
    const owner = await relayOwner();
    expect(await reply(text(owner.number, "Hello?"))).toContain("No finder has texted you");
    const finder = freshNumber();
    await reply(text(finder, `${owner.pin} Found it`));
    const [open] = await threadsOfNumber(owner.account.id);
    // The sweep job is scheduled for the window's end.
    const jobs: unknown = await getDatabase().db.execute(sql`select start_after from pgboss.job where name = 'relay.erase-finder-numbers' and data->>'threadId' = ${open!.id}`);
    const rows = (Array.isArray(jobs) ? jobs : (jobs as { rows: unknown[] }).rows) as { start_after: string }[];
    expect(rows).toHaveLength(1);
    expect(new Date(rows[0]!.start_after).getTime()).toBeGreaterThan(open!.finderPhoneUntil!.getTime());
    await getDatabase().db.execute(sql`update threads set finder_phone_until = now() - interval '1 minute' where owner_id = ${owner.account.id}`);
    expect(await reply(text(owner.number, "Still there?"))).toContain("No finder has texted you");
    const [thread] = await threadsOfNumber(owner.account.id);
    expect(thread).toMatchObject({ finderPhoneSealed: null, finderPhoneUntil: null, finderPhoneLastDigits: finder.slice(-2) });
    expect(await eraseExpiredFinderNumbers(getDatabase().db, new Date())).toBe(0);
  });

  it("handles STOP, START and HELP (and synonyms): a stopped number gets no relayed text", async () => {
    const owner = await relayOwner({ itemName: "Bag" });
    const finder = freshNumber();
    expect(await reply(text(finder, "help"))).toContain("6-digit PIN");
    expect(await reply(text(finder, "INFO"))).toContain("6-digit PIN");
    await reply(text(finder, `${owner.pin} Found your bag`));
    expect(await reply(text(finder, "Unsubscribe"))).toContain("no more texts");
    const [optOut] = await getDatabase().db.select().from(schema.relayOptOuts).where(eq(schema.relayOptOuts.phoneHash, hashPhoneNumber(finder)));
    expect(optOut).toBeDefined();
    expect(await reply(text(owner.number, "Thanks"))).toContain("stopped texts");
    expect(await deliveriesTo(finder)).toHaveLength(0);
    expect(await reply(text(finder, "START"))).toContain("on again");
    expect(await reply(text(owner.number, "Thanks again"))).toBeNull();
    expect(await deliveriesTo(finder)).toHaveLength(1);
    for (const word of ["STOPALL", "cancel", "End", "QUIT", "stop."]) expect(await reply(text(freshNumber(), word))).toContain("no more texts");
  });

  it("answers a text without a PIN with help, a wrong PIN with a refusal, and after 3 wrong PINs the number waits", async () => {
    const owner = await relayOwner();
    const finder = freshNumber();
    expect(await reply(text(finder, "Hello, I found a dog"))).toContain("start your text with the 6-digit PIN");
    const wrong = String((Number(owner.pin) + 1) % 1_000_000).padStart(6, "0");
    for (let i = 0; i < 3; i++) expect(await reply(text(finder, `${wrong} hello`))).toContain("not right");
    expect(await reply(text(finder, `${owner.pin} hello`))).toContain("Too many wrong PINs");
    expect(await threadsOfNumber(owner.account.id)).toEqual([]);
  });

  it("refuses a number the owner blocked in a conversation, and a PIN without text", async () => {
    const owner = await relayOwner();
    const finder = freshNumber();
    expect(await reply(text(finder, owner.pin))).toContain("Write your message after the PIN");
    await reply(text(finder, `${owner.pin} hi`));
    const [thread] = await threadsOfNumber(owner.account.id);
    const blocked = await call(setThreadStatusRoute, apiRequest(`/api/v1/messages/${thread!.id}`, { method: "PATCH", headers: bearer(owner.account.accessToken), body: { status: "BLOCKED" } }), { threadId: thread!.id });
    expect(blocked.status).toBe(200);
    const before = (await deliveriesTo(owner.number)).length;
    expect(await reply(text(finder, `${owner.pin} hello again`))).toContain("not accepting messages");
    expect(await deliveriesTo(owner.number)).toHaveLength(before);
  });

  it("stops relaying past the global daily cap, politely, and alerts the admins once that day", async () => {
    const owner = await relayOwner();
    const day = new Date().toISOString().slice(0, 10);
    const db = getDatabase().db;
    const [admin] = await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.id, owner.account.id));
    await db.update(schema.users).set({ role: "ADMIN" }).where(eq(schema.users.id, admin!.id));
    await db.insert(schema.relayDailyUsage).values({ day, count: RELAY_DAILY_CAP }).onConflictDoUpdate({ target: schema.relayDailyUsage.day, set: { count: RELAY_DAILY_CAP, alertedAt: null } });
    try {
      expect(await reply(text(freshNumber(), `${owner.pin} hello`))).toContain("cannot take more texts today");
      expect(await reply(text(freshNumber(), `${owner.pin} hello`))).toContain("cannot take more texts today");
      const alerts = (await db.select().from(schema.notifications).where(eq(schema.notifications.userId, admin!.id))).filter((n) => n.title.includes("daily cap"));
      expect(alerts).toHaveLength(1);
      expect(childNames(twiml(await text(freshNumber(), "HELP")))).toEqual(["Message"]);
    } finally {
      await db.update(schema.relayDailyUsage).set({ count: 0, alertedAt: null }).where(eq(schema.relayDailyUsage.day, day));
    }
  });
});
