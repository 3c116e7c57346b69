import { afterAll, afterEach, describe, expect, it } from "vitest";
import { connectPglite, connectPostgres, setDatabase, type DatabaseHandle } from "@/db/client";
import { GET as streamRoute } from "@/app/api/v1/notifications/stream/route";
import { getNotificationHub, NotificationHub, openNotificationStream, setPingInterval, stopNotificationHub } from "@/lib/realtime";
import { systemContext, withTransaction } from "@/lib/services/context";
import { notify } from "@/lib/services/notifications/notify";
import { eq } from "drizzle-orm";
import { schema } from "@/db/client";
import { POST as logoutRoute } from "@/app/api/v1/auth/logout/route";
import { POST as changePasswordRoute } from "@/app/api/v1/auth/change-password/route";
import { GET as listSessionsRoute } from "@/app/api/v1/auth/sessions/route";
import { DELETE as deleteSessionRoute } from "@/app/api/v1/auth/sessions/[id]/route";
import { POST as createApiKeyRoute } from "@/app/api/v1/auth/api-keys/route";
import { DELETE as deleteApiKeyRoute } from "@/app/api/v1/auth/api-keys/[id]/route";
import { verifyAccessToken } from "@/lib/auth/access-token";
import { apiRequest, call, json, nextTestIp } from "../support/http";
import { bearer, loginAccount, registerAccount, type TestAccount } from "../support/auth";
import { databaseUrl, usingPostgres } from "../support/database";
import { testDatabase } from "../support/integration-setup";

interface Frame {
  raw: string;
  id?: string;
  event?: string;
  data?: { id: string; type: string; title: string; body: string; createdAt: string };
  comment?: string;
}

function parseFrame(raw: string): Frame {
  const frame: Frame = { raw };
  for (const line of raw.split("\n")) {
    if (line.startsWith(":")) frame.comment = line.slice(1).trim();
    else if (line.startsWith("id: ")) frame.id = line.slice(4);
    else if (line.startsWith("event: ")) frame.event = line.slice(7);
    else if (line.startsWith("data: ")) frame.data = JSON.parse(line.slice(6)) as Frame["data"];
  }
  return frame;
}

/** Reads SSE frames off a Response body, one block (up to a blank line) at a time. */
class FrameReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffer = "";
  private pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  done = false;

  constructor(response: Response) {
    this.reader = response.body!.getReader();
  }

  /** The next frame, or null when the stream ended; skips the retry line and (unless asked) pings. */
  async next({ timeoutMs = 1000, pings = false } = {}): Promise<Frame | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = this.buffer.indexOf("\n\n");
      if (end >= 0) {
        const frame = parseFrame(this.buffer.slice(0, end));
        this.buffer = this.buffer.slice(end + 2);
        if (frame.raw.startsWith("retry:")) continue;
        if (frame.comment === "ping" && !pings) continue;
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

const readers: FrameReader[] = [];

async function openStream(account: TestAccount, init: { lastEventId?: string; query?: string; signal?: AbortSignal; credential?: Record<string, string> } = {}) {
  const headers = { ...(init.credential ?? bearer(account.accessToken)), ...(init.lastEventId ? { "Last-Event-ID": init.lastEventId } : {}) };
  let request = apiRequest(`/api/v1/notifications/stream${init.query ?? ""}`, { headers });
  if (init.signal) request = new Request(request, { signal: init.signal });
  const response = await call(streamRoute, request);
  expect(response.status).toBe(200);
  const reader = new FrameReader(response);
  readers.push(reader);
  return { response, reader };
}

let counter = 0;
async function notifyUser(userId: string, title = `Notification ${++counter}`) {
  return notify(systemContext(testDatabase().db), { userId, type: "TAG_SCANNED", title, body: `Body of ${title}` });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(async () => {
  setPingInterval();
  for (const reader of readers.splice(0)) await reader.cancel();
});

afterAll(async () => {
  await stopNotificationHub();
});

describe("GET /api/v1/notifications/stream", () => {
  it("answers 401 without a credential", async () => {
    const response = await call(streamRoute, apiRequest("/api/v1/notifications/stream"));
    expect(response.status).toBe(401);
    expect((await json<{ success: boolean; error: { code: string } }>(response)).error.code).toBe("UNAUTHORIZED");
  });

  it("streams with the event-stream headers and sends a frame within a second of notify(), to its user only", async () => {
    const alice = await registerAccount();
    const bob = await registerAccount();
    const a = await openStream(alice);
    const b = await openStream(bob);
    expect(a.response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(a.response.headers.get("cache-control")).toBe("no-cache, no-transform");
    expect(a.response.headers.get("x-accel-buffering")).toBe("no");
    expect(a.response.headers.get("connection")).toBe("keep-alive");

    const started = Date.now();
    const forAlice = await notifyUser(alice.id, "Your tag was scanned");
    const frame = await a.reader.next({ timeoutMs: 1000 });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(frame!.raw).toBe(
      `id: ${forAlice.id}\nevent: notification\ndata: ${JSON.stringify({ id: forAlice.id, type: "TAG_SCANNED", title: "Your tag was scanned", body: "Body of Your tag was scanned", createdAt: forAlice.createdAt.toISOString() })}`,
    );

    // Bob's next frame is his own notification: Alice's never reached his stream.
    const forBob = await notifyUser(bob.id);
    const bobFrame = await b.reader.next();
    expect(bobFrame!.id).toBe(forBob.id);
    expect(bobFrame!.data!.id).toBe(forBob.id);
  });

  it("replays exactly the notifications after Last-Event-ID, oldest first, then goes live", async () => {
    const account = await registerAccount();
    const seen = await notifyUser(account.id);
    const missed = [];
    for (let i = 0; i < 3; i++) {
      await sleep(5);
      missed.push(await notifyUser(account.id));
    }
    const other = await registerAccount();
    await notifyUser(other.id);

    const { reader } = await openStream(account, { lastEventId: seen.id });
    for (const notification of missed) expect((await reader.next())!.id).toBe(notification.id);
    const live = await notifyUser(account.id);
    expect((await reader.next())!.id).toBe(live.id);

    // The query parameter works the same for a first connect.
    const fromQuery = await openStream(account, { query: `?lastEventId=${missed[1]!.id}` });
    expect((await fromQuery.reader.next())!.id).toBe(missed[2]!.id);
    expect((await fromQuery.reader.next())!.id).toBe(live.id);
  });

  it("replays nothing for an unknown, malformed or other user's id", async () => {
    const account = await registerAccount();
    const other = await registerAccount();
    await notifyUser(account.id);
    const othersNotification = await notifyUser(other.id);
    for (const lastEventId of [othersNotification.id, "00000000-0000-4000-8000-000000000000", "not-an-id"]) {
      const { reader } = await openStream(account, { lastEventId });
      const live = await notifyUser(account.id);
      expect((await reader.next())!.id).toBe(live.id);
      await reader.cancel();
    }
  });

  it("sends nothing for a notification in a rolled-back transaction", async () => {
    const account = await registerAccount();
    const { reader } = await openStream(account);
    const ctx = systemContext(testDatabase().db);
    let rolledBackId: string | undefined;
    await expect(
      withTransaction(ctx, async (tx) => {
        rolledBackId = (await notify(tx, { userId: account.id, type: "SECURITY", title: "never", body: "never" })).id;
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(rolledBackId).toBeDefined();
    await sleep(300);
    const committed = await notifyUser(account.id);
    expect((await reader.next())!.id).toBe(committed.id);
  });

  it("sends a ping comment at the (injected) interval", async () => {
    setPingInterval(50);
    const account = await registerAccount();
    const { reader } = await openStream(account);
    const frame = await reader.next({ pings: true, timeoutMs: 1000 });
    expect(frame!.raw).toBe(": ping");
    expect((await reader.next({ pings: true, timeoutMs: 1000 }))!.raw).toBe(": ping");
  });

  it("closes the oldest stream when a user opens a sixth, telling it it was superseded", async () => {
    const account = await registerAccount();
    const streams = [];
    for (let i = 0; i < 5; i++) streams.push(await openStream(account));
    const hub = getNotificationHub();
    expect(hub.streamCount(account.id)).toBe(5);
    const sixth = await openStream(account);
    expect(hub.streamCount(account.id)).toBe(5);
    // The oldest is told why before it ends, so a client can stay away instead of reconnecting at once.
    const superseded = await streams[0]!.reader.next();
    expect(superseded).toMatchObject({ event: "superseded", data: { reason: expect.stringMatching(/newer stream/) } });
    expect(await streams[0]!.reader.next()).toBeNull();

    const live = await notifyUser(account.id);
    for (const stream of [...streams.slice(1), sixth]) expect((await stream.reader.next())!.id).toBe(live.id);
  });

  it("removes a stream from the registry when the request is aborted or the reader cancels", async () => {
    const account = await registerAccount();
    const hub = getNotificationHub();
    const controller = new AbortController();
    const aborted = await openStream(account, { signal: controller.signal });
    const cancelled = await openStream(account);
    expect(hub.streamCount(account.id)).toBe(2);

    controller.abort();
    expect(hub.streamCount(account.id)).toBe(1);
    expect(await aborted.reader.next()).toBeNull();

    await cancelled.reader.cancel();
    expect(hub.streamCount(account.id)).toBe(0);
  });
});

describe("the notification hub", () => {
  it("keeps one hub per database handle and stops it when the handle changes", async () => {
    const hub = getNotificationHub();
    expect(getNotificationHub()).toBe(hub);
    const account = await registerAccount();
    const { reader } = await openStream(account);

    const replacement: DatabaseHandle = { ...testDatabase() };
    setDatabase(replacement);
    try {
      const next = getNotificationHub();
      expect(next).not.toBe(hub);
      expect(hub.isStopped).toBe(true);
      // The old hub's streams end with it.
      expect(await reader.next()).toBeNull();
    } finally {
      setDatabase(testDatabase());
    }
  });

  it("delivers a burst committed at once in a few queries, in commit order, and skips users with no stream here without a query", async () => {
    const hub = getNotificationHub();
    const watched = await registerAccount();
    const elsewhere = await registerAccount();
    const { reader } = await openStream(watched);
    const before = hub.stats();

    // 100 notifications (and 20 for a user streaming nowhere) in one transaction: their signals arrive together at commit.
    const created: string[] = [];
    await withTransaction(systemContext(testDatabase().db), async (tx) => {
      for (let i = 0; i < 100; i += 1) {
        created.push((await notify(tx, { userId: watched.id, type: "TAG_SCANNED", title: `Burst ${i}`, body: "burst" })).id);
        if (i % 5 === 0) await notify(tx, { userId: elsewhere.id, type: "TAG_SCANNED", title: `Unwatched ${i}`, body: "burst" });
      }
    });
    const received: string[] = [];
    for (let i = 0; i < created.length; i += 1) received.push((await reader.next({ timeoutMs: 5_000 }))!.id!);
    expect(received).toEqual(created);

    const after = hub.stats();
    expect(after.signals - before.signals).toBe(120);
    expect(after.skipped - before.skipped).toBe(20);
    expect(after.delivered - before.delivered).toBe(100);
    expect(after.loads - before.loads).toBeGreaterThanOrEqual(1);
    expect(after.loads - before.loads).toBeLessThanOrEqual(10);
  });

  it("delivers a notification committed on one connection to streams of another instance's hub, and back", async () => {
    const database = testDatabase();
    // A second app instance: its own connection (PostgreSQL) or a second subscriber on the same engine (PGlite).
    const second = usingPostgres() ? connectPostgres(databaseUrl(database.name), { max: 2 }) : connectPglite(undefined, database.kind === "pglite" ? database.pglite : undefined);
    const otherHub = new NotificationHub(second);
    try {
      const account = await registerAccount();
      const local = await openStream(account);
      const remoteResponse = await openNotificationStream({ hub: otherHub, db: second.db, userId: account.id });
      const remote = new FrameReader(remoteResponse);
      readers.push(remote);
      expect(otherHub.streamCount(account.id)).toBe(1);
      expect(getNotificationHub().streamCount(account.id)).toBe(1);

      const fromFirst = await notifyUser(account.id);
      expect((await remote.next())!.id).toBe(fromFirst.id);
      expect((await local.reader.next())!.id).toBe(fromFirst.id);

      const fromSecond = await notify(systemContext(second.db), { userId: account.id, type: "ORDER_UPDATED", title: "Shipped", body: "On its way" });
      expect((await local.reader.next())!.id).toBe(fromSecond.id);
      expect((await remote.next())!.id).toBe(fromSecond.id);
    } finally {
      await otherHub.stop();
      // The PGlite engine is the test database's own: only the PostgreSQL connection is ours to close.
      if (second.kind === "postgres") await second.close();
    }
  });
});

describe("a stream ends when the credential it was opened with is revoked", () => {
  const post = (handler: typeof logoutRoute, path: string, headers: Record<string, string>, body?: unknown) =>
    call(handler, apiRequest(path, { method: "POST", headers, body, ip: nextTestIp() }));

  /** The stream has ended (reads null) within a second. */
  async function endsWithinASecond(reader: FrameReader): Promise<void> {
    expect(await reader.next({ timeoutMs: 1_000 })).toBeNull();
  }

  it("logout closes the stream opened with that session, and only that one", async () => {
    const account = await registerAccount();
    const other = await loginAccount(account.email, account.password);
    const otherToken = (await json<{ data: { accessToken: string } }>(other)).data.accessToken;
    const stream = await openStream(account);
    const kept = await openStream(account, { credential: bearer(otherToken) });

    expect((await post(logoutRoute, "/api/v1/auth/logout", bearer(account.accessToken))).status).toBe(200);
    await endsWithinASecond(stream.reader);
    // The other session's stream still gets the user's notifications.
    const next = await notifyUser(account.id);
    expect((await kept.reader.next())!.id).toBe(next.id);
  });

  it("deleting a session, changing the password and deleting an API key close their streams", async () => {
    const account = await registerAccount();
    const second = (await json<{ data: { accessToken: string } }>(await loginAccount(account.email, account.password))).data.accessToken;
    const third = (await json<{ data: { accessToken: string } }>(await loginAccount(account.email, account.password))).data.accessToken;
    const secondStream = await openStream(account, { credential: bearer(second) });
    const thirdStream = await openStream(account, { credential: bearer(third) });
    const ownStream = await openStream(account);

    // DELETE /auth/sessions/:id from the first session ends the second one's stream.
    const sessions = await json<{ data: Array<{ id: string; current: boolean }> }>(
      await call(listSessionsRoute, apiRequest("/api/v1/auth/sessions", { headers: bearer(second) })),
    );
    const secondId = sessions.data.find((session) => session.current)!.id;
    const deleted = await call(deleteSessionRoute, apiRequest(`/api/v1/auth/sessions/${secondId}`, { method: "DELETE", headers: bearer(account.accessToken) }), { id: secondId });
    expect(deleted.status).toBe(200);
    await endsWithinASecond(secondStream.reader);

    // A password change ends every other session, and their streams; the current one's stays.
    const changed = await post(changePasswordRoute, "/api/v1/auth/change-password", bearer(account.accessToken), { currentPassword: account.password, newPassword: "N3w-Passw0rd!" });
    expect(changed.status).toBe(200);
    await endsWithinASecond(thirdStream.reader);
    const after = await notifyUser(account.id);
    expect((await ownStream.reader.next())!.id).toBe(after.id);

    // An API key's stream ends when the key is deleted.
    const created = await post(createApiKeyRoute, "/api/v1/auth/api-keys", bearer(account.accessToken), { name: "stream" });
    const key = (await json<{ data: { id: string; key: string } }>(created)).data;
    const keyStream = await openStream(account, { credential: { "x-api-key": key.key } });
    const revoked = await call(deleteApiKeyRoute, apiRequest(`/api/v1/auth/api-keys/${key.id}`, { method: "DELETE", headers: bearer(account.accessToken) }), { id: key.id });
    expect(revoked.status).toBe(200);
    await endsWithinASecond(keyStream.reader);
  });

  it("closes streams held by another instance's hub", async () => {
    const database = testDatabase();
    const second = usingPostgres() ? connectPostgres(databaseUrl(database.name), { max: 2 }) : connectPglite(undefined, database.kind === "pglite" ? database.pglite : undefined);
    const otherHub = new NotificationHub(second);
    try {
      const account = await registerAccount();
      const { sessionId } = (await verifyAccessToken(account.accessToken))!;
      const remote = new FrameReader(await openNotificationStream({ hub: otherHub, db: second.db, userId: account.id, sessionId }));
      readers.push(remote);
      expect((await post(logoutRoute, "/api/v1/auth/logout", bearer(account.accessToken))).status).toBe(200);
      await endsWithinASecond(remote);
      expect(otherHub.streamCount(account.id)).toBe(0);
    } finally {
      await otherHub.stop();
      if (second.kind === "postgres") await second.close();
    }
  });

  it("ends at the next ping when the credential went without an announcement (a suspension)", async () => {
    setPingInterval(200);
    const account = await registerAccount();
    const stream = await openStream(account);
    await testDatabase().db.update(schema.users).set({ suspendedAt: new Date() }).where(eq(schema.users.id, account.id));
    expect(await stream.reader.next({ timeoutMs: 2_000 })).toBeNull();
  });
});
