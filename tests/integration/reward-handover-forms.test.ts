import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { form, mockNextRequestScope, redirectOf } from "../support/next-request-scope";
import en from "@/messages/en.json";

// The pages' server actions run inside Next's request scope, which a test does not have: `headers()` and
// `cookies()` (the signed-in user's session cookie), the cache invalidation calls (no cache here) and the
// translations of the request's language are given here. The wrapper, next-auth, the rate limiter, the
// services, the route handlers and the database are the real ones.
const request = mockNextRequestScope("192.0.2.91");
const { eq } = await import("drizzle-orm");
const { getDatabase, schema } = await import("@/db/client");
const { finderContactPost } = await import("../support/finder-page");
const { escapeHtml } = await import("@/lib/html-escape");
const { confirmReturnAction } = await import("@/app/(dashboard)/dashboard/tags/[id]/reward-actions");
const { returnCandidates } = await import("@/lib/services/rewards");
const { systemContext } = await import("@/lib/services/context");
const { prepareJobs, stopJobs } = await import("@/lib/jobs");
const { registerAccount } = await import("../support/auth");
const { nextTestIp } = await import("../support/http");
const { contactOwnerOf, threadRowByToken } = await import("../support/messages");
const { giveTestTag } = await import("../support/tags");

beforeAll(async () => {
  await prepareJobs();
});
afterAll(async () => {
  request.cookie = "";
  await stopJobs();
});

async function ownerWithReward() {
  const owner = await registerAccount();
  const tag = await giveTestTag(owner.id, { status: "LOST", itemName: "Blue backpack" });
  const [reward] = await getDatabase().db.insert(schema.rewards).values({ tagId: tag.id, ownerId: owner.id, amountMinor: 2000 }).returning();
  return { owner, tag, reward: reward! };
}

describe("the owner cannot be the finder of their own tag", () => {
  it("the finder page's contact form, signed in as the tag's owner, is refused and opens no conversation", async () => {
    const { owner, tag } = await ownerWithReward();
    const refused = await finderContactPost(tag.encryptedId, { message: "I found it" }, { ip: nextTestIp(), headers: { cookie: owner.cookie, origin: "http://localhost:3000" } });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain(escapeHtml(en.Finder.contactForbidden));
    expect(await getDatabase().db.select().from(schema.threads).where(eq(schema.threads.tagId, tag.id))).toEqual([]);
  });
});

describe("the tag page's confirm-return form names a finder by conversation", () => {
  it("lists the finders' conversations (never the owner's own), and confirms for the chosen one", async () => {
    const { owner, tag, reward } = await ownerWithReward();
    const first = await contactOwnerOf(tag.encryptedId, { message: "Found it", finderName: "Ana" }, { ip: nextTestIp() });
    const second = await contactOwnerOf(tag.encryptedId, { message: "Me too" }, { ip: nextTestIp() });
    // A conversation the owner opened before owners were refused: never offered as a finder.
    await getDatabase().db.insert(schema.threads).values({ tagId: tag.id, ownerId: owner.id, tokenHash: `legacy-${reward.id}`, finderUserId: owner.id });
    const ownerCtx = { ...systemContext(getDatabase().db), actor: { kind: "user" as const, userId: owner.id, role: "USER" as const, ip: "127.0.0.1" } };
    const candidates = await returnCandidates(ownerCtx, tag.id);
    const [firstId, secondId] = [(await threadRowByToken(first.threadToken))!.id, (await threadRowByToken(second.threadToken))!.id];
    expect(candidates.map((candidate) => candidate.threadId).sort()).toEqual([firstId, secondId].sort());
    expect(candidates.find((candidate) => candidate.threadId === firstId)!.finderName).toBe("Ana");
    const stranger = await registerAccount();
    expect(await returnCandidates({ ...ownerCtx, actor: { ...ownerCtx.actor, userId: stranger.id } }, tag.id)).toEqual([]);

    request.cookie = owner.cookie;
    try {
      const refused = await confirmReturnAction({ status: "idle" }, form({ tagId: tag.id, handoverCode: "", threadId: "00000000-0000-4000-8000-000000000000" }));
      expect(refused).toMatchObject({ status: "error", fieldErrors: { threadId: [expect.stringMatching(/not one of this tag's/)] } });
      expect(await redirectOf(confirmReturnAction({ status: "idle" }, form({ tagId: tag.id, handoverCode: "", threadId: firstId })))).toContain("notice=reward-returned-finder");
    } finally {
      request.cookie = "";
    }
    const [row] = await getDatabase().db.select().from(schema.rewards).where(eq(schema.rewards.id, reward.id));
    expect(row).toMatchObject({ status: "RETURNED", returnConfirmation: "OWNER_CHOSE_FINDER", finderThreadId: firstId });
  });
});
