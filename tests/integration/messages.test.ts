import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { DELETE as releaseRoute } from "@/app/api/v1/tags/[id]/route";
import { POST as offerRoute } from "@/app/api/v1/tags/[id]/transfer/route";
import { POST as acceptRoute } from "@/app/api/v1/tags/transfers/[id]/accept/route";
import { GET as exportRoute } from "@/app/api/v1/auth/me/export/route";
import { GET as listRoute, POST as listOtherMethod } from "@/app/api/v1/messages/route";
import { prepareJobs, runPendingJobs, stopJobs } from "@/lib/jobs";
import type { OwnerThread, ThreadListItem } from "@/lib/services/messages";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, call, json } from "../support/http";
import { giveTestTag } from "../support/tags";
import {
  contactOwnerOf,
  contactRequest,
  finderReplyRequest,
  finderThread,
  finderThreadRequest,
  getRequest,
  inbox,
  listRequest,
  ownerReply,
  ownerReplyRequest,
  ownerThread,
  readRequest,
  statusRequest,
  threadRow,
  threadRowByToken,
  type ErrorBody,
} from "../support/messages";

beforeAll(async () => {
  await prepareJobs();
});

afterAll(async () => {
  await stopJobs();
});

const MISSING_ID = "00000000-0000-4000-8000-000000000000";

async function ownerWithTag(itemName = "Blue backpack") {
  const owner = await registerAccount();
  const tag = await giveTestTag(owner.id, { status: "LOST", itemName });
  return { owner, tag };
}

/** A finder's thread on the tag: its token and id. */
async function startThread(encryptedId: string, message = "I found it!", options: { finderName?: string; headers?: Record<string, string> } = {}) {
  const { threadToken } = await contactOwnerOf(encryptedId, { message, ...(options.finderName ? { finderName: options.finderName } : {}) }, { headers: options.headers });
  const row = await threadRowByToken(threadToken);
  return { token: threadToken, id: row!.id };
}

const notificationsOf = (userId: string) => getDatabase().db.select().from(schema.notifications).where(eq(schema.notifications.userId, userId));

describe("GET /messages", () => {
  it("lists the owner's threads, newest activity first, with tag name, finder name, last message and unread count", async () => {
    const { owner, tag } = await ownerWithTag("Red bicycle");
    const first = await startThread(tag.encryptedId, "First finder here", { finderName: "Sam" });
    const second = await startThread(tag.encryptedId, "Second finder here");
    const listed = await inbox(owner);
    let { data } = listed;
    expect(listed.meta).toMatchObject({ total: 2, page: 1, totalPages: 1 });
    expect(data.map((item) => item.id)).toEqual([second.id, first.id]);
    expect(data[1]).toEqual({
      id: first.id,
      tagId: tag.id,
      tagName: "Red bicycle",
      finderName: "Sam",
      finderPhoneLastDigits: null,
      lastMessage: "First finder here",
      unreadCount: 1,
      scamFlagged: false,
      status: "ACTIVE",
      lastMessageAt: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    } satisfies ThreadListItem);
    expect(data[0]).toMatchObject({ finderName: null, unreadCount: 1 });

    // A reply moves the first thread to the top and counts as unread.
    expect((await finderReplyRequest(first.token, { message: "Are you there?" })).status).toBe(201);
    ({ data } = await inbox(owner));
    expect(data.map((item) => [item.id, item.unreadCount, item.lastMessage])).toEqual([
      [first.id, 2, "Are you there?"],
      [second.id, 1, "Second finder here"],
    ]);

    // Marking read zeroes it; the owner's own reply becomes the last message and does not count.
    expect((await readRequest(owner, first.id)).status).toBe(200);
    await ownerReply(owner, first.id, "Yes! Thank you.");
    ({ data } = await inbox(owner));
    expect(data.find((item) => item.id === first.id)).toMatchObject({ unreadCount: 0, lastMessage: "Yes! Thank you." });
    // Replying counts as having read: a new finder message makes it 1 again.
    await finderReplyRequest(first.token, { message: "Great" });
    ({ data } = await inbox(owner));
    expect(data.find((item) => item.id === first.id)!.unreadCount).toBe(1);
  });

  it("shows only the caller's threads", async () => {
    const { owner } = await ownerWithTag();
    const { tag: otherTag } = await ownerWithTag();
    await startThread(otherTag.encryptedId);
    expect(await inbox(owner)).toMatchObject({ data: [], meta: { total: 0, page: 1, totalPages: 0 } });
  });

  it("paginates with page and limit, and refuses values out of range (400)", async () => {
    const { owner, tag } = await ownerWithTag();
    const ids: string[] = [];
    for (let index = 0; index < 7; index++) ids.unshift((await startThread(tag.encryptedId, `message ${index}`)).id);
    const page1 = await inbox(owner, "?page=1&limit=3");
    const page3 = await inbox(owner, "?page=3&limit=3");
    expect(page1.meta).toMatchObject({ total: 7, page: 1, totalPages: 3 });
    expect(page1.data.map((item) => item.id)).toEqual(ids.slice(0, 3));
    expect(page3.data.map((item) => item.id)).toEqual(ids.slice(6));
    expect((await inbox(owner, "?page=4&limit=3")).data).toEqual([]);
    expect((await inbox(owner)).data).toHaveLength(7);
    for (const query of ["?page=0", "?limit=0", "?limit=101", "?page=-1", "?limit=abc", "?page=1.5"]) {
      const response = await listRequest(owner, query);
      expect(response.status, query).toBe(400);
      expect((await json<ErrorBody>(response)).error.code).toBe("VALIDATION_ERROR");
    }
  });

  it("needs a credential (401) and answers other methods with 405", async () => {
    expect((await call(listRoute, apiRequest("/api/v1/messages"))).status).toBe(401);
    expect((await call(listOtherMethod, apiRequest("/api/v1/messages", { method: "POST", body: {} }))).status).toBe(405);
  });
});

describe("GET /messages/:threadId", () => {
  it("answers the thread with its messages and warnings, without marking it read", async () => {
    const { owner, tag } = await ownerWithTag();
    const { id } = await startThread(tag.encryptedId, "Found it. Send 0.1 BTC first.", { finderName: "Sam" });
    expect((await ownerThread(owner, id)).messages).toHaveLength(1);
    expect((await inbox(owner)).data[0]!.unreadCount).toBe(1);

    // A phone number to a conversation that tripped the scam rules goes only once confirmed.
    expect((await ownerReplyRequest(owner, id, { content: "Text me at +1 555 010 9999 instead.", confirmContactDetails: true })).status).toBe(201);
    // The stored hash is no way in.
    expect((await finderReplyRequest((await threadRow(id))!.tokenHash, { message: "ignored" })).status).toBe(404);
    const thread = await ownerThread(owner, id);
    expect(thread).toEqual({
      threadId: id,
      tagId: tag.id,
      tagName: "Blue backpack",
      finderName: "Sam",
      status: "ACTIVE",
      notifiesFinder: false,
      relayPhone: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      messages: [
        { id: expect.any(String), sender: "FINDER", content: "Found it. Send 0.1 BTC first.", createdAt: expect.any(String), warnings: ["CRYPTO"], location: null, channel: "web", call: null },
        { id: expect.any(String), sender: "OWNER", content: "Text me at +1 555 010 9999 instead.", createdAt: expect.any(String), warnings: ["OFF_PLATFORM"], location: null, channel: "web", call: null },
      ],
    } satisfies OwnerThread);
  });

  it("is 404 for another owner's thread, an unknown id and a malformed id; 401 without a credential", async () => {
    const { owner, tag } = await ownerWithTag();
    const { owner: stranger } = await ownerWithTag();
    const { id } = await startThread(tag.encryptedId);
    for (const [account, threadId] of [
      [stranger, id],
      [owner, MISSING_ID],
      [owner, "not-a-uuid"],
      [owner, `${id}x`],
    ] as const) {
      for (const response of [
        await getRequest(account, threadId),
        await ownerReplyRequest(account, threadId, { content: "hi" }),
        await readRequest(account, threadId),
        await statusRequest(account, threadId, "CLOSED"),
      ]) {
        expect(response.status, `${threadId}`).toBe(404);
        expect((await json<ErrorBody>(response)).error.code).toBe("NOT_FOUND");
      }
    }
    for (const response of [await getRequest(null, id), await ownerReplyRequest(null, id, { content: "hi" }), await readRequest(null, id), await statusRequest(null, id, "CLOSED")]) {
      expect(response.status).toBe(401);
    }
    // Nothing the stranger tried changed the thread.
    expect(await ownerThread(owner, id)).toMatchObject({ status: "ACTIVE", messages: [expect.objectContaining({ sender: "FINDER" })] });
  });
});

describe("POST /messages/:threadId/reply", () => {
  it("adds the owner's message (201, sender OWNER) that the finder then sees", async () => {
    const { owner, tag } = await ownerWithTag();
    const { id, token } = await startThread(tag.encryptedId);
    const response = await ownerReplyRequest(owner, id, { content: "  Thank you! I'll come by at 6.  " });
    expect(response.status).toBe(201);
    const { data } = await json<{ data: Record<string, unknown> }>(response);
    expect(data).toEqual({ id: expect.any(String), sender: "OWNER", content: "Thank you! I'll come by at 6.", createdAt: expect.any(String), warnings: [], location: null, channel: "web", call: null, textedToFinder: null });
    expect((await finderThread(token)).messages.map((message) => message.sender)).toEqual(["FINDER", "OWNER"]);
  });

  it("validates content (1–2000 after trimming)", async () => {
    const { owner, tag } = await ownerWithTag();
    const { id } = await startThread(tag.encryptedId);
    for (const body of [{}, { content: "" }, { content: "   " }, { content: "z".repeat(2001) }, { message: "wrong field" }]) {
      const response = await ownerReplyRequest(owner, id, body);
      expect(response.status).toBe(400);
      expect((await json<ErrorBody>(response)).error.code).toBe("VALIDATION_ERROR");
    }
    expect((await ownerReplyRequest(owner, id, { content: "z".repeat(2000) })).status).toBe(201);
  });

  it("is 409 CONFLICT on a CLOSED or BLOCKED thread until it is reopened", async () => {
    const { owner, tag } = await ownerWithTag();
    const { id } = await startThread(tag.encryptedId);
    for (const status of ["CLOSED", "BLOCKED"] as const) {
      expect((await statusRequest(owner, id, status)).status).toBe(200);
      const response = await ownerReplyRequest(owner, id, { content: "hello" });
      expect(response.status).toBe(409);
      expect((await json<ErrorBody>(response)).error).toMatchObject({ code: "CONFLICT", details: { status } });
    }
    expect((await statusRequest(owner, id, "ACTIVE")).status).toBe(200);
    expect((await ownerReplyRequest(owner, id, { content: "hello" })).status).toBe(201);
  });
});

describe("PATCH /messages/:threadId/read", () => {
  it("marks the finder's messages read, idempotently", async () => {
    const { owner, tag } = await ownerWithTag();
    const { id, token } = await startThread(tag.encryptedId);
    await finderReplyRequest(token, { message: "second" });
    expect((await inbox(owner)).data[0]!.unreadCount).toBe(2);
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await readRequest(owner, id);
      expect(response.status).toBe(200);
      expect((await json<{ data: { message: string } }>(response)).data).toEqual({ message: "Conversation marked as read." });
    }
    expect((await inbox(owner)).data[0]!.unreadCount).toBe(0);
    const unread = await getDatabase()
      .db.select()
      .from(schema.threadMessages)
      .where(and(eq(schema.threadMessages.threadId, id), eq(schema.threadMessages.sender, "FINDER")));
    expect(unread.every((message) => message.readAt instanceof Date)).toBe(true);
  });
});

describe("PATCH /messages/:threadId (status)", () => {
  it("closes, blocks and reopens, answering the thread; the same status again is accepted; others are 400", async () => {
    const { owner, tag } = await ownerWithTag();
    const { id } = await startThread(tag.encryptedId);
    for (const status of ["CLOSED", "CLOSED", "BLOCKED", "ACTIVE"] as const) {
      const response = await statusRequest(owner, id, status);
      expect(response.status).toBe(200);
      expect((await json<{ data: OwnerThread }>(response)).data).toMatchObject({ threadId: id, status });
      expect((await inbox(owner)).data[0]!.status).toBe(status);
    }
    for (const status of ["DELETED", "active", null, 1]) {
      const response = await statusRequest(owner, id, status);
      expect(response.status).toBe(400);
      expect((await json<ErrorBody>(response)).error.code).toBe("VALIDATION_ERROR");
    }
  });

  it("blocking a signed-in finder's thread blocks their account from new contacts; unblocking lifts it", async () => {
    const { owner, tag } = await ownerWithTag();
    const finder = await registerAccount();
    const { id, token } = await startThread(tag.encryptedId, "hi", { headers: bearer(finder.accessToken) });
    expect((await statusRequest(owner, id, "BLOCKED")).status).toBe(200);
    const blocks = () => getDatabase().db.select().from(schema.userBlocks).where(eq(schema.userBlocks.blockerId, owner.id));
    expect((await blocks()).map((row) => row.blockedId)).toEqual([finder.id]);
    // Blocking twice is harmless.
    await statusRequest(owner, id, "CLOSED");
    expect((await statusRequest(owner, id, "BLOCKED")).status).toBe(200);
    expect(await blocks()).toHaveLength(1);

    expect((await contactRequest(tag.encryptedId, { message: "it's me again" }, { headers: bearer(finder.accessToken) })).status).toBe(403);
    expect((await finderReplyRequest(token, { message: "please" })).status).toBe(403);
    // The owner's answers never say who the finder is.
    expect(JSON.stringify(await ownerThread(owner, id))).not.toContain(finder.id);
    expect(JSON.stringify(await inbox(owner))).not.toContain(finder.id);

    expect((await statusRequest(owner, id, "ACTIVE")).status).toBe(200);
    expect(await blocks()).toEqual([]);
    // With two blocked conversations with the same finder, unblocking one keeps the account block.
    const second = await startThread(tag.encryptedId, "thanks for unblocking", { headers: bearer(finder.accessToken) });
    expect((await statusRequest(owner, second.id, "BLOCKED")).status).toBe(200);
    expect((await statusRequest(owner, id, "BLOCKED")).status).toBe(200);
    expect((await statusRequest(owner, id, "CLOSED")).status).toBe(200);
    expect(await blocks()).toHaveLength(1);
    expect((await statusRequest(owner, second.id, "CLOSED")).status).toBe(200);
    expect(await blocks()).toEqual([]);
  });

  it("blocking an anonymous finder's thread blocks that thread only", async () => {
    const { owner, tag } = await ownerWithTag();
    const { id, token } = await startThread(tag.encryptedId);
    expect((await statusRequest(owner, id, "BLOCKED")).status).toBe(200);
    expect(await getDatabase().db.select().from(schema.userBlocks).where(eq(schema.userBlocks.blockerId, owner.id))).toEqual([]);
    expect((await finderReplyRequest(token, { message: "hello?" })).status).toBe(403);
    expect((await finderThreadRequest(token)).status).toBe(200);
  });
});

describe("concurrency", () => {
  it("ten identical finder replies at once: ten messages and ten notifications, one of them e-mailed", async () => {
    const { owner, tag } = await ownerWithTag();
    const { id, token } = await startThread(tag.encryptedId);
    await readRequest(owner, id);
    expect((await runPendingJobs({ name: "notifications.email" })).failed).toBe(0);
    const before = (await notificationsOf(owner.id)).length;
    const responses = await Promise.all(Array.from({ length: 10 }, () => finderReplyRequest(token, { message: "Same words" })));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(201));
    expect((await ownerThread(owner, id)).messages.filter((message) => message.content === "Same words")).toHaveLength(10);
    expect((await notificationsOf(owner.id)).length - before).toBe(10);
    expect((await inbox(owner)).data[0]!.unreadCount).toBe(10);
    const report = await runPendingJobs({ name: "notifications.email" });
    expect(report.failed).toBe(0);
    // One e-mail for the burst: the owner had read the thread before it, and not since.
    expect(report.completed).toBe(1);
  });
});

describe("the tag's lifecycle", () => {
  it("releasing the tag deletes its threads and their messages; the token stops working", async () => {
    const { owner, tag } = await ownerWithTag();
    const { id, token } = await startThread(tag.encryptedId);
    await ownerReply(owner, id, "thanks");
    const response = await call(releaseRoute, apiRequest(`/api/v1/tags/${tag.id}`, { method: "DELETE", headers: bearer(owner.accessToken) }), { id: tag.id });
    expect(response.status).toBe(200);
    expect(await threadRow(id)).toBeUndefined();
    expect(await getDatabase().db.select().from(schema.threadMessages).where(eq(schema.threadMessages.threadId, id))).toEqual([]);
    expect((await finderThreadRequest(token)).status).toBe(404);
    expect((await inbox(owner)).data).toEqual([]);
  });

  it("accepting a transfer closes the previous owner's threads, which keep their history; new contacts reach the new owner", async () => {
    const { owner, tag } = await ownerWithTag();
    const recipient: TestAccount = await registerAccount();
    await getDatabase().db.update(schema.users).set({ emailVerified: true }).where(eq(schema.users.id, recipient.id));
    const { id, token } = await startThread(tag.encryptedId, "Found your backpack");
    await ownerReply(owner, id, "Thank you!");
    const blocked = await startThread(tag.encryptedId, "spam");
    await statusRequest(owner, blocked.id, "BLOCKED");

    const offer = await call(offerRoute, apiRequest(`/api/v1/tags/${tag.id}/transfer`, { method: "POST", headers: bearer(owner.accessToken), body: { email: recipient.email } }), { id: tag.id });
    expect(offer.status).toBe(201);
    const transferId = (await json<{ data: { id: string } }>(offer)).data.id;
    expect((await call(acceptRoute, apiRequest(`/api/v1/tags/transfers/${transferId}/accept`, { method: "POST", headers: bearer(recipient.accessToken) }), { id: transferId })).status).toBe(200);

    const thread = await ownerThread(owner, id);
    expect(thread).toMatchObject({ status: "CLOSED", tagName: null });
    expect(thread.messages.map((message) => message.content)).toEqual(["Found your backpack", "Thank you!"]);
    expect((await ownerThread(owner, blocked.id)).status).toBe("BLOCKED");
    expect((await finderReplyRequest(token, { message: "hello?" })).status).toBe(403);
    expect(await finderThread(token)).toMatchObject({ status: "CLOSED", tagName: null });
    expect((await inbox(recipient)).data).toEqual([]);

    const fresh = await startThread(tag.encryptedId, "Found it again");
    expect((await inbox(recipient)).data.map((item) => item.id)).toEqual([fresh.id]);
    expect((await getRequest(owner, fresh.id)).status).toBe(404);
  });
});

describe("GET /auth/me/export", () => {
  it("includes the owner's conversations with their messages, without the finder's address", async () => {
    const { owner, tag } = await ownerWithTag();
    const finderEmail = "exported-finder@example.net";
    const { threadToken } = await contactOwnerOf(tag.encryptedId, { message: "Found it", finderEmail, finderName: "Sam" });
    const id = (await threadRowByToken(threadToken))!.id;
    await ownerReply(owner, id, "Thanks");
    const response = await call(exportRoute, apiRequest("/api/v1/auth/me/export", { headers: bearer(owner.accessToken) }));
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain(finderEmail);
    const { data } = JSON.parse(text) as { data: { messages: unknown[] } };
    expect(data.messages).toEqual([
      {
        threadId: id,
        role: "OWNER",
        tagId: tag.id,
        finderName: "Sam",
        status: "ACTIVE",
        createdAt: expect.any(String),
        messages: [
          { id: expect.any(String), sender: "FINDER", content: "Found it", createdAt: expect.any(String), location: null },
          { id: expect.any(String), sender: "OWNER", content: "Thanks", createdAt: expect.any(String), location: null },
        ],
      },
    ]);
  });
});
