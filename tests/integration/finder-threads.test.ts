import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { GET as contactOtherMethod } from "@/app/api/v1/scan/[encryptedId]/contact/route";
import { listMailbox } from "@/lib/email/mailbox";
import { prepareJobs, runPendingJobs, stopJobs } from "@/lib/jobs";
import { resetRateLimiterForTests } from "@/lib/ratelimit";
import { HOUR_MS, MINUTE_MS } from "@/lib/ratelimit/policies";
import { suspendAccount } from "@/lib/services/users/queries";
import { systemContext } from "@/lib/services/context";
import { emailThreadLinkToFinder, FINDER_EMAIL_INTERVAL_MS, type ContactResult } from "@/lib/services/messages";
import { threadTokenHash } from "@/lib/services/messages/thread-token";
import { bearer, registerAccount } from "../support/auth";
import { apiRequest, awayFromWindowEdge, call, json, nextTestIp } from "../support/http";
import { giveTestTag } from "../support/tags";
import {
  contactOwnerOf,
  contactRequest,
  finderReplyRequest,
  finderThread,
  finderThreadRequest,
  inbox,
  ownerReply,
  ownerThread,
  statusRequest,
  threadRowByToken,
  type ErrorBody,
} from "../support/messages";

beforeAll(async () => {
  await prepareJobs();
});

afterAll(async () => {
  await stopJobs();
});

const OWNER_PHONE = "+44 20 7946 0958";
const CONTACT_PHONE = "+44 7700 900123";

/** An owner with a phone on the account and contact details on the tag's profile, and an ACTIVE tag. */
async function ownerWithTag(options: { itemName?: string; visibility?: "PUBLIC" | "PRIVATE"; status?: "ACTIVE" | "LOST" | "DEACTIVATED" | "PENDING_SETUP" } = {}) {
  const owner = await registerAccount();
  const contactEmail = `contact-${randomBytes(4).toString("hex")}@example.org`;
  await getDatabase().db.update(schema.users).set({ phone: OWNER_PHONE }).where(eq(schema.users.id, owner.id));
  const tag = await giveTestTag(owner.id, { status: options.status ?? "ACTIVE", itemName: options.itemName ?? "Blue backpack" });
  await getDatabase().db.update(schema.tags).set({ visibility: options.visibility ?? "PUBLIC" }).where(eq(schema.tags.id, tag.id));
  await getDatabase().db.insert(schema.tagProfiles).values({ tagId: tag.id, ownerName: "Ada L.", contactEmail, contactPhone: CONTACT_PHONE });
  return { owner, tag, secrets: [owner.email, OWNER_PHONE, contactEmail, CONTACT_PHONE, "Lovelace"] };
}

const finderEmailAddress = () => `finder-${randomBytes(4).toString("hex")}@example.net`;

async function sendEmails() {
  const report = await runPendingJobs({ name: "email.send" });
  expect(report.failed).toBe(0);
}

const mailTo = (address: string) => listMailbox({ to: address });

function expectNone(text: string, secrets: string[]) {
  for (const secret of secrets) expect(text.toLowerCase()).not.toContain(secret.toLowerCase());
}

describe("POST /scan/:encryptedId/contact", () => {
  it("opens a thread: 201 with a 256-bit URL-safe token and its page, stored only as a keyed hash", async () => {
    const { owner, tag } = await ownerWithTag();
    const response = await contactRequest(tag.encryptedId, { finderName: "  Sam  ", message: "  I found your backpack at the station.  " });
    expect(response.status).toBe(201);
    const { data } = await json<{ data: ContactResult }>(response);
    expect(Object.keys(data).sort()).toEqual(["message", "threadToken", "threadUrl"]);
    expect(data.threadToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(data.threadToken, "base64url")).toHaveLength(32);
    expect(data.threadUrl).toBe(`http://localhost:3000/thread/${data.threadToken}`);

    const row = await threadRowByToken(data.threadToken);
    expect(row).toMatchObject({ tagId: tag.id, ownerId: owner.id, finderName: "Sam", finderEmail: null, tokenSealed: null, finderUserId: null, status: "ACTIVE", finderLocale: "en" });
    expect(row!.tokenHash).toBe(threadTokenHash(data.threadToken));
    expect(JSON.stringify(row)).not.toContain(data.threadToken);
    expect(row!.finderIpHash).toMatch(/^[0-9a-f]{64}$/);

    const thread = await finderThread(data.threadToken);
    expect(thread).toMatchObject({ threadId: row!.id, tagName: "Blue backpack", status: "ACTIVE" });
    expect(thread.messages).toEqual([{ id: expect.any(String), sender: "FINDER", content: "I found your backpack at the station.", createdAt: expect.any(String), warnings: [], location: null, channel: "web", call: null }]);
  });

  it("notifies the owner (MESSAGE_RECEIVED with threadId and tagId) without the finder's e-mail address", async () => {
    const { owner, tag } = await ownerWithTag({ itemName: "Red bicycle" });
    const finderEmail = finderEmailAddress();
    const { threadToken } = await contactOwnerOf(tag.encryptedId, { finderName: "Sam", message: "Your bike is chained outside my shop.", finderEmail });
    const row = await threadRowByToken(threadToken);
    const notifications = await getDatabase().db.select().from(schema.notifications).where(eq(schema.notifications.userId, owner.id));
    expect(notifications).toHaveLength(1);
    expect(notifications[0]).toMatchObject({ type: "MESSAGE_RECEIVED", title: "New message about “Red bicycle”", data: { threadId: row!.id, tagId: tag.id } });
    expect(notifications[0]!.body).toBe("Sam: Your bike is chained outside my shop.");
    expect(JSON.stringify(notifications)).not.toContain(finderEmail);

    // The owner's notification e-mail does not carry it either.
    expect((await runPendingJobs({ name: "notifications.email" })).failed).toBe(0);
    await sendEmails();
    const [mail] = (await mailTo(owner.email)).filter((message) => message.subject.includes("Red bicycle"));
    expect(mail).toBeDefined();
    expectNone(`${mail!.html}${mail!.text}`, [finderEmail]);
    expect(mail!.html).toContain(`/dashboard/notifications/${notifications[0]!.id}/open`);
  });

  it("keeps the finder's e-mail address and a sealed token, and the finder's language from Accept-Language", async () => {
    const { tag } = await ownerWithTag();
    const finderEmail = finderEmailAddress();
    const { threadToken } = await contactOwnerOf(tag.encryptedId, { message: "Found it!", finderEmail: ` ${finderEmail} ` }, { headers: { "accept-language": "de-AT,de;q=0.9,en;q=0.5" } });
    const row = await threadRowByToken(threadToken);
    expect(row).toMatchObject({ finderEmail, finderLocale: "de" });
    expect(row!.tokenSealed).toBeTruthy();
    expect(row!.tokenSealed).not.toContain(threadToken);
  });

  it("answers 404 for an unknown or malformed encryptedId, and 403 for a tag that cannot be contacted", async () => {
    expect((await contactRequest("unknownUnknownUnknown123", { message: "hi" })).status).toBe(404);
    for (const bad of ["!!", "a".repeat(500), "../x"]) expect((await contactRequest(bad, { message: "hi" })).status).toBe(404);

    const { tag: deactivated } = await ownerWithTag({ status: "DEACTIVATED" });
    const refused = await contactRequest(deactivated.encryptedId, { message: "hi" });
    expect(refused.status).toBe(403);
    expect((await json<ErrorBody>(refused)).error.code).toBe("FORBIDDEN");

    const [unowned] = await getDatabase().db.select().from(schema.tags).where(eq(schema.tags.id, (await giveTestTag((await registerAccount()).id)).id));
    await getDatabase().db.update(schema.tags).set({ ownerId: null }).where(eq(schema.tags.id, unowned!.id));
    expect((await contactRequest(unowned!.encryptedId, { message: "hi" })).status).toBe(403);

    // LOST tags (the usual case) and tags still being set up can be contacted.
    const { tag: lost } = await ownerWithTag({ status: "LOST" });
    expect((await contactRequest(lost.encryptedId, { message: "hi" })).status).toBe(201);
    const { tag: pending } = await ownerWithTag({ status: "PENDING_SETUP" });
    expect((await contactRequest(pending.encryptedId, { message: "hi" })).status).toBe(201);
  });

  it("validates the body: message 1–2000 characters after trimming, name ≤ 100, a valid e-mail", async () => {
    const { tag } = await ownerWithTag();
    const cases: [unknown, string][] = [
      [{}, "message"],
      [{ message: "   " }, "message"],
      [{ message: "x".repeat(2001) }, "message"],
      [{ message: "hi", finderName: "n".repeat(101) }, "finderName"],
      [{ message: "hi", finderName: "  " }, "finderName"],
      [{ message: "hi", finderEmail: "not-an-address" }, "finderEmail"],
    ];
    for (const [body, field] of cases) {
      const response = await contactRequest(tag.encryptedId, body);
      expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      const error = (await json<ErrorBody>(response)).error;
      expect(error.code).toBe("VALIDATION_ERROR");
      expect(Object.keys((error.details as { fieldErrors: Record<string, string[]> }).fieldErrors)).toContain(field);
    }
    expect((await contactRequest(tag.encryptedId, { message: "x".repeat(2000), finderName: "n".repeat(100), finderEmail: null })).status).toBe(201);
  });

  it("records the finder's account when sent with a credential; a bad credential is 401", async () => {
    const { tag } = await ownerWithTag();
    const finder = await registerAccount();
    const { threadToken } = await contactOwnerOf(tag.encryptedId, { message: "Found it" }, { headers: bearer(finder.accessToken) });
    expect((await threadRowByToken(threadToken))!.finderUserId).toBe(finder.id);
    expect((await contactRequest(tag.encryptedId, { message: "hi" }, { headers: bearer("not-a-token") })).status).toBe(401);
  });

  it("refuses (403) a signed-in finder the owner has blocked, whatever thread they use", async () => {
    const { owner, tag } = await ownerWithTag();
    const finder = await registerAccount();
    await getDatabase().db.insert(schema.userBlocks).values({ blockerId: owner.id, blockedId: finder.id });
    const response = await contactRequest(tag.encryptedId, { message: "hello again" }, { headers: bearer(finder.accessToken) });
    expect(response.status).toBe(403);
    expect((await json<ErrorBody>(response)).error.code).toBe("FORBIDDEN");
    // Someone else the owner did not block still gets through.
    expect((await contactRequest(tag.encryptedId, { message: "hello" }, { headers: bearer((await registerAccount()).accessToken) })).status).toBe(201);
  });

  it("answers other methods with 405", async () => {
    const response = await call(contactOtherMethod, apiRequest("/api/v1/scan/abc/contact"), { encryptedId: "abc" });
    expect(response.status).toBe(405);
  });
});

describe("thread token secrecy", () => {
  it("opens only its own thread; unknown, truncated, altered and malformed tokens are 404", async () => {
    const { tag: first } = await ownerWithTag();
    const { tag: second } = await ownerWithTag();
    const a = await contactOwnerOf(first.encryptedId, { message: "about the first tag" });
    const b = await contactOwnerOf(second.encryptedId, { message: "about the second tag" });
    const threadA = await finderThread(a.threadToken);
    const threadB = await finderThread(b.threadToken);
    expect(threadA.threadId).not.toBe(threadB.threadId);
    expect(threadA.messages.map((message) => message.content)).toEqual(["about the first tag"]);
    expect(threadB.messages.map((message) => message.content)).toEqual(["about the second tag"]);

    const flipped = `${a.threadToken.slice(0, -1)}${a.threadToken.endsWith("A") ? "B" : "A"}`;
    const candidates = [randomBytes(32).toString("base64url"), a.threadToken.slice(0, 42), a.threadToken.slice(0, 20), flipped, `${a.threadToken}x`, a.threadToken.toUpperCase(), "", "not a token", threadA.threadId];
    for (const token of candidates) {
      for (const response of [await finderThreadRequest(token), await finderReplyRequest(token, { message: "let me in" })]) {
        expect(response.status, token).toBe(404);
        expect((await json<ErrorBody>(response)).error.code).toBe("NOT_FOUND");
      }
    }
    // Nothing was added to the real thread by the attempts.
    expect((await finderThread(a.threadToken)).messages).toHaveLength(1);
  });
});

describe("GET /scan/thread/:token and POST /scan/thread/:token/reply", () => {
  it("shows both sides with scam warnings and marks the owner's messages read for the finder", async () => {
    const { owner, tag } = await ownerWithTag();
    const { threadToken } = await contactOwnerOf(tag.encryptedId, { message: "Found it. WhatsApp me and pay the delivery fee first." });
    const row = await threadRowByToken(threadToken);
    await ownerReply(owner, row!.id, "Thanks! Can you leave it at the front desk?");

    const before = await getDatabase().db.select().from(schema.threadMessages).where(and(eq(schema.threadMessages.threadId, row!.id), eq(schema.threadMessages.sender, "OWNER")));
    expect(before[0]!.readAt).toBeNull();
    const thread = await finderThread(threadToken);
    expect(thread.messages.map(({ sender, warnings }) => ({ sender, warnings }))).toEqual([
      { sender: "FINDER", warnings: ["UPFRONT_PAYMENT", "DELIVERY_FEE", "OFF_PLATFORM"] },
      { sender: "OWNER", warnings: [] },
    ]);
    const after = await getDatabase().db.select().from(schema.threadMessages).where(and(eq(schema.threadMessages.threadId, row!.id), eq(schema.threadMessages.sender, "OWNER")));
    expect(after[0]!.readAt).toBeInstanceOf(Date);
  });

  it("hides the tag's name when its profile is PRIVATE", async () => {
    const { tag } = await ownerWithTag({ visibility: "PRIVATE" });
    const { threadToken } = await contactOwnerOf(tag.encryptedId);
    expect((await finderThread(threadToken)).tagName).toBeNull();
  });

  it("adds the finder's reply (201, sender FINDER), notifies the owner and validates the message", async () => {
    const { owner, tag } = await ownerWithTag();
    const { threadToken } = await contactOwnerOf(tag.encryptedId);
    const response = await finderReplyRequest(threadToken, { message: "  I'm at the station until 6.  " });
    expect(response.status).toBe(201);
    const { data } = await json<{ data: Record<string, unknown> }>(response);
    expect(data).toEqual({ id: expect.any(String), sender: "FINDER", content: "I'm at the station until 6.", createdAt: expect.any(String), warnings: [], location: null, channel: "web", call: null });
    const notifications = await getDatabase().db.select().from(schema.notifications).where(eq(schema.notifications.userId, owner.id));
    expect(notifications.map((notification) => notification.title).sort()).toEqual(["New message about “Blue backpack”", "New reply about “Blue backpack”"]);

    for (const body of [{}, { message: "" }, { message: " " }, { message: "y".repeat(2001) }, { content: "wrong field" }]) {
      expect((await finderReplyRequest(threadToken, body)).status).toBe(400);
    }
  });

  it("refuses (403) replies to CLOSED and BLOCKED threads, but still shows them", async () => {
    const { owner, tag } = await ownerWithTag();
    const { threadToken } = await contactOwnerOf(tag.encryptedId);
    const row = await threadRowByToken(threadToken);
    for (const status of ["CLOSED", "BLOCKED"] as const) {
      expect((await statusRequest(owner, row!.id, status)).status).toBe(200);
      const refused = await finderReplyRequest(threadToken, { message: "hello?" });
      expect(refused.status).toBe(403);
      expect((await json<ErrorBody>(refused)).error.code).toBe("FORBIDDEN");
      expect((await finderThread(threadToken)).status).toBe(status);
    }
    expect((await statusRequest(owner, row!.id, "ACTIVE")).status).toBe(200);
    expect((await finderReplyRequest(threadToken, { message: "hello?" })).status).toBe(201);
    expect((await finderThread(threadToken)).messages).toHaveLength(2);
  });

  it("refuses (403) a reply from a signed-in finder the owner has blocked, on any thread", async () => {
    const { owner, tag } = await ownerWithTag();
    const finder = await registerAccount();
    const { threadToken } = await contactOwnerOf(tag.encryptedId, { message: "hi" }, { headers: bearer(finder.accessToken) });
    await getDatabase().db.insert(schema.userBlocks).values({ blockerId: owner.id, blockedId: finder.id });
    expect((await finderReplyRequest(threadToken, { message: "hi again" })).status).toBe(403);
  });
});

/** Suspends the account as PATCH /admin/users/:id does (the users domain's write: suspendedAt, sessions and keys revoked). */
async function suspend(userId: string) {
  const [user] = await getDatabase().db.select().from(schema.users).where(eq(schema.users.id, userId));
  await suspendAccount(getDatabase().db, user!);
}

describe("a suspended finder account", () => {
  it("ends its conversations: a reply by the thread token alone is 403, and nothing is added", async () => {
    const { owner, tag } = await ownerWithTag();
    const finder = await registerAccount();
    const { threadToken } = await contactOwnerOf(tag.encryptedId, { message: "Found it" }, { headers: bearer(finder.accessToken) });
    expect((await finderReplyRequest(threadToken, { message: "Still here" })).status).toBe(201);
    await suspend(finder.id);

    const refused = await finderReplyRequest(threadToken, { message: "Signed out, still writing" });
    expect(refused.status).toBe(403);
    expect((await json<ErrorBody>(refused)).error.code).toBe("FORBIDDEN");
    // With the suspended account's own (revoked) credential: 403 too.
    expect((await finderReplyRequest(threadToken, { message: "With my old token" }, { headers: bearer(finder.accessToken) })).status).toBe(403);
    const row = await threadRowByToken(threadToken);
    expect((await ownerThread(owner, row!.id)).messages.map((message) => message.content)).toEqual(["Found it", "Still here"]);
    // Someone else's anonymous conversation about the same tag goes on.
    const other = await contactOwnerOf(tag.encryptedId, { message: "I saw it too" });
    expect((await finderReplyRequest(other.threadToken, { message: "Hello?" })).status).toBe(201);
  });

  it("cannot open a new conversation with its credential (403), as any suspended credential", async () => {
    const { tag } = await ownerWithTag();
    const finder = await registerAccount();
    await suspend(finder.id);
    const refused = await contactRequest(tag.encryptedId, { message: "New conversation" }, { headers: bearer(finder.accessToken) });
    expect(refused.status).toBe(403);
    expect((await json<ErrorBody>(refused)).error.code).toBe("FORBIDDEN");
    expect(await getDatabase().db.select().from(schema.threads).where(eq(schema.threads.tagId, tag.id))).toEqual([]);
  });
});

describe("flood limits on the finder API (the finder pages' limits)", () => {
  it("opens 10 conversations an hour from one IP: the 11th is 429 with Retry-After and the limit headers, and reaches nobody", async () => {
    await awayFromWindowEdge(HOUR_MS, 60_000);
    const { owner, tag } = await ownerWithTag();
    const ip = nextTestIp();
    for (let i = 1; i <= 10; i++) {
      const response = await contactRequest(tag.encryptedId, { message: `Message ${i}` }, { ip });
      expect(response.status).toBe(201);
      expect(response.headers.get("X-RateLimit-Limit")).toBe("10");
      expect(response.headers.get("X-RateLimit-Remaining")).toBe(String(10 - i));
    }
    const limited = await contactRequest(tag.encryptedId, { message: "Message 11" }, { ip });
    expect(limited.status).toBe(429);
    expect((await json<ErrorBody>(limited)).error.code).toBe("RATE_LIMIT_EXCEEDED");
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(Number(limited.headers.get("Retry-After"))).toBeLessThanOrEqual(HOUR_MS / 1000);
    expect(limited.headers.get("X-RateLimit-Limit")).toBe("10");
    expect(limited.headers.get("X-RateLimit-Remaining")).toBe("0");
    expect(Number(limited.headers.get("X-RateLimit-Reset"))).toBeGreaterThan(0);
    expect(await getDatabase().db.select().from(schema.threads).where(eq(schema.threads.tagId, tag.id))).toHaveLength(10);
    const received = await getDatabase().db.select().from(schema.notifications).where(and(eq(schema.notifications.userId, owner.id), eq(schema.notifications.type, "MESSAGE_RECEIVED")));
    expect(received).toHaveLength(10);
    // Another IP still gets through.
    expect((await contactRequest(tag.encryptedId, { message: "From elsewhere" })).status).toBe(201);
  });

  it("takes 30 replies per 10 minutes from one IP: the 31st is 429 with Retry-After and the limit headers", async () => {
    await awayFromWindowEdge(10 * MINUTE_MS, 60_000);
    const { owner, tag } = await ownerWithTag();
    const { threadToken } = await contactOwnerOf(tag.encryptedId, { message: "Found it" });
    const ip = nextTestIp();
    for (let i = 1; i <= 30; i++) {
      const response = await finderReplyRequest(threadToken, { message: `Reply ${i}` }, { ip });
      expect(response.status).toBe(201);
      expect(response.headers.get("X-RateLimit-Limit")).toBe("30");
    }
    const limited = await finderReplyRequest(threadToken, { message: "Reply 31" }, { ip });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(Number(limited.headers.get("Retry-After"))).toBeLessThanOrEqual(600);
    expect(limited.headers.get("X-RateLimit-Limit")).toBe("30");
    expect(limited.headers.get("X-RateLimit-Remaining")).toBe("0");
    const row = await threadRowByToken(threadToken);
    expect((await ownerThread(owner, row!.id)).messages).toHaveLength(31);
  });
});

describe("privacy", () => {
  it("no finder-facing answer or e-mail carries the owner's e-mail address, phone or name; no owner-facing one the finder's address", async () => {
    const { owner, tag, secrets } = await ownerWithTag();
    const finderEmail = finderEmailAddress();
    const contact = await contactRequest(tag.encryptedId, { finderName: "Sam", message: "Found your bag", finderEmail });
    const contactText = await contact.clone().text();
    const { data } = await json<{ data: ContactResult }>(contact);
    const row = await threadRowByToken(data.threadToken);
    await ownerReply(owner, row!.id, "Thank you so much!");
    await sendEmails();

    const finderFacing = [
      contactText,
      await (await finderThreadRequest(data.threadToken)).text(),
      await (await finderReplyRequest(data.threadToken, { message: "You're welcome" })).text(),
      ...(await mailTo(finderEmail)).flatMap((mail) => [mail.subject, mail.text, mail.html]),
    ];
    expect((await mailTo(finderEmail)).length).toBe(1);
    for (const text of finderFacing) expectNone(text, secrets);

    const ownerFacing = [
      JSON.stringify(await inbox(owner)),
      JSON.stringify(await ownerThread(owner, row!.id)),
      await (await statusRequest(owner, row!.id, "CLOSED")).text(),
      JSON.stringify(await getDatabase().db.select().from(schema.notifications).where(eq(schema.notifications.userId, owner.id))),
    ];
    for (const text of ownerFacing) expectNone(text, [finderEmail]);
    expect(JSON.stringify(await ownerThread(owner, row!.id))).not.toMatch(/finderEmail|finderUserId|finderIpHash|tokenHash|tokenSealed/);
  });
});

describe("e-mails to the finder", () => {
  async function threadWithFinderEmail(acceptLanguage?: string) {
    const { owner, tag } = await ownerWithTag();
    const finderEmail = finderEmailAddress();
    const { threadToken } = await contactOwnerOf(tag.encryptedId, { message: "Found it", finderEmail }, { headers: acceptLanguage ? { "accept-language": acceptLanguage } : {} });
    const row = await threadRowByToken(threadToken);
    return { owner, finderEmail, threadToken, threadId: row!.id };
  }

  it("e-mails the thread link when the owner replies, in the finder's language, with any scam warning of the reply", async () => {
    const cases = [
      [undefined, "en", "The owner replied to your message", "Open the conversation", "Be careful"],
      ["es-MX,es;q=0.9", "es", "El dueño ha respondido a tu mensaje", "Abrir la conversación", "Cuidado"],
      ["fr-CH, fr;q=0.9, en;q=0.8", "fr", "Le propriétaire a répondu à votre message", "Ouvrir la conversation", "Attention"],
      ["pt-BR, de;q=0.5", "de", "Der Besitzer hat auf Ihre Nachricht geantwortet", "Unterhaltung öffnen", "Vorsicht"],
    ] as const;
    for (const [acceptLanguage, lang, subject, button, caution] of cases) {
      const { owner, finderEmail, threadToken, threadId } = await threadWithFinderEmail(acceptLanguage);
      await ownerReply(owner, threadId, "Thanks! Please buy a gift card for the courier.");
      await sendEmails();
      const mails = await mailTo(finderEmail);
      expect(mails).toHaveLength(1);
      const [mail] = mails;
      expect(mail!.subject).toBe(subject);
      expect(mail!.html).toContain(`lang="${lang}"`);
      expect(mail!.html).toContain(button);
      expect(mail!.html).toContain(caution);
      expect(mail!.text).toContain(`http://localhost:3000/thread?token=${threadToken}`);
      expect(mail!.html).toContain(`http://localhost:3000/thread?token=${threadToken}`);
      // The owner's words are not quoted: the address was typed by the finder and never confirmed.
      expect(mail!.text).not.toContain("Please buy a gift card");
    }
  });

  it("sends one e-mail for ten concurrent owner replies, none for another within 10 minutes, and one after", async () => {
    const { owner, finderEmail, threadId } = await threadWithFinderEmail();
    const replies = await Promise.all(Array.from({ length: 10 }, (_, index) => ownerReply(owner, threadId, `Reply number ${index}`)));
    expect(new Set(replies.map((reply) => reply.id)).size).toBe(10);
    await sendEmails();
    expect(await mailTo(finderEmail)).toHaveLength(1);

    await ownerReply(owner, threadId, "One more thing");
    await sendEmails();
    expect(await mailTo(finderEmail)).toHaveLength(1);

    await getDatabase()
      .db.update(schema.threads)
      .set({ finderNotifiedAt: new Date(Date.now() - FINDER_EMAIL_INTERVAL_MS - 1000) })
      .where(eq(schema.threads.id, threadId));
    await ownerReply(owner, threadId, "Are you still there?");
    await sendEmails();
    expect(await mailTo(finderEmail)).toHaveLength(2);
    expect((await ownerThread(owner, threadId)).messages).toHaveLength(13);
  });

  it("sends nothing when the finder left no address, and tells the owner so", async () => {
    const { owner, tag } = await ownerWithTag();
    const { threadToken } = await contactOwnerOf(tag.encryptedId, { message: "Found it" });
    const row = await threadRowByToken(threadToken);
    expect((await ownerThread(owner, row!.id)).notifiesFinder).toBe(false);
    const jobsBefore = await runPendingJobs({ name: "email.send" });
    await ownerReply(owner, row!.id, "Thanks");
    const report = await runPendingJobs({ name: "email.send" });
    expect(report.runs.filter((run) => (run.data as { template?: string }).template?.startsWith("messages."))).toEqual([]);
    expect(jobsBefore.failed).toBe(0);
  });

  it("emailThreadLinkToFinder sends the link once per conversation, says who asked for it, and answers the same without an address", async () => {
    const { owner, finderEmail, threadToken, threadId } = await threadWithFinderEmail("es");
    expect((await ownerThread(owner, threadId)).notifiesFinder).toBe(true);
    const ctx = systemContext();
    const first = await emailThreadLinkToFinder(ctx, threadToken);
    const second = await emailThreadLinkToFinder(ctx, threadToken);
    expect(second).toEqual(first);
    await sendEmails();
    const mails = await mailTo(finderEmail);
    expect(mails.map((mail) => mail.subject)).toEqual(["Tu enlace a la conversación"]);
    expect(mails[0]!.text).toContain(`/thread?token=${threadToken}`);
    // It says plainly that someone asked for it, and how to ignore it.
    expect(mails[0]!.text).toContain("Alguien pidió este correo en la página de la conversación");
    expect(mails[0]!.text).toContain("Si no fuiste tú, simplemente ignóralo");
    // The same slot as the reply e-mails.
    await ownerReply(owner, threadId, "Hello");
    await sendEmails();
    expect(await mailTo(finderEmail)).toHaveLength(1);
    // Long after the 10 minutes: the owner's replies are e-mailed again, the link never is.
    const longAgo = new Date(Date.now() - FINDER_EMAIL_INTERVAL_MS - 1000);
    await getDatabase().db.update(schema.threads).set({ finderNotifiedAt: longAgo }).where(eq(schema.threads.id, threadId));
    expect(await emailThreadLinkToFinder(ctx, threadToken)).toEqual(first);
    await sendEmails();
    expect(await mailTo(finderEmail)).toHaveLength(1);
    await ownerReply(owner, threadId, "Hello again");
    await sendEmails();
    expect((await mailTo(finderEmail)).map((mail) => mail.subject)).toEqual(["El dueño ha respondido a tu mensaje", "Tu enlace a la conversación"]);

    const { tag } = await ownerWithTag();
    const anonymous = await contactOwnerOf(tag.encryptedId, { message: "no address" });
    expect(await emailThreadLinkToFinder(ctx, anonymous.threadToken)).toEqual(first);
    await expect(emailThreadLinkToFinder(ctx, randomBytes(32).toString("base64url"))).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("sends one link e-mail for ten concurrent requests", async () => {
    const { finderEmail, threadToken } = await threadWithFinderEmail();
    const answers = await Promise.all(Array.from({ length: 10 }, () => emailThreadLinkToFinder({ actor: { kind: "public", ip: nextTestIp() }, db: getDatabase().db }, threadToken)));
    expect(new Set(answers.map((answer) => answer.message)).size).toBe(1);
    await sendEmails();
    const mails = await mailTo(finderEmail);
    expect(mails.map((mail) => mail.subject)).toEqual(["Your link to the conversation"]);
    expect(mails[0]!.text).toContain("Someone asked for this e-mail on the conversation's page");
  });

  it("sends at most 3 link e-mails a day to one address, whatever the conversation, case or +tag; the answer never tells", async () => {
    resetRateLimiterForTests();
    const base = randomBytes(4).toString("hex");
    const inbox = `finder-${base}@example.net`;
    const spellings = [inbox, `Finder-${base}@Example.NET`, `finder-${base}+again@example.net`, `FINDER-${base}+4@example.net`];
    const threads: { threadToken: string; threadId: string }[] = [];
    for (const finderEmail of spellings) {
      const { tag } = await ownerWithTag();
      const { threadToken } = await contactOwnerOf(tag.encryptedId, { message: "Found it", finderEmail });
      threads.push({ threadToken, threadId: (await threadRowByToken(threadToken))!.id });
    }
    const ctx = systemContext();
    const answers = [];
    for (const { threadToken } of threads) answers.push(await emailThreadLinkToFinder(ctx, threadToken));
    expect(new Set(answers.map((answer) => answer.message)).size).toBe(1);
    await sendEmails();
    // The mailbox matches addresses case-insensitively: the first two spellings are one address there.
    expect(await mailTo(inbox)).toHaveLength(2);
    expect(await mailTo(spellings[2]!)).toHaveLength(1);
    expect(await mailTo(spellings[3]!)).toEqual([]);
    // The refused one kept its conversation's one link e-mail: the next day (a fresh count) it goes out.
    const [refused] = await getDatabase().db.select().from(schema.threads).where(eq(schema.threads.id, threads[3]!.threadId));
    expect(refused).toMatchObject({ linkEmailedAt: null, finderNotifiedAt: null });
    resetRateLimiterForTests();
    await emailThreadLinkToFinder(ctx, threads[3]!.threadToken);
    await sendEmails();
    expect(await mailTo(spellings[3]!)).toHaveLength(1);
  });

  it("sends no link e-mail for a conversation opened by an account that is now suspended (the same answer)", async () => {
    const { tag } = await ownerWithTag();
    const finder = await registerAccount();
    const finderEmail = finderEmailAddress();
    const { threadToken } = await contactOwnerOf(tag.encryptedId, { message: "Found it", finderEmail }, { headers: bearer(finder.accessToken) });
    await suspend(finder.id);
    const ctx = systemContext();
    const { tag: otherTag } = await ownerWithTag();
    const other = await contactOwnerOf(otherTag.encryptedId, { message: "no address" });
    expect(await emailThreadLinkToFinder(ctx, threadToken)).toEqual(await emailThreadLinkToFinder(ctx, other.threadToken));
    await sendEmails();
    expect(await mailTo(finderEmail)).toEqual([]);
  });
});
