import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as meRoute } from "@/app/api/v1/auth/me/route";
import { POST as logoutRoute } from "@/app/api/v1/auth/logout/route";
import { GET as tagRoute } from "@/app/api/v1/tags/[id]/route";
import { getDatabase, schema } from "@/db/client";
import { findLiveSession, touchSession } from "@/lib/services/auth/queries";
import { apiRequest, call, json } from "../support/http";
import { bearer, registerAccount } from "../support/auth";

/**
 * The authenticated request's own cost (issue 16): the session lookup reads no password hash, /auth/me
 * reuses the user it loaded, lastUsedAt is written once a minute however many requests race, and the
 * prepared statements behind it still see every revocation and suspension at once.
 */

const sessionIdOf = (accessToken: string) => JSON.parse(Buffer.from(accessToken.split(".")[1]!, "base64url").toString()).sid as string;
const me = (accessToken: string) => call(meRoute, apiRequest("/api/v1/auth/me", { headers: bearer(accessToken) }));

async function rowsOf<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await getDatabase().db.execute(query)) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}

/** Counts the writes to sessions rows from here on (a trigger on the real table). */
async function countSessionWrites(): Promise<() => Promise<number>> {
  const db = getDatabase().db;
  await db.execute(sql`create table if not exists test_session_writes (session_id uuid not null)`);
  await db.execute(sql`delete from test_session_writes`);
  await db.execute(
    sql.raw(`create or replace function test_record_session_write() returns trigger language plpgsql as $$
      begin insert into test_session_writes (session_id) values (new.id); return new; end $$`),
  );
  await db.execute(sql`drop trigger if exists test_session_writes on sessions`);
  await db.execute(sql.raw(`create trigger test_session_writes after update on sessions for each row execute function test_record_session_write()`));
  return async () => (await rowsOf<{ n: number }>(sql`select count(*)::int as n from test_session_writes`))[0]!.n;
}

const ageSession = (sessionId: string, minutes: number) =>
  getDatabase().db.update(schema.sessions).set({ lastUsedAt: new Date(Date.now() - minutes * 60_000) }).where(eq(schema.sessions.id, sessionId));

describe("the signed-in request's session lookup", () => {
  it("never reads the password hash: signed-in reads and /auth/me work with the column out of reach", async () => {
    const account = await registerAccount();
    const db = getDatabase().db;
    await db.execute(sql`alter table users rename column password_hash to password_hash_out_of_reach`);
    try {
      const response = await me(account.accessToken);
      expect(response.status).toBe(200);
      const { data } = await json<{ data: Record<string, unknown> }>(response);
      expect(data).toMatchObject({ id: account.id, email: account.email, firstName: "Ada", lastName: "Lovelace", role: "USER", subscription: "FREE" });
      expect(Object.keys(data).sort()).toEqual(["createdAt", "email", "emailVerified", "firstName", "id", "lastName", "phone", "role", "subscription", "twoFactorEnabled"]);
      expect((await call(tagRoute, apiRequest("/api/v1/tags/00000000-0000-4000-8000-000000000000", { headers: bearer(account.accessToken) }), { id: "00000000-0000-4000-8000-000000000000" })).status).toBe(404);
    } finally {
      await db.execute(sql`alter table users rename column password_hash_out_of_reach to password_hash`);
    }
  });

  it("shows /auth/me as it is now: an edit made a moment ago is in the next answer", async () => {
    const account = await registerAccount();
    expect((await me(account.accessToken)).status).toBe(200);
    await getDatabase().db.update(schema.users).set({ firstName: "Grace" }).where(eq(schema.users.id, account.id));
    expect((await json<{ data: { firstName: string } }>(await me(account.accessToken))).data.firstName).toBe("Grace");
  });

  it("writes lastUsedAt once for ten simultaneous requests of a session last used two minutes ago", async () => {
    const account = await registerAccount();
    const sessionId = sessionIdOf(account.accessToken);
    const writes = await countSessionWrites();
    await ageSession(sessionId, 2);
    const before = await writes();

    const responses = await Promise.all(Array.from({ length: 10 }, () => me(account.accessToken)));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    expect((await writes()) - before).toBe(1);
    const [row] = await getDatabase().db.select({ lastUsedAt: schema.sessions.lastUsedAt }).from(schema.sessions).where(eq(schema.sessions.id, sessionId));
    expect(Date.now() - row!.lastUsedAt.getTime()).toBeLessThan(30_000);

    // Within the minute, more requests write nothing.
    await Promise.all(Array.from({ length: 10 }, () => me(account.accessToken)));
    expect((await writes()) - before).toBe(1);
  });

  it("lets one of ten racing lastUsedAt writes through (as from ten instances), and none within the minute", async () => {
    const account = await registerAccount();
    const sessionId = sessionIdOf(account.accessToken);
    const writes = await countSessionWrites();
    await ageSession(sessionId, 5);
    const before = await writes();

    const outcomes = await Promise.all(Array.from({ length: 10 }, () => touchSession(getDatabase().db, sessionId)));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect((await writes()) - before).toBe(1);
    expect(await touchSession(getDatabase().db, sessionId)).toBe(false);
    expect((await writes()) - before).toBe(1);
  });

  it("refuses a session revoked after its statement was prepared, at once", async () => {
    const account = await registerAccount();
    // Several requests at once, so the lookup is prepared on more than one pooled connection.
    const warm = await Promise.all(Array.from({ length: 6 }, () => me(account.accessToken)));
    expect(warm.map((response) => response.status)).toEqual(Array(6).fill(200));
    expect(await findLiveSession(getDatabase().db, sessionIdOf(account.accessToken))).not.toBeNull();

    const logout = await call(logoutRoute, apiRequest("/api/v1/auth/logout", { method: "POST", headers: bearer(account.accessToken) }));
    expect(logout.status).toBeLessThan(300);
    const after = await Promise.all(Array.from({ length: 6 }, () => me(account.accessToken)));
    expect(after.map((response) => response.status)).toEqual(Array(6).fill(401));
    expect(await findLiveSession(getDatabase().db, sessionIdOf(account.accessToken))).toBeNull();
  });

  it("answers 403 at once for a user suspended after the lookup was prepared", async () => {
    const account = await registerAccount();
    expect((await me(account.accessToken)).status).toBe(200);
    await getDatabase().db.update(schema.users).set({ suspendedAt: new Date() }).where(eq(schema.users.id, account.id));
    const response = await me(account.accessToken);
    expect(response.status).toBe(403);
    expect((await json<{ error: { code: string } }>(response)).error.code).toBe("FORBIDDEN");
  });
});
