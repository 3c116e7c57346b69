import { describe, expect, it } from "vitest";
import { eq, or } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { DELETE as deleteMeRoute } from "@/app/api/v1/auth/me/route";
import { GET as exportRoute } from "@/app/api/v1/auth/me/export/route";
import { PUT as putEmergencyRoute } from "@/app/api/v1/emergency/route";
import { POST as addContactRoute } from "@/app/api/v1/emergency/contacts/route";
import { POST as reportRoute } from "@/app/api/v1/reports/route";
import { POST as blockRoute } from "@/app/api/v1/users/block/[userId]/route";
import { GET as publicEmergencyRoute } from "@/app/api/v1/scan/[encryptedId]/emergency/route";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, call, nextTestIp } from "../support/http";
import { contactOwnerOf, ownerReply } from "../support/messages";
import { giveTestTag } from "../support/tags";

type Export = Record<string, unknown[]> & { user: { id: string } };

async function ok(response: Response, status = 200) {
  expect(response.status, await response.clone().text()).toBe(status);
  return response;
}

/** An owner with a tag, a finder's conversation, an emergency profile read once, a report and a block. */
async function ownerWithFinderData() {
  const owner = await registerAccount();
  const other = await registerAccount();
  const tag = await giveTestTag(owner.id, { status: "LOST", itemName: "Green umbrella" });
  const auth = bearer(owner.accessToken);
  const contact = await contactOwnerOf(tag.encryptedId, { message: "Found your umbrella at the café.", finderName: "Sam", finderEmail: "sam-secret@example.net" });
  const [thread] = await getDatabase().db.select().from(schema.threads).where(eq(schema.threads.tagId, tag.id));
  await ownerReply(owner, thread!.id, "Thank you! I'll pick it up tonight.");
  await ok(await call(putEmergencyRoute, apiRequest("/api/v1/emergency", { method: "PUT", headers: auth, body: { bloodType: "O-", allergies: ["Penicillin"] } })));
  await ok(await call(addContactRoute, apiRequest("/api/v1/emergency/contacts", { method: "POST", headers: auth, body: { name: "Lee", relationship: "Partner", phone: "+1 555 0100", email: "lee@example.org" } })), 201);
  await ok(await call(publicEmergencyRoute, apiRequest(`/api/v1/scan/${tag.encryptedId}/emergency`, { ip: nextTestIp() }), { encryptedId: tag.encryptedId }));
  const [message] = await getDatabase().db.select().from(schema.threadMessages).where(eq(schema.threadMessages.threadId, thread!.id));
  await ok(await call(reportRoute, apiRequest("/api/v1/reports", { method: "POST", headers: auth, body: { type: "SPAM", description: "Asked me for money first.", messageId: message!.id } })), 201);
  await ok(await call(blockRoute, apiRequest(`/api/v1/users/block/${other.id}`, { method: "POST", headers: auth }), { userId: other.id }));
  return { owner, other, tag, threadId: thread!.id, token: contact.threadToken };
}

async function exportOf(account: TestAccount): Promise<{ data: Export; text: string }> {
  const response = await ok(await call(exportRoute, apiRequest("/api/v1/auth/me/export", { ip: nextTestIp(), headers: bearer(account.accessToken) })));
  const text = await response.text();
  return { data: (JSON.parse(text) as { data: Export }).data, text };
}

describe("the account export and deletion cover the finder's side", () => {
  it("exports threads with their messages, the emergency profile, contacts and access log, reports, blocks and notifications", async () => {
    const { owner, other, tag, threadId } = await ownerWithFinderData();
    const { data, text } = await exportOf(owner);

    const threads = data.messages as { threadId: string; role: string; messages: { sender: string; content: string }[] }[];
    expect(threads).toHaveLength(1);
    expect(threads[0]).toMatchObject({ threadId, role: "OWNER" });
    expect(threads[0]!.messages.map((message) => message.sender)).toEqual(["FINDER", "OWNER"]);

    const [emergency] = data.emergency as { profile: { bloodType: string; allergies: string[] }; contacts: { name: string; email: string }[]; accessLog: { tagId: string }[] }[];
    expect(emergency!.profile).toMatchObject({ bloodType: "O-", allergies: ["Penicillin"] });
    expect(emergency!.contacts).toEqual([expect.objectContaining({ name: "Lee", email: "lee@example.org" })]);
    expect(emergency!.accessLog).toEqual([expect.objectContaining({ tagId: tag.id })]);

    expect(data.reports).toEqual([expect.objectContaining({ type: "SPAM", status: "OPEN", description: "Asked me for money first." })]);
    expect(data.blockedUsers).toEqual([expect.objectContaining({ userId: other.id })]);
    const types = (data.notifications as { type: string }[]).map((notification) => notification.type);
    expect(types).toEqual(expect.arrayContaining(["MESSAGE_RECEIVED", "EMERGENCY_ACCESSED"]));

    // The finder's e-mail address, the readers' IP hashes and the thread token never leave with the owner's data.
    expect(text).not.toContain("sam-secret@example.net");
    expect(text).not.toMatch(/ipHash|tokenHash|tokenSealed/);
  });

  it("deletes every part of it with the account, and leaves the other user's data alone", async () => {
    const { owner, other, tag } = await ownerWithFinderData();
    await ok(await call(deleteMeRoute, apiRequest("/api/v1/auth/me", { method: "DELETE", ip: nextTestIp(), headers: bearer(owner.accessToken), body: { currentPassword: owner.password } })));
    const db = getDatabase().db;
    expect(await db.select().from(schema.threads).where(eq(schema.threads.ownerId, owner.id))).toEqual([]);
    expect(await db.select().from(schema.threads).where(eq(schema.threads.tagId, tag.id))).toEqual([]);
    expect(await db.select().from(schema.emergencyProfiles).where(eq(schema.emergencyProfiles.userId, owner.id))).toEqual([]);
    expect(await db.select().from(schema.emergencyContacts).where(eq(schema.emergencyContacts.userId, owner.id))).toEqual([]);
    expect(await db.select().from(schema.emergencyAccesses).where(eq(schema.emergencyAccesses.userId, owner.id))).toEqual([]);
    expect(await db.select().from(schema.reports).where(eq(schema.reports.reporterId, owner.id))).toEqual([]);
    expect(await db.select().from(schema.userBlocks).where(or(eq(schema.userBlocks.blockerId, owner.id), eq(schema.userBlocks.blockedId, owner.id)))).toEqual([]);
    const [stillThere] = await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.id, other.id));
    expect(stillThere?.id).toBe(other.id);
    const { data } = await exportOf(other);
    expect(data.user.id).toBe(other.id);
  });
});
