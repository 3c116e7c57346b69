import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { form, mockNextRequestScope, redirectOf } from "../support/next-request-scope";

// The conversation page's server action runs inside Next's request scope, which a test does not have:
// `headers()` and `cookies()` (the signed-in owner's session cookie), the cache invalidation calls and the
// translations are given here. The route handlers, the wrapper, the services and the database are the real ones.
const request = mockNextRequestScope("192.0.2.93");
const { and, eq, sql } = await import("drizzle-orm");
const { getDatabase, schema } = await import("@/db/client");
const { POST: locationRoute } = await import("@/app/api/v1/scan/thread/[token]/location/route");
const { confirmReturnForThreadAction } = await import("@/app/(dashboard)/dashboard/messages/[threadId]/actions");
const { JOBS_SCHEMA, prepareJobs, stopJobs } = await import("@/lib/jobs");
const { listMailbox, extractLinks } = await import("@/lib/email/mailbox");
const { sendNotificationEmail } = await import("@/lib/services/notifications/email");
const { sendNotificationPush } = await import("@/lib/services/notifications/push");
const { notificationAction } = await import("@/lib/services/notifications/actions");
const { MINUTE_MS } = await import("@/lib/ratelimit/policies");
const { registerAccount } = await import("../support/auth");
const { apiRequest, awayFromWindowEdge, call, json, nextTestIp } = await import("../support/http");
const { contactOwnerOf, finderReplyRequest, finderThread, inbox, ownerThread, statusRequest, threadRowByToken } = await import("../support/messages");
const { startPushService } = await import("../support/push-service");
const { giveTestTag, tagRow } = await import("../support/tags");
const { USER_AGENTS: UA } = await import("../support/user-agents");

type TestAccount = Awaited<ReturnType<typeof registerAccount>>;
type ErrorBody = { success: false; error: { code: string; message: string; details?: { fieldErrors?: Record<string, string[]> } } };
type Message = { id: string; sender: string; content: string; createdAt: string; warnings: string[]; location: { latitude: number; longitude: number; accuracy: number | null } | null };

beforeAll(async () => {
  await prepareJobs();
});
afterAll(async () => {
  request.cookie = "";
  await stopJobs();
});

const db = () => getDatabase().db;
const EIFFEL = { latitude: 48.85837, longitude: 2.294481, accuracy: 12.5 };

function shareRequest(token: string, body: unknown, options: { ip?: string; rawBody?: string } = {}): Promise<Response> {
  return call(
    locationRoute,
    apiRequest(`/api/v1/scan/thread/${encodeURIComponent(token)}/location`, {
      method: "POST",
      ...(options.rawBody !== undefined ? { rawBody: options.rawBody, headers: { "content-type": "application/json", "user-agent": UA.iphoneSafari } } : { body, headers: { "user-agent": UA.iphoneSafari } }),
      ip: options.ip ?? nextTestIp(),
    }),
    { token },
  );
}

async function share(token: string, body: unknown = EIFFEL, ip?: string): Promise<Message> {
  const response = await shareRequest(token, body, { ip });
  if (response.status !== 201) throw new Error(`share failed: ${response.status} ${await response.text()}`);
  return (await json<{ data: Message }>(response)).data;
}

async function conversation(options: { owner?: TestAccount; tag?: Awaited<ReturnType<typeof giveTestTag>>; finderName?: string } = {}) {
  const owner = options.owner ?? (await registerAccount());
  const tag = options.tag ?? (await giveTestTag(owner.id, { status: "LOST", itemName: "Rex" }));
  const { threadToken } = await contactOwnerOf(tag.encryptedId, { message: "I found your dog near the tower", finderName: options.finderName ?? "Sam" });
  const threadId = (await threadRowByToken(threadToken))!.id;
  return { owner, tag, token: threadToken, threadId };
}

function notificationsOf(userId: string, type?: "FINDER_LOCATION_SHARED" | "MESSAGE_RECEIVED") {
  const mine = eq(schema.notifications.userId, userId);
  return db()
    .select()
    .from(schema.notifications)
    .where(type ? and(mine, eq(schema.notifications.type, type)) : mine)
    .orderBy(schema.notifications.createdAt);
}

/** The e-mail and push jobs held (live or archived) for one notification. */
async function deliveryJobs(notificationId: string): Promise<string[]> {
  const result: unknown = await db().execute(
    sql`select name from ${sql.raw(JOBS_SCHEMA)}.job where data->>'notificationId' = ${notificationId}
        union all
        select name from ${sql.raw(JOBS_SCHEMA)}.archive where data->>'notificationId' = ${notificationId}`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { name: string }[];
  return rows.map((row) => row.name).sort();
}

function locationScans(tagId: string) {
  return db()
    .select()
    .from(schema.scans)
    .where(and(eq(schema.scans.tagId, tagId), eq(schema.scans.locationShared, true)));
}

/** Every way a coordinate of EIFFEL could be written out. */
const COORDINATE_TEXT = /48[.,]858|2[.,]294|48[.,]86\b|2[.,]29\b/;

describe("POST /api/v1/scan/thread/{token}/location", () => {
  it("adds the place as a message both sides see, with its accuracy and time; keeps it in the tag's scans", async () => {
    const { owner, tag, token, threadId } = await conversation();
    const ip = nextTestIp();
    const response = await shareRequest(token, EIFFEL, { ip });
    expect(response.status).toBe(201);
    const { data } = await json<{ data: Message }>(response);
    expect(data).toEqual({ id: expect.any(String), sender: "FINDER", content: "Location shared (within 13 m).", createdAt: expect.any(String), warnings: [], location: EIFFEL, channel: "web", call: null });
    // The text never holds the place: it is what the inbox previews and notifications quote.
    expect(data.content).not.toMatch(COORDINATE_TEXT);

    const seenByFinder = await finderThread(token);
    expect(seenByFinder.messages.map((message) => message.location)).toEqual([null, EIFFEL]);
    expect(seenByFinder.messages.at(-1)).toEqual(data);
    const seenByOwner = await ownerThread(owner, threadId);
    expect(seenByOwner.messages.at(-1)).toEqual(data);
    expect(seenByOwner.messages[0]!.location).toBeNull();

    // The inbox's preview and order follow it, as any message.
    const listed = (await inbox(owner)).data.find((thread) => thread.id === threadId)!;
    expect(listed.lastMessage).toBe(data.content);
    expect(listed.lastMessageAt).toBe(data.createdAt);
    expect(listed.unreadCount).toBe(2);

    // The tag's scan list and map keep the place (not as a scan of the tag).
    const [scan] = await locationScans(tag.id);
    expect(scan).toMatchObject({ latitude: EIFFEL.latitude, longitude: EIFFEL.longitude, accuracy: EIFFEL.accuracy, scanClass: "REAL", agent: "iPhone · Safari" });
    expect((await tagRow(tag.id))!.scanCount).toBe(0);

    // Without an accuracy, the message says nothing of one.
    const rough = await share(token, { latitude: -33.8568, longitude: 151.2153 });
    expect(rough).toMatchObject({ content: "Location shared.", location: { latitude: -33.8568, longitude: 151.2153, accuracy: null } });
  });

  it("is refused like a reply: 403 on a CLOSED or BLOCKED conversation, 404 for an unknown or malformed token; nothing is kept", async () => {
    const { owner, tag, token, threadId } = await conversation();
    expect((await statusRequest(owner, threadId, "CLOSED")).status).toBe(200);
    const closed = await shareRequest(token, EIFFEL);
    expect(closed.status).toBe(403);
    expect((await json<ErrorBody>(closed)).error.code).toBe("FORBIDDEN");
    expect((await statusRequest(owner, threadId, "BLOCKED")).status).toBe(200);
    expect((await shareRequest(token, EIFFEL)).status).toBe(403);

    const unknown = await shareRequest("q3Vd1oGk2m8pYb7Q0wzR9xJtH4sLcN6eA5fU1iO3yKg", EIFFEL);
    expect(unknown.status).toBe(404);
    expect((await json<ErrorBody>(unknown)).error.code).toBe("NOT_FOUND");
    expect((await shareRequest("short", EIFFEL)).status).toBe(404);
    expect((await shareRequest((await threadRowByToken(token))!.tokenHash, EIFFEL)).status).toBe(404);

    expect((await finderThread(token)).messages).toHaveLength(1);
    expect(await locationScans(tag.id)).toEqual([]);
    expect(await notificationsOf(owner.id, "FINDER_LOCATION_SHARED")).toEqual([]);
  });

  it("answers 400 with the field for coordinates out of range, wrong types, a missing field and a body that is not JSON", async () => {
    const { token } = await conversation();
    const cases: [unknown, string][] = [
      [{ latitude: 90.0001, longitude: 0 }, "latitude"],
      [{ latitude: -91, longitude: 0 }, "latitude"],
      [{ latitude: 0, longitude: 180.5 }, "longitude"],
      [{ latitude: 0, longitude: -181 }, "longitude"],
      [{ latitude: 0, longitude: 0, accuracy: -1 }, "accuracy"],
      [{ latitude: 0, longitude: 0, accuracy: 100_001 }, "accuracy"],
      [{ latitude: "48.85", longitude: 2.29 }, "latitude"],
      [{ latitude: 48.85, longitude: null }, "longitude"],
      [{ longitude: 2.29 }, "latitude"],
      [{ latitude: 48.85 }, "longitude"],
      [{ latitude: 0, longitude: 0, accuracy: "12" }, "accuracy"],
    ];
    for (const [body, field] of cases) {
      const response = await shareRequest(token, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const error = (await json<ErrorBody>(response)).error;
      expect(error.code).toBe("VALIDATION_ERROR");
      expect(Object.keys(error.details!.fieldErrors!), JSON.stringify(body)).toContain(field);
    }
    for (const rawBody of ["{", "null", "[]", '"here"', '{"latitude": NaN, "longitude": 0}']) {
      const response = await shareRequest(token, undefined, { rawBody });
      expect(response.status, rawBody).toBe(400);
    }
    // The edges are places.
    for (const body of [
      { latitude: 90, longitude: 180, accuracy: 0 },
      { latitude: -90, longitude: -180, accuracy: 100_000 },
      { latitude: 0, longitude: 0, accuracy: null },
    ]) {
      expect((await shareRequest(token, body)).status, JSON.stringify(body)).toBe(201);
    }
    expect((await finderThread(token)).messages.filter((message) => message.location)).toHaveLength(3);
  });

  it("takes 30 per 10 minutes from one IP, one budget with the replies: the 31st is 429 and adds nothing", async () => {
    await awayFromWindowEdge(10 * MINUTE_MS, 60_000);
    const { token } = await conversation();
    const ip = nextTestIp();
    for (let i = 1; i <= 29; i++) {
      const response = await shareRequest(token, { latitude: 48.8 + i / 1000, longitude: 2.29 }, { ip });
      expect(response.status, `share ${i}`).toBe(201);
      expect(response.headers.get("X-RateLimit-Limit")).toBe("30");
    }
    // The 30th from this IP is a reply: the same counter.
    expect((await finderReplyRequest(token, { message: "I'm waiting by the tower" }, { ip })).status).toBe(201);
    const limited = await shareRequest(token, EIFFEL, { ip });
    expect(limited.status).toBe(429);
    expect((await json<ErrorBody>(limited)).error.code).toBe("RATE_LIMIT_EXCEEDED");
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(Number(limited.headers.get("Retry-After"))).toBeLessThanOrEqual(600);
    expect((await finderReplyRequest(token, { message: "Still here" }, { ip })).status).toBe(429);
    // 1 contact + 29 places + 1 reply.
    expect((await finderThread(token)).messages).toHaveLength(31);
    // Another IP is not held back.
    expect((await shareRequest(token, EIFFEL)).status).toBe(201);
  });

  it("tells the owner once per conversation per 10 minutes (e-mail and push); a place shared again in between is a quiet message notification", async () => {
    const { owner, tag, token, threadId } = await conversation();
    const first = await share(token);
    const [alert] = await notificationsOf(owner.id, "FINDER_LOCATION_SHARED");
    expect(alert).toMatchObject({
      title: "A finder shared their location",
      body: "Sam shared where they are in the conversation about “Rex” (to within 13 m). Open the conversation to see the place on a map.",
      data: { tagId: tag.id, threadId, messageId: first.id, scanId: expect.any(String), ...EIFFEL },
    });
    expect(notificationAction("FINDER_LOCATION_SHARED", alert!.data)).toEqual({ label: "See the shared location", path: `/dashboard/messages/${threadId}#shared-locations` });
    expect(await deliveryJobs(alert!.id)).toEqual(["notifications.email", "notifications.push"]);

    // Again within 10 minutes, from another IP too: no second alert, but the owner's inbox and open pages hear of it.
    const messagesBefore = (await notificationsOf(owner.id, "MESSAGE_RECEIVED")).length;
    await share(token, { latitude: 48.8584, longitude: 2.2945, accuracy: 30 });
    expect(await notificationsOf(owner.id, "FINDER_LOCATION_SHARED")).toHaveLength(1);
    const quiet = (await notificationsOf(owner.id, "MESSAGE_RECEIVED")).slice(messagesBefore);
    expect(quiet).toHaveLength(1);
    expect(quiet[0]).toMatchObject({ title: "New location about “Rex”", body: "Sam: Location shared (within 30 m).", data: { threadId, tagId: tag.id } });
    expect(await deliveryJobs(quiet[0]!.id)).toEqual([]);

    // Another finder's conversation on the same tag has its own alert.
    const other = await conversation({ owner, tag, finderName: "Ana" });
    await share(other.token);
    expect(await notificationsOf(owner.id, "FINDER_LOCATION_SHARED")).toHaveLength(2);

    // Ten minutes on, the same conversation alerts again.
    await db()
      .update(schema.threadMessages)
      .set({ createdAt: sql`${schema.threadMessages.createdAt} - interval '11 minutes'` })
      .where(eq(schema.threadMessages.threadId, threadId));
    await share(token);
    expect(await notificationsOf(owner.id, "FINDER_LOCATION_SHARED")).toHaveLength(3);
  });

  it("never puts the place in the e-mail or the push (words or links); the notification's data keeps it for the owner", async () => {
    const { owner, token } = await conversation();
    await share(token);
    const [alert] = await notificationsOf(owner.id, "FINDER_LOCATION_SHARED");
    expect(`${alert!.title} ${alert!.body}`).not.toMatch(COORDINATE_TEXT);

    expect(await sendNotificationEmail(db(), alert!.id)).toBe("sent");
    const [mail] = await listMailbox({ to: owner.email, limit: 1 });
    expect(mail!.subject).toBe("A finder shared their location");
    expect(mail!.text).toContain("Sam shared where they are");
    expect(mail!.text).not.toMatch(COORDINATE_TEXT);
    expect(mail!.html).not.toMatch(COORDINATE_TEXT);
    const links = extractLinks(mail!);
    expect(links.some((link) => link.includes(`/dashboard/notifications/${alert!.id}/open`))).toBe(true);
    expect(links.every((link) => !COORDINATE_TEXT.test(link) && !link.includes("openstreetmap"))).toBe(true);

    const service = await startPushService();
    try {
      const device = service.createSubscription();
      await db().insert(schema.pushSubscriptions).values({ userId: owner.id, endpoint: device.endpoint, p256dh: device.keys.p256dh, auth: device.keys.auth });
      expect(await sendNotificationPush(db(), alert!.id, { allowPrivate: true })).toMatchObject({ delivered: 1, failed: 0 });
      const [push] = service.receivedBy(device.id);
      const payload = JSON.parse(push!.payload) as { title: string; body: string; url: string };
      expect(payload).toMatchObject({ title: "A finder shared their location", url: `/dashboard/notifications/${alert!.id}/open` });
      expect(push!.payload).not.toMatch(COORDINATE_TEXT);
    } finally {
      await service.close();
    }
  });

  it("ten shares at once all succeed, in order, with exactly one alert", async () => {
    const { owner, token } = await conversation();
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => shareRequest(token, { latitude: 48.85 + i / 1000, longitude: 2.29, accuracy: 10 + i })));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(201));
    const messages = (await finderThread(token)).messages.filter((message) => message.location);
    expect(messages).toHaveLength(10);
    expect(new Set(messages.map((message) => message.location!.accuracy)).size).toBe(10);
    expect(await notificationsOf(owner.id, "FINDER_LOCATION_SHARED")).toHaveLength(1);
  });

  it("once the tag belongs to someone else, the place stays in the old owner's conversation and never reaches the new owner's scans", async () => {
    const { owner, tag, token, threadId } = await conversation();
    const newOwner = await registerAccount();
    await db().update(schema.tags).set({ ownerId: newOwner.id }).where(eq(schema.tags.id, tag.id));
    const message = await share(token);
    expect((await ownerThread(owner, threadId)).messages.at(-1)).toEqual(message);
    expect(await locationScans(tag.id)).toEqual([]);
    const [alert] = await notificationsOf(owner.id, "FINDER_LOCATION_SHARED");
    // The tag is no longer theirs: no item name, no scan; the link is the conversation.
    expect(alert).toMatchObject({ body: expect.stringContaining("about your tag"), data: { threadId, scanId: null } });
    expect(await notificationsOf(newOwner.id)).toEqual([]);
  });
});

describe("the conversation page's “Confirm the return for this finder”", () => {

  async function asOwner<T>(account: TestAccount, run: () => Promise<T>): Promise<T> {
    request.ip = nextTestIp();
    request.cookie = account.cookie;
    try {
      return await run();
    } finally {
      request.cookie = "";
    }
  }

  async function withReward() {
    const first = await conversation();
    const second = await conversation({ owner: first.owner, tag: first.tag, finderName: "Ana" });
    const [reward] = await db().insert(schema.rewards).values({ tagId: first.tag.id, ownerId: first.owner.id, amountMinor: 5000 }).returning();
    return { ...first, other: second, reward: reward! };
  }

  const rewardRow = async (id: string) => (await db().select().from(schema.rewards).where(eq(schema.rewards.id, id)))[0]!;

  it("asks for the box to be ticked first, then confirms for this conversation's finder and says so", async () => {
    const { owner, threadId, token, other, reward } = await withReward();
    const unticked = await asOwner(owner, () => confirmReturnForThreadAction({ status: "idle" }, form({ threadId })));
    expect(unticked).toMatchObject({ status: "error", fieldErrors: { confirmed: ["Tick the box to confirm that this finder gave your item back."] } });
    expect((await rewardRow(reward.id)).status).toBe("ACTIVE");

    const location = await asOwner(owner, () => redirectOf(confirmReturnForThreadAction({ status: "idle" }, form({ threadId, confirmed: "on" }))));
    expect(location).toBe(`/dashboard/messages/${threadId}?notice=reward-returned-finder`);
    expect(await rewardRow(reward.id)).toMatchObject({ status: "RETURNED", returnConfirmation: "OWNER_CHOSE_FINDER", finderThreadId: threadId, verifiedHandover: false });
    // This finder is thanked; the other conversation is closed and only told the item is home.
    expect((await threadRowByToken(token))!.status).toBe("ACTIVE");
    expect((await threadRowByToken(other.token))!.status).toBe("CLOSED");

    // Pressed again (another tab): the reward is no longer open, said beside the form; nothing changes.
    const again = await asOwner(owner, () => confirmReturnForThreadAction({ status: "idle" }, form({ threadId, confirmed: "on" })));
    expect(again).toMatchObject({ status: "error", message: "There is no ACTIVE reward on this tag to confirm." });
    expect((await rewardRow(reward.id)).finderThreadId).toBe(threadId);
  });

  it("takes the tag from the conversation, never from the form; another owner's conversation and the owner's own are refused", async () => {
    const { owner, threadId, tag, reward } = await withReward();
    // Someone else's conversation reads as missing, and their reward is untouched.
    const stranger = await registerAccount();
    const refused = await asOwner(stranger, () => confirmReturnForThreadAction({ status: "idle" }, form({ threadId, confirmed: "on", tagId: tag.id })));
    expect(refused.status).toBe("error");
    expect((await rewardRow(reward.id)).status).toBe("ACTIVE");

    // A conversation the owner opened on their own tag (before owners were refused) names no finder.
    const [own] = await db().insert(schema.threads).values({ tagId: tag.id, ownerId: owner.id, tokenHash: `own-${reward.id}`, finderUserId: owner.id }).returning();
    const ownRefused = await asOwner(owner, () => confirmReturnForThreadAction({ status: "idle" }, form({ threadId: own!.id, confirmed: "on" })));
    expect(ownRefused).toMatchObject({ status: "error", message: expect.stringMatching(/owner cannot be the finder/) });
    expect((await rewardRow(reward.id)).status).toBe("ACTIVE");

    // A malformed id names nothing.
    expect((await asOwner(owner, () => confirmReturnForThreadAction({ status: "idle" }, form({ threadId: "../../rewards", confirmed: "on" })))).status).toBe("error");
    expect((await rewardRow(reward.id)).status).toBe("ACTIVE");
  });
});
