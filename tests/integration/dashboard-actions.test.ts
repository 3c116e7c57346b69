import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { form, mockNextRequestScope, redirectOf } from "../support/next-request-scope";

/**
 * The owner's dashboard forms built from their endpoint contracts (action.for / rowAction.for): a form and its
 * API twin are two doors to one operation, so they take the same hidden ids (under the form's own names) and
 * spend the same rate-limit budget. The wrapper, next-auth, the rate limiter, the route handlers, the services
 * and the database are the real ones; only Next's request scope is given (tests/support/next-request-scope.ts).
 */
const request = mockNextRequestScope("192.0.2.31");
const { eq } = await import("drizzle-orm");
const { getDatabase, schema } = await import("@/db/client");
const { GET: meRoute } = await import("@/app/api/v1/auth/me/route");
const { updateProfileAction } = await import("@/app/(dashboard)/dashboard/account/actions");
const { releaseTagAction } = await import("@/app/(dashboard)/dashboard/tags/[id]/actions");
const { prepareJobs, stopJobs } = await import("@/lib/jobs");
const { MINUTE_MS } = await import("@/lib/ratelimit/policies");
const { bearer, registerAccount } = await import("../support/auth");
const { apiRequest, awayFromWindowEdge, call, nextTestIp } = await import("../support/http");
const { giveTestTag, tagRow } = await import("../support/tags");

type TestAccount = Awaited<ReturnType<typeof registerAccount>>;

beforeAll(async () => {
  await prepareJobs();
});
afterAll(async () => {
  request.cookie = "";
  await stopJobs();
});

async function asOwner<T>(account: TestAccount, run: () => Promise<T>): Promise<T> {
  request.ip = nextTestIp();
  request.cookie = account.cookie;
  try {
    return await run();
  } finally {
    request.cookie = "";
  }
}

const me = (account: TestAccount) => call(meRoute, apiRequest("/api/v1/auth/me", { headers: bearer(account.accessToken), ip: nextTestIp() }));

describe("the dashboard's forms and the API share one budget", () => {
  it("counts the account form with the owner's API calls: 100 a minute per user (`general`), from any address", async () => {
    await awayFromWindowEdge(MINUTE_MS, 45_000);
    const owner = await registerAccount();
    for (let i = 0; i < 99; i++) expect((await me(owner)).status).toBe(200);
    // The 100th, through the page: allowed and saved.
    const saved = await asOwner(owner, () => updateProfileAction({ status: "idle" }, form({ firstName: "Grace", lastName: "Hopper", phone: "" })));
    expect(saved).toMatchObject({ status: "success", values: { firstName: "Grace", lastName: "Hopper" } });
    // The 101st, through either door, is refused; the page keeps what was typed and saves nothing.
    const refused = await asOwner(owner, () => updateProfileAction({ status: "idle" }, form({ firstName: "Ada", lastName: "Byron", phone: "" })));
    expect(refused).toMatchObject({ status: "error", values: { firstName: "Ada", lastName: "Byron" } });
    expect(refused.message).toMatch(/^Too many attempts\. Please wait \d+ seconds and try again\.$/);
    const limited = await me(owner);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("X-RateLimit-Limit")).toBe("100");
    const [row] = await getDatabase().db.select({ firstName: schema.users.firstName }).from(schema.users).where(eq(schema.users.id, owner.id));
    expect(row?.firstName).toBe("Grace");
    // Another user's budget is their own.
    expect((await me(await registerAccount())).status).toBe(200);
  });

  it("keeps the account form's own rule: the form always sends the names, so a cleared one is refused, not left unchanged", async () => {
    const owner = await registerAccount();
    const state = await asOwner(owner, () => updateProfileAction({ status: "idle" }, form({ firstName: "", lastName: "Hopper", phone: "" })));
    expect(state).toMatchObject({ status: "error", fieldErrors: { firstName: [expect.any(String)] } });
  });
});

describe("the tag page's release form (DELETE /tags/{id})", () => {
  it("reads the endpoint's {id} from the form's `tagId`, asks for the box, and a malformed id names no tag", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Keys" });
    const unticked = await asOwner(owner, () => releaseTagAction({ status: "idle" }, form({ tagId: tag.id })));
    expect(unticked).toMatchObject({ status: "error", fieldErrors: { confirm: ["Tick the box to confirm that you want to release this tag."] } });
    const malformed = await asOwner(owner, () => releaseTagAction({ status: "idle" }, form({ tagId: "not-a-tag", confirm: "on" })));
    expect(malformed.status).toBe("error");
    expect((await tagRow(tag.id))?.ownerId).toBe(owner.id);
    expect(await asOwner(owner, () => redirectOf(releaseTagAction({ status: "idle" }, form({ tagId: tag.id, confirm: "on" }))))).toBe("/dashboard/tags?notice=released");
    expect((await tagRow(tag.id))?.ownerId).toBeNull();
  });
});
