import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDatabase, schema } from "@/db/client";
import { GET as usersRoute } from "@/app/api/v1/admin/users/route";
import { bearer, registerAccount, setRole, type TestAccount } from "../support/auth";
import { apiRequest, call, json, nextTestIp } from "../support/http";

/**
 * The admin user search by the length of what is typed (docs/decisions/0047-trigram-search-and-statement-timeout.md):
 * three characters or more match anywhere in the e-mail address or "first last" (pg_trgm GIN indexes); one
 * or two, too short for a trigram, match the start of the e-mail address (a prefix index). The plans are
 * checked by tests/integration/query-plans.test.ts.
 */

async function search(admin: TestAccount, text: string): Promise<string[]> {
  const response = await call(usersRoute, apiRequest(`/api/v1/admin/users?search=${encodeURIComponent(text)}&limit=100`, { headers: bearer(admin.accessToken), ip: nextTestIp() }));
  expect(response.status).toBe(200);
  return (await json<{ data: Array<{ id: string }> }>(response)).data.map((user) => user.id);
}

async function withEmail(email: string, names: { firstName?: string; lastName?: string } = {}): Promise<string> {
  const account = await registerAccount();
  await getDatabase().db.update(schema.users).set({ email, ...names }).where(eq(schema.users.id, account.id));
  return account.id;
}

describe("admin user search", () => {
  it("matches one or two characters at the start of the e-mail address only, three or more anywhere", async () => {
    const admin = await registerAccount();
    await setRole(admin.id, "ADMIN");
    // Two letters no other address of the test database starts with (x and q, then a random pair).
    const pair = `${"xq"[randomBytes(1)[0]! % 2]}${"jkvwz"[randomBytes(1)[0]! % 5]}`;
    const token = randomBytes(4).toString("hex");
    const starts = await withEmail(`${pair}${token}@example.com`);
    const inside = await withEmail(`a${pair}${token}@example.com`);
    const inName = await withEmail(`named-${token}@example.com`, { firstName: `Zoe${pair}${token}`, lastName: "Q" });

    const short = await search(admin, pair.toUpperCase());
    expect(short).toContain(starts);
    expect(short).not.toContain(inside);
    expect(short).not.toContain(inName);
    expect((await search(admin, pair[0]!)).includes(starts)).toBe(true);

    const long = await search(admin, `${pair}${token}`);
    expect(long.sort()).toEqual([starts, inside, inName].sort());
    // LIKE's wildcards match themselves in a short search too.
    expect(await search(admin, "%")).toEqual([]);
    expect(await search(admin, "_")).toEqual([]);
  });
});
