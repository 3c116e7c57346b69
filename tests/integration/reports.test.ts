import { describe, expect, it } from "vitest";
import { and, eq, isNull } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { POST as createRoute, GET as reportsGetRoute } from "@/app/api/v1/reports/route";
import { GET as myRoute } from "@/app/api/v1/reports/my/route";
import { DELETE as unblockRoute, POST as blockRoute } from "@/app/api/v1/users/block/[userId]/route";
import { GET as blockedRoute } from "@/app/api/v1/users/blocked/route";
import { GET as adminListRoute } from "@/app/api/v1/admin/reports/route";
import { PATCH as adminPatchRoute } from "@/app/api/v1/admin/reports/[id]/route";
import { POST as adminActionRoute } from "@/app/api/v1/admin/reports/[id]/action/route";
import { GET as emergencyRoute } from "@/app/api/v1/emergency/route";
import { POST as refreshRoute } from "@/app/api/v1/auth/refresh/route";
import { PATCH as tagStatusRoute } from "@/app/api/v1/tags/[id]/status/route";
import { createApiKey } from "@/lib/services/auth/api-keys";
import { bearer, loginAccount, registerAccount, setRole, type TestAccount } from "../support/auth";
import { addTestMessage, createTestThread, messageRow } from "../support/finder";
import { apiRequest, call, json, nextTestIp } from "../support/http";
import { giveTestTag, tagEventsOf, tagRow } from "../support/tags";

const MISSING_ID = "00000000-0000-4000-8000-000000000000";

type ErrorBody = { success: false; error: { code: string; message: string; details?: { fieldErrors?: Record<string, string[]> } } };
type AdminReport = {
  id: string;
  type: string;
  status: string;
  description: string;
  reporterId: string | null;
  reporterEmail: string | null;
  targetUserId: string | null;
  targetEmail: string | null;
  targetRole: string | null;
  targetSuspended: boolean;
  tagId: string | null;
  tagStatus: string | null;
  messageId: string | null;
  messageContent: string | null;
  messageSender: string | null;
  threadId: string | null;
  adminNote: string | null;
  action: string | null;
  resolvedById: string | null;
  resolvedAt: string | null;
  createdAt: string;
  updatedAt: string;
};

const auth = (account: TestAccount | null) => (account ? bearer(account.accessToken) : {});

function report(account: TestAccount | null, body: unknown) {
  return call(createRoute, apiRequest("/api/v1/reports", { method: "POST", headers: auth(account), body }));
}
function myReports(account: TestAccount | null) {
  return call(myRoute, apiRequest("/api/v1/reports/my", { headers: auth(account) }));
}
function block(account: TestAccount | null, userId: string) {
  return call(blockRoute, apiRequest(`/api/v1/users/block/${userId}`, { method: "POST", headers: auth(account) }), { userId });
}
function unblock(account: TestAccount | null, userId: string) {
  return call(unblockRoute, apiRequest(`/api/v1/users/block/${userId}`, { method: "DELETE", headers: auth(account) }), { userId });
}
function blocked(account: TestAccount | null) {
  return call(blockedRoute, apiRequest("/api/v1/users/blocked", { headers: auth(account) }));
}
function adminList(account: TestAccount | null, query = "") {
  return call(adminListRoute, apiRequest(`/api/v1/admin/reports${query}`, { headers: auth(account) }));
}
function adminPatch(account: TestAccount | null, id: string, body: unknown) {
  return call(adminPatchRoute, apiRequest(`/api/v1/admin/reports/${id}`, { method: "PATCH", headers: auth(account), body }), { id });
}
function adminAction(account: TestAccount | null, id: string, body: unknown) {
  return call(adminActionRoute, apiRequest(`/api/v1/admin/reports/${id}/action`, { method: "POST", headers: auth(account), body }), { id });
}

async function expectError(response: Response, status: number, code: string): Promise<ErrorBody["error"]> {
  expect(response.status).toBe(status);
  const body = await json<ErrorBody>(response);
  expect(body).toMatchObject({ success: false, error: { code } });
  return body.error;
}

async function adminAccount(role: "ADMIN" | "SUPER_ADMIN" = "ADMIN"): Promise<TestAccount> {
  const account = await registerAccount();
  await setRole(account.id, role);
  return account;
}

async function reportId(response: Response): Promise<string> {
  expect(response.status).toBe(201);
  return (await json<{ data: { id: string } }>(response)).data.id;
}

async function reportRow(id: string) {
  const [row] = await getDatabase().db.select().from(schema.reports).where(eq(schema.reports.id, id));
  return row;
}

/** An owner with a tag and a thread in which a signed-in finder wrote a message. */
async function ownerWithFinderMessage(content = "You will regret this.") {
  const owner = await registerAccount();
  const finder = await registerAccount();
  const tag = await giveTestTag(owner.id, { status: "LOST", itemName: "Backpack" });
  const thread = await createTestThread({ ownerId: owner.id, tagId: tag.id, finderUserId: finder.id, finderName: "Sam" });
  const message = await addTestMessage(thread.id, content);
  return { owner, finder, tag, thread, message };
}

describe("POST /reports and GET /reports/my", () => {
  it("files a report (201, OPEN, review promised within 24 hours) and lists the caller's own, newest first", async () => {
    const reporter = await registerAccount();
    const target = await registerAccount();
    const tag = await giveTestTag(target.id, { status: "ACTIVE" });
    const created = await report(reporter, { type: "SCAM", description: "  The tag's page asks for money.  ", targetUserId: target.id, tagId: tag.id });
    expect(created.status).toBe(201);
    const { data } = await json<{ data: { id: string; type: string; status: string; message: string } }>(created);
    expect(data).toEqual({ id: expect.any(String), type: "SCAM", status: "OPEN", message: expect.stringContaining("24 hours") });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await reportId(await report(reporter, { type: "OTHER", description: "Something else." }));
    await reportId(await report(target, { type: "SPAM", description: "Not the reporter's report." }));

    const mine = await myReports(reporter);
    expect(mine.status).toBe(200);
    const list = (await json<{ data: Record<string, unknown>[] }>(mine)).data;
    expect(list.map((entry) => entry.id)).toEqual([second, data.id]);
    expect(list[1]).toEqual({ id: data.id, type: "SCAM", status: "OPEN", description: "The tag's page asks for money.", createdAt: expect.any(String), targetUserId: target.id, tagId: tag.id, messageId: null, alertId: null, foundReportId: null });
    expect((await reportRow(data.id))?.reporterId).toBe(reporter.id);
  });

  it("validates the report (400), refuses reporting yourself (400) and ids that name nothing (404)", async () => {
    const reporter = await registerAccount();
    const invalid: [Record<string, unknown>, string][] = [
      [{ description: "No type" }, "type"],
      [{ type: "RUDE", description: "Unknown type" }, "type"],
      [{ type: "SPAM" }, "description"],
      [{ type: "SPAM", description: "   " }, "description"],
      [{ type: "SPAM", description: "x".repeat(2001) }, "description"],
      [{ type: "SPAM", description: "Bad id", targetUserId: "not-a-uuid" }, "targetUserId"],
      [{ type: "SPAM", description: "Bad id", tagId: 7 }, "tagId"],
    ];
    for (const [body, field] of invalid) {
      const error = await expectError(await report(reporter, body), 400, "VALIDATION_ERROR");
      expect(Object.keys(error.details?.fieldErrors ?? {}), JSON.stringify(body)).toContain(field);
    }
    const self = await expectError(await report(reporter, { type: "HARASSMENT", description: "Me", targetUserId: reporter.id }), 400, "VALIDATION_ERROR");
    expect(Object.keys(self.details?.fieldErrors ?? {})).toEqual(["targetUserId"]);
    for (const field of ["targetUserId", "tagId", "messageId"]) {
      await expectError(await report(reporter, { type: "SPAM", description: "Ghost", [field]: MISSING_ID }), 404, "NOT_FOUND");
    }
    expect((await json<{ data: unknown[] }>(await myReports(reporter))).data).toEqual([]);
    await expectError(await report(null, { type: "SPAM", description: "Anonymous" }), 401, "UNAUTHORIZED");
    await expectError(await myReports(null), 401, "UNAUTHORIZED");
    expect((await call(reportsGetRoute, apiRequest("/api/v1/reports", { headers: auth(reporter) }))).status).toBe(405);
  });

  it("reports a message of the reporter's own thread: the signed-in finder becomes the target and the thread is kept", async () => {
    const { owner, finder, thread, message } = await ownerWithFinderMessage();
    const id = await reportId(await report(owner, { type: "HARASSMENT", description: "Threats.", messageId: message.id }));
    expect(await reportRow(id)).toMatchObject({ targetUserId: finder.id, messageId: message.id, threadId: thread.id });

    // A target named explicitly stays the target.
    const other = await registerAccount();
    const explicit = await reportId(await report(owner, { type: "HARASSMENT", description: "Someone else.", messageId: message.id, targetUserId: other.id }));
    expect((await reportRow(explicit))?.targetUserId).toBe(other.id);

    // An anonymous finder leaves no target.
    const anonymousThread = await createTestThread({ ownerId: owner.id, tagId: thread.tagId, finderName: "Anon" });
    const anonymousMessage = await addTestMessage(anonymousThread.id, "spam spam");
    const noTarget = await reportId(await report(owner, { type: "SPAM", description: "Spam.", messageId: anonymousMessage.id }));
    expect(await reportRow(noTarget)).toMatchObject({ targetUserId: null, threadId: anonymousThread.id });

    // Someone else's thread is not theirs to report: 404, as if it did not exist.
    await expectError(await report(finder, { type: "SPAM", description: "Not my thread.", messageId: message.id }), 404, "NOT_FOUND");
  });
});

describe("blocking", () => {
  it("blocks (idempotently), lists with the name the finder gave, and unblocks (idempotently)", async () => {
    const owner = await registerAccount();
    const finder = await registerAccount();
    const other = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE" });
    await createTestThread({ ownerId: owner.id, tagId: tag.id, finderUserId: finder.id, finderName: "Sam" });

    const first = await block(owner, finder.id);
    expect(first.status).toBe(200);
    expect((await json<{ data: { message: string } }>(first)).data.message).toMatch(/blocked/);
    expect((await block(owner, finder.id)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await block(owner, other.id)).status).toBe(200);
    const rows = await getDatabase().db.select().from(schema.userBlocks).where(eq(schema.userBlocks.blockerId, owner.id));
    expect(rows).toHaveLength(2);

    const list = (await json<{ data: { userId: string; blockedAt: string; knownAs: string | null }[] }>(await blocked(owner))).data;
    expect(list).toEqual([
      { userId: other.id, blockedAt: expect.any(String), knownAs: null },
      { userId: finder.id, blockedAt: expect.any(String), knownAs: "Sam" },
    ]);
    expect((await json<{ data: unknown[] }>(await blocked(finder))).data).toEqual([]);

    const removed = await unblock(owner, finder.id);
    expect(removed.status).toBe(200);
    expect((await json<{ data: { message: string } }>(removed)).data.message).toMatch(/no longer blocked/);
    expect((await unblock(owner, finder.id)).status).toBe(200);
    expect((await json<{ data: { userId: string }[] }>(await blocked(owner))).data.map((entry) => entry.userId)).toEqual([other.id]);
  });

  it("refuses yourself (400), an unknown or malformed user (404) and anonymous callers (401)", async () => {
    const owner = await registerAccount();
    for (const verb of [block, unblock]) {
      await expectError(await verb(owner, owner.id), 400, "VALIDATION_ERROR");
      await expectError(await verb(owner, MISSING_ID), 404, "NOT_FOUND");
      await expectError(await verb(owner, "not-a-uuid"), 404, "NOT_FOUND");
      await expectError(await verb(null, MISSING_ID), 401, "UNAUTHORIZED");
    }
    await expectError(await blocked(null), 401, "UNAUTHORIZED");
  });
});

describe("the admin report queue", () => {
  it("is for admins only: 401 anonymous, 403 for a user, on every admin endpoint", async () => {
    const user = await registerAccount();
    const id = await reportId(await report(user, { type: "SPAM", description: "x" }));
    await expectError(await adminList(null), 401, "UNAUTHORIZED");
    await expectError(await adminList(user), 403, "FORBIDDEN");
    await expectError(await adminPatch(user, id, { status: "REVIEWING" }), 403, "FORBIDDEN");
    await expectError(await adminAction(user, id, { action: "DISMISS" }), 403, "FORBIDDEN");
    await expectError(await adminAction(null, id, { action: "DISMISS" }), 401, "UNAUTHORIZED");
    expect((await reportRow(id))?.status).toBe("OPEN");
  });

  it("lists reports paginated with filters, the ids an admin needs and the reported message's text", async () => {
    const admin = await adminAccount();
    const { owner, finder, tag, thread, message } = await ownerWithFinderMessage("Pay me or else.");
    const harassment = await reportId(await report(owner, { type: "HARASSMENT", description: "Threats in a message.", messageId: message.id, tagId: tag.id }));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const spam = await reportId(await report(owner, { type: "SPAM", description: "Spam." }));

    const all = await adminList(admin, "?type=HARASSMENT");
    expect(all.status).toBe(200);
    const page = await json<{ data: AdminReport[]; meta: { total: number } }>(all);
    const entry = page.data.find((item) => item.id === harassment);
    expect(entry).toEqual({
      id: harassment,
      type: "HARASSMENT",
      status: "OPEN",
      description: "Threats in a message.",
      reporterId: owner.id,
      reporterEmail: owner.email,
      targetUserId: finder.id,
      targetEmail: finder.email,
      targetRole: "USER",
      targetSuspended: false,
      tagId: tag.id,
      tagStatus: "LOST",
      messageId: message.id,
      messageContent: "Pay me or else.",
      messageSender: "FINDER",
      threadId: thread.id,
      vin: null,
      relatedTagId: null,
      relatedTagStatus: null,
      relatedUserId: null,
      relatedUserEmail: null,
      alert: null,
      foundReport: null,
      adminNote: null,
      action: null,
      resolvedById: null,
      resolvedAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(page.data.every((item) => item.type === "HARASSMENT")).toBe(true);

    // The open queue is oldest first; one per page.
    const queue = await json<{ data: AdminReport[]; meta: { total: number; page: number; totalPages: number } }>(await adminList(admin, "?status=OPEN&limit=1"));
    expect(queue.meta.totalPages).toBe(queue.meta.total);
    const ids: string[] = [];
    for (let pageNumber = 1; pageNumber <= queue.meta.totalPages; pageNumber++) {
      ids.push(...(await json<{ data: AdminReport[] }>(await adminList(admin, `?status=OPEN&limit=1&page=${pageNumber}`))).data.map((item) => item.id));
    }
    expect(ids.indexOf(harassment)).toBeLessThan(ids.indexOf(spam));
    expect((await json<{ data: AdminReport[] }>(await adminList(admin, "?status=RESOLVED"))).data.every((item) => item.status === "RESOLVED")).toBe(true);

    for (const query of ["?status=CLOSED", "?type=RUDE", "?limit=0", "?page=-1"]) await expectError(await adminList(admin, query), 400, "VALIDATION_ERROR");
  });

  it("sets the status and the note (PATCH); closing records who and when, reopening clears it", async () => {
    const admin = await adminAccount("SUPER_ADMIN");
    const reporter = await registerAccount();
    const id = await reportId(await report(reporter, { type: "OTHER", description: "Look at this." }));

    const reviewing = await adminPatch(admin, id, { status: "REVIEWING", adminNote: "Asked for details." });
    expect(reviewing.status).toBe(200);
    expect((await json<{ data: AdminReport }>(reviewing)).data).toMatchObject({ id, status: "REVIEWING", adminNote: "Asked for details.", resolvedAt: null, resolvedById: null });

    const resolved = (await json<{ data: AdminReport }>(await adminPatch(admin, id, { status: "RESOLVED" }))).data;
    expect(resolved).toMatchObject({ status: "RESOLVED", adminNote: "Asked for details.", resolvedById: admin.id, action: null });
    expect(resolved.resolvedAt).not.toBeNull();

    const reopened = (await json<{ data: AdminReport }>(await adminPatch(admin, id, { status: "OPEN", adminNote: null }))).data;
    expect(reopened).toMatchObject({ status: "OPEN", adminNote: null, resolvedById: null, resolvedAt: null });
    expect((await json<{ data: { status: string }[] }>(await myReports(reporter))).data[0]?.status).toBe("OPEN");

    await expectError(await adminPatch(admin, id, { status: "DONE" }), 400, "VALIDATION_ERROR");
    await expectError(await adminPatch(admin, id, {}), 400, "VALIDATION_ERROR");
    await expectError(await adminPatch(admin, id, { status: "OPEN", adminNote: "x".repeat(2001) }), 400, "VALIDATION_ERROR");
    await expectError(await adminPatch(admin, MISSING_ID, { status: "OPEN" }), 404, "NOT_FOUND");
    await expectError(await adminPatch(admin, "not-a-uuid", { status: "OPEN" }), 404, "NOT_FOUND");
  });
});

describe("admin actions on a report", () => {
  it("WARN_USER tells the target with the note and resolves the report; acting again is 409", async () => {
    const admin = await adminAccount();
    const { owner, finder, message } = await ownerWithFinderMessage();
    const id = await reportId(await report(owner, { type: "HARASSMENT", description: "Rude.", messageId: message.id }));
    const response = await adminAction(admin, id, { action: "WARN_USER", note: "Keep it civil." });
    expect(response.status).toBe(200);
    const resolved = (await json<{ data: AdminReport }>(response)).data;
    expect(resolved).toMatchObject({ status: "RESOLVED", action: "WARN_USER", adminNote: "Keep it civil.", resolvedById: admin.id });
    expect(resolved.resolvedAt).not.toBeNull();

    const notes = await getDatabase().db.select().from(schema.notifications).where(eq(schema.notifications.userId, finder.id));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ type: "SECURITY", data: { reportId: id, action: "WARN_USER" } });
    expect(notes[0]!.body).toContain("Keep it civil.");
    expect(notes[0]!.body).not.toContain(owner.email);

    for (const action of ["WARN_USER", "DISMISS"]) await expectError(await adminAction(admin, id, { action }), 409, "CONFLICT");
    expect((await json<{ data: { status: string }[] }>(await myReports(owner))).data[0]?.status).toBe("RESOLVED");
  });

  it("ten admins acting on one report at once: one action applies, the rest are 409, one warning is sent", async () => {
    const admin = await adminAccount();
    const { owner, finder, message } = await ownerWithFinderMessage();
    const id = await reportId(await report(owner, { type: "HARASSMENT", description: "Rude.", messageId: message.id }));
    const responses = await Promise.all(Array.from({ length: 10 }, () => adminAction(admin, id, { action: "WARN_USER", note: "Once only." })));
    expect(responses.map((response) => response.status).sort()).toEqual([200, ...Array<number>(9).fill(409)]);
    const notes = await getDatabase().db.select().from(schema.notifications).where(eq(schema.notifications.userId, finder.id));
    expect(notes.filter((note) => note.type === "SECURITY")).toHaveLength(1);
  });

  it("DISMISS closes the report as DISMISSED; a PATCH can reopen it for a later action", async () => {
    const admin = await adminAccount();
    const reporter = await registerAccount();
    const id = await reportId(await report(reporter, { type: "OTHER", description: "Nothing really." }));
    const dismissed = (await json<{ data: AdminReport }>(await adminAction(admin, id, { action: "DISMISS" }))).data;
    expect(dismissed).toMatchObject({ status: "DISMISSED", action: "DISMISS", resolvedById: admin.id, adminNote: null });
    await expectError(await adminAction(admin, id, { action: "DISMISS" }), 409, "CONFLICT");
    expect((await adminPatch(admin, id, { status: "REVIEWING" })).status).toBe(200);
    expect((await adminAction(admin, id, { action: "DISMISS", note: "Checked twice." })).status).toBe(200);
  });

  it("refuses an action whose subject the report does not name (422), unknown actions (400) and unknown reports (404)", async () => {
    const admin = await adminAccount();
    const reporter = await registerAccount();
    const id = await reportId(await report(reporter, { type: "OTHER", description: "Vague." }));
    for (const action of ["WARN_USER", "SUSPEND_USER", "DEACTIVATE_TAG", "DELETE_MESSAGE"]) {
      await expectError(await adminAction(admin, id, { action }), 422, "UNPROCESSABLE_ENTITY");
    }
    expect((await reportRow(id))?.status).toBe("OPEN");
    await expectError(await adminAction(admin, id, { action: "BAN" }), 400, "VALIDATION_ERROR");
    await expectError(await adminAction(admin, id, {}), 400, "VALIDATION_ERROR");
    await expectError(await adminAction(admin, MISSING_ID, { action: "DISMISS" }), 404, "NOT_FOUND");
    await expectError(await adminAction(admin, "nope", { action: "DISMISS" }), 404, "NOT_FOUND");
  });

  it("DELETE_MESSAGE deletes the message; the report keeps its thread and loses the message id", async () => {
    const admin = await adminAccount();
    const { owner, thread, message } = await ownerWithFinderMessage("Obscene words.");
    const id = await reportId(await report(owner, { type: "INAPPROPRIATE", description: "Obscene.", messageId: message.id }));
    const other = await reportId(await report(owner, { type: "SPAM", description: "Same message.", messageId: message.id }));
    const response = await adminAction(admin, id, { action: "DELETE_MESSAGE" });
    expect(response.status).toBe(200);
    expect((await json<{ data: AdminReport }>(response)).data).toMatchObject({ status: "RESOLVED", action: "DELETE_MESSAGE", messageId: null, messageContent: null, threadId: thread.id });
    expect(await messageRow(message.id)).toBeUndefined();
    expect(await reportRow(other)).toMatchObject({ messageId: null, threadId: thread.id, status: "OPEN" });
    // The other report of the same message can no longer delete it.
    await expectError(await adminAction(admin, other, { action: "DELETE_MESSAGE" }), 422, "UNPROCESSABLE_ENTITY");
  });

  it("DEACTIVATE_TAG deactivates from any status as moderation the owner cannot undo, and tells the owner", async () => {
    const admin = await adminAccount();
    const reporter = await registerAccount();
    const owner = await registerAccount();
    const lost = await giveTestTag(owner.id, { status: "LOST", itemName: "Scam bag" });
    const id = await reportId(await report(reporter, { type: "SCAM", description: "Asks finders for money.", tagId: lost.id }));
    const response = await adminAction(admin, id, { action: "DEACTIVATE_TAG", note: "Scam message." });
    expect(response.status).toBe(200);
    expect((await json<{ data: AdminReport }>(response)).data).toMatchObject({ status: "RESOLVED", action: "DEACTIVATE_TAG", tagStatus: "DEACTIVATED" });
    expect(await tagRow(lost.id)).toMatchObject({ status: "DEACTIVATED", lostMessage: null });
    const events = await tagEventsOf(lost.id);
    expect(events.at(-1)).toMatchObject({ fromStatus: "LOST", toStatus: "DEACTIVATED", actorKind: "admin", actorUserId: admin.id, reason: `report ${id}` });
    const [note] = await getDatabase().db.select().from(schema.notifications).where(eq(schema.notifications.userId, owner.id));
    expect(note).toMatchObject({ type: "TAG_STATUS_CHANGED", data: { tagId: lost.id, tagStatus: "DEACTIVATED", reportId: id } });

    const reactivate = call(tagStatusRoute, apiRequest(`/api/v1/tags/${lost.id}/status`, { method: "PATCH", headers: auth(owner), body: { status: "ACTIVE" } }), { id: lost.id });
    const refused = await expectError(await reactivate, 403, "FORBIDDEN");
    expect(refused.message).toMatch(/moderators/);
    expect((await tagRow(lost.id))?.status).toBe("DEACTIVATED");

    // A tag its owner had already deactivated becomes the moderators' too.
    const own = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Own" });
    const ownOff = await call(tagStatusRoute, apiRequest(`/api/v1/tags/${own.id}/status`, { method: "PATCH", headers: auth(owner), body: { status: "DEACTIVATED" } }), { id: own.id });
    expect(ownOff.status).toBe(200);
    const second = await reportId(await report(reporter, { type: "SCAM", description: "Again.", tagId: own.id }));
    expect((await adminAction(admin, second, { action: "DEACTIVATE_TAG" })).status).toBe(200);
    await expectError(await call(tagStatusRoute, apiRequest(`/api/v1/tags/${own.id}/status`, { method: "PATCH", headers: auth(owner), body: { status: "ACTIVE" } }), { id: own.id }), 403, "FORBIDDEN");

    // The owner's own deactivation, without moderation, stays theirs to undo.
    const mine = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Mine" });
    for (const status of ["DEACTIVATED", "ACTIVE"]) {
      expect((await call(tagStatusRoute, apiRequest(`/api/v1/tags/${mine.id}/status`, { method: "PATCH", headers: auth(owner), body: { status } }), { id: mine.id })).status).toBe(200);
    }
  });

  it("SUSPEND_USER stops every credential at once with 403: access token, refresh token, API key and web session", async () => {
    const admin = await adminAccount();
    const reporter = await registerAccount();
    const target = await registerAccount();
    const { key } = await createApiKey({ actor: { kind: "user", userId: target.id, role: "USER", ip: "203.0.113.10" }, db: getDatabase().db }, { name: "script" });
    const ask = (headers: Record<string, string>) => call(emergencyRoute, apiRequest("/api/v1/emergency", { ip: nextTestIp(), headers }));
    for (const headers of [bearer(target.accessToken), { "x-api-key": key }, { cookie: target.cookie }]) expect((await ask(headers)).status).toBe(200);

    const id = await reportId(await report(reporter, { type: "HARASSMENT", description: "Abusive.", targetUserId: target.id }));
    const response = await adminAction(admin, id, { action: "SUSPEND_USER", note: "Repeated threats." });
    expect(response.status).toBe(200);
    expect((await json<{ data: AdminReport }>(response)).data).toMatchObject({ status: "RESOLVED", action: "SUSPEND_USER", targetSuspended: true });

    for (const headers of [bearer(target.accessToken), { "x-api-key": key }, { cookie: target.cookie }]) {
      const error = await expectError(await ask(headers), 403, "FORBIDDEN");
      expect(error.message).toMatch(/suspended/);
    }
    await expectError(await call(refreshRoute, apiRequest("/api/v1/auth/refresh", { method: "POST", ip: nextTestIp(), body: { refreshToken: target.refreshToken } })), 403, "FORBIDDEN");
    await expectError(await loginAccount(target.email, target.password), 403, "FORBIDDEN");

    const db = getDatabase().db;
    expect(await db.select().from(schema.sessions).where(and(eq(schema.sessions.userId, target.id), isNull(schema.sessions.revokedAt)))).toEqual([]);
    expect(await db.select().from(schema.apiKeys).where(and(eq(schema.apiKeys.userId, target.id), isNull(schema.apiKeys.revokedAt)))).toEqual([]);
    const [user] = await db.select().from(schema.users).where(eq(schema.users.id, target.id));
    expect(user?.suspendedAt).not.toBeNull();
    const [note] = await db.select().from(schema.notifications).where(eq(schema.notifications.userId, target.id));
    expect(note).toMatchObject({ type: "SECURITY", title: "Your account is suspended" });

    // Other users are untouched; a revoked credential of someone not suspended is still 401.
    expect((await ask(bearer(reporter.accessToken))).status).toBe(200);
    await db.update(schema.sessions).set({ revokedAt: new Date() }).where(eq(schema.sessions.userId, reporter.id));
    await expectError(await ask(bearer(reporter.accessToken)), 401, "UNAUTHORIZED");
  });

  it("SUSPEND_USER follows the roles: an ADMIN suspends users only, a SUPER_ADMIN admins too, no one a SUPER_ADMIN", async () => {
    const admin = await adminAccount("ADMIN");
    const superAdmin = await adminAccount("SUPER_ADMIN");
    const reporter = await registerAccount();
    const otherAdmin = await adminAccount("ADMIN");
    const otherSuper = await adminAccount("SUPER_ADMIN");
    const suspend = async (actor: TestAccount, target: TestAccount) => {
      const id = await reportId(await report(reporter, { type: "OTHER", description: "Misuse.", targetUserId: target.id }));
      return { id, response: await adminAction(actor, id, { action: "SUSPEND_USER" }) };
    };

    const byAdmin = await suspend(admin, otherAdmin);
    await expectError(byAdmin.response, 403, "FORBIDDEN");
    expect((await reportRow(byAdmin.id))?.status).toBe("OPEN");
    await expectError((await suspend(admin, otherSuper)).response, 403, "FORBIDDEN");
    await expectError((await suspend(superAdmin, otherSuper)).response, 403, "FORBIDDEN");
    await expectError((await suspend(superAdmin, superAdmin)).response, 403, "FORBIDDEN");
    expect((await call(emergencyRoute, apiRequest("/api/v1/emergency", { headers: bearer(otherAdmin.accessToken) }))).status).toBe(200);

    // A SUPER_ADMIN may act on the report an ADMIN could not.
    expect((await adminAction(superAdmin, byAdmin.id, { action: "SUSPEND_USER" })).status).toBe(200);
    await expectError(await call(emergencyRoute, apiRequest("/api/v1/emergency", { headers: bearer(otherAdmin.accessToken) })), 403, "FORBIDDEN");
    const user = await registerAccount();
    expect((await suspend(admin, user)).response.status).toBe(200);
  });
});
