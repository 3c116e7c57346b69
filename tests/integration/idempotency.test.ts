import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { getDatabase, schema } from "@/db/client";
import { POST as createKeyRoute } from "@/app/api/v1/auth/api-keys/route";
import { POST as addContactRoute } from "@/app/api/v1/emergency/contacts/route";
import { GET as openapiRoute } from "@/app/api/v1/openapi.json/route";
import { POST as activateRoute } from "@/app/api/v1/tags/activate/route";
import { GET as listTagsRoute } from "@/app/api/v1/tags/route";
import { defineEndpoint, route } from "@/lib/http";
import { idempotencyCaller } from "@/lib/http/idempotency";
import { ConflictError } from "@/lib/services/errors";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, call, json, nextTestIp } from "../support/http";
import { usingPostgres } from "../support/database";
import { deref } from "../support/openapi-examples";
import { mintTestTags } from "../support/tags";

type ErrorBody = { success: false; error: { code: string; message: string; details?: Record<string, unknown> } };

const withKey = (account: TestAccount, key: string) => ({ ...bearer(account.accessToken), "Idempotency-Key": key });
const activate = (headers: Record<string, string>, body: unknown) => call(activateRoute, apiRequest("/api/v1/tags/activate", { method: "POST", headers, body }));
const addContact = (headers: Record<string, string>, body: unknown) => call(addContactRoute, apiRequest("/api/v1/emergency/contacts", { method: "POST", headers, body }));

async function storedRow(account: TestAccount, key: string) {
  const [row] = await getDatabase()
    .db.select()
    .from(schema.idempotencyKeys)
    .where(and(eq(schema.idempotencyKeys.caller, idempotencyCaller(account.id)), eq(schema.idempotencyKeys.key, key)));
  return row;
}

async function contactsOf(account: TestAccount) {
  return getDatabase().db.select().from(schema.emergencyContacts).where(eq(schema.emergencyContacts.userId, account.id));
}

/** A gate a test opens when it wants the handler behind it to finish: a handler that is slow on demand. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** A POST endpoint of the kernel under test whose handler counts its runs and can be held or made to fail. */
function testEndpoint(name: string) {
  const state = { runs: 0, hold: Promise.resolve() as Promise<void>, fail: undefined as (() => Error) | undefined };
  const endpoint = defineEndpoint({
    method: "POST",
    path: `/api/v1/test-idempotency/${name}`,
    summary: "test",
    tags: [],
    auth: "user",
    body: z.object({ value: z.string() }),
    successStatus: 201,
  });
  const handler = route(endpoint, async ({ body }) => {
    state.runs += 1;
    const run = state.runs;
    await state.hold;
    if (state.fail) throw state.fail();
    return { value: body.value, run };
  });
  const send = (account: TestAccount, key: string, value = "v") =>
    call(handler, apiRequest(endpoint.path, { method: "POST", headers: withKey(account, key), body: { value } }));
  return { state, send };
}

/** Resolves once the held handler has started: the first request has claimed its key. */
async function untilRunning(state: { runs: number }) {
  const deadline = Date.now() + 10_000;
  while (state.runs === 0) {
    if (Date.now() > deadline) throw new Error("the first request never reached its handler");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("Idempotency-Key on POST", () => {
  it("replays the stored answer to a retry with the same key and body, with Idempotent-Replayed and fresh rate-limit headers", async () => {
    const account = await registerAccount();
    const [minted] = await mintTestTags(1);
    const key = randomUUID();
    const first = await activate(withKey(account, key), { code: minted!.code, itemName: "Keys" });
    const firstText = await first.text();
    expect(first.status, firstText).toBe(201);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();

    const retry = await activate(withKey(account, key), { itemName: "Keys", code: minted!.code }); // same body, other key order
    expect(retry.status).toBe(201);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(retry.headers.get("content-type")).toBe(first.headers.get("content-type"));
    expect(await retry.text()).toBe(firstText);
    expect(Number(retry.headers.get("X-RateLimit-Remaining"))).toBe(Number(first.headers.get("X-RateLimit-Remaining")) - 1);
    expect(retry.headers.get("X-Request-Id")).not.toBe(first.headers.get("X-Request-Id"));

    // Without the key the same request runs again: the tag is taken, 409 — the replay above was not a run.
    const again = await activate(bearer(account.accessToken), { code: minted!.code, itemName: "Keys" });
    expect(again.status).toBe(409);
  });

  it("keeps the answer sealed at rest and for 24 hours", async () => {
    const account = await registerAccount();
    const key = randomUUID();
    const response = await addContact(withKey(account, key), { name: "Grace Hopper", relationship: "friend", phone: "+15550100" });
    expect(response.status).toBe(201);
    const row = await storedRow(account, key);
    expect(row).toMatchObject({ method: "POST", path: "/api/v1/emergency/contacts", responseStatus: 201, responseHeaders: { "content-type": "application/json" } });
    expect(row!.completedAt).toBeInstanceOf(Date);
    expect(row!.responseBody).not.toContain("Grace");
    const ttlHours = (row!.expiresAt.getTime() - row!.createdAt.getTime()) / 3_600_000;
    expect(ttlHours).toBeCloseTo(24, 3);
  });

  it("answers 422 to the same key with another body, and runs nothing", async () => {
    const account = await registerAccount();
    const key = randomUUID();
    expect((await addContact(withKey(account, key), { name: "A", relationship: "friend", phone: "+15550101" })).status).toBe(201);
    const other = await addContact(withKey(account, key), { name: "B", relationship: "friend", phone: "+15550102" });
    expect(other.status).toBe(422);
    const body = await json<ErrorBody>(other);
    expect(body.error.code).toBe("UNPROCESSABLE_ENTITY");
    expect(body.error.message).toMatch(/Idempotency-Key.*different request/);
    expect(await contactsOf(account)).toHaveLength(1);
  });

  it("stores a domain error the handler answered (4xx) and replays it", async () => {
    const account = await registerAccount();
    const key = randomUUID();
    const first = await activate(withKey(account, key), { code: "00000-00000" });
    expect(first.status).toBe(404);
    const retry = await activate(withKey(account, key), { code: "00000-00000" });
    expect(retry.status).toBe(404);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await json<ErrorBody>(retry)).error.code).toBe("NOT_FOUND");
  });

  it("does not spend the key on a request refused before its handler ran (validation)", async () => {
    const account = await registerAccount();
    const key = randomUUID();
    const invalid = await addContact(withKey(account, key), { name: "A" });
    expect(invalid.status).toBe(400);
    expect(await storedRow(account, key)).toBeUndefined();
    const valid = await addContact(withKey(account, key), { name: "A", relationship: "friend", phone: "+15550103" });
    expect(valid.status).toBe(201);
    expect(valid.headers.get("Idempotent-Replayed")).toBeNull();
  });

  it("scopes keys per user: another user's request with the same key runs normally", async () => {
    const ada = await registerAccount();
    const bob = await registerAccount();
    const key = randomUUID();
    expect((await addContact(withKey(ada, key), { name: "A", relationship: "friend", phone: "+15550104" })).status).toBe(201);
    const bobs = await addContact(withKey(bob, key), { name: "A", relationship: "friend", phone: "+15550104" });
    expect(bobs.status).toBe(201);
    expect(bobs.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await contactsOf(ada)).toHaveLength(1);
    expect(await contactsOf(bob)).toHaveLength(1);
  });

  it("refuses a malformed key with 400 naming the header, before anything runs", async () => {
    const account = await registerAccount();
    for (const bad of ["k".repeat(256), "clé"]) {
      const response = await addContact({ ...bearer(account.accessToken), "Idempotency-Key": bad }, { name: "A", relationship: "friend", phone: "+15550105" });
      expect(response.status).toBe(400);
      const body = await json<ErrorBody>(response);
      expect(body.error.code).toBe("VALIDATION_ERROR");
      expect(body.error.details).toMatchObject({ issues: [{ field: "Idempotency-Key" }] });
    }
    expect(await contactsOf(account)).toHaveLength(0);
  });

  it("runs the handler once for 10 concurrent identical requests: the others replay or get 409, never a 5xx", async () => {
    const account = await registerAccount();
    const key = randomUUID();
    const body = { name: "Concurrent", relationship: "friend", phone: "+15550106" };
    const responses = await Promise.all(Array.from({ length: 10 }, () => addContact(withKey(account, key), body)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.every((status) => status === 201 || status === 409), statuses.join(",")).toBe(true);
    const original = responses.filter((response) => response.status === 201 && response.headers.get("Idempotent-Replayed") === null);
    expect(original).toHaveLength(1);
    expect(await contactsOf(account)).toHaveLength(1);
    const ids = new Set(await Promise.all(responses.filter((response) => response.status === 201).map(async (response) => (await json<{ data: { id: string } }>(response)).data.id)));
    expect(ids.size).toBe(1);
  });

  it("makes a retry wait for the first request still running, then replays its answer", async () => {
    const endpoint = testEndpoint("wait");
    const account = await registerAccount();
    const key = randomUUID();
    const held = gate();
    endpoint.state.hold = held.opened;
    const first = endpoint.send(account, key);
    await untilRunning(endpoint.state);
    const started = Date.now();
    const retry = endpoint.send(account, key);
    setTimeout(held.open, 400);
    const [firstResponse, retryResponse] = await Promise.all([first, retry]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(firstResponse.status).toBe(201);
    expect(retryResponse.status).toBe(201);
    expect(retryResponse.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await retryResponse.json()).toEqual(await firstResponse.json());
    expect(endpoint.state.runs).toBe(1);
  });

  it("answers 409 to a retry when the first request is still running after the wait, and replays once it has finished", async () => {
    const endpoint = testEndpoint("conflict");
    const account = await registerAccount();
    const key = randomUUID();
    const held = gate();
    endpoint.state.hold = held.opened;
    const first = endpoint.send(account, key);
    await untilRunning(endpoint.state);
    const started = Date.now();
    const retry = await endpoint.send(account, key);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    expect(retry.status).toBe(409);
    const body = await json<ErrorBody>(retry);
    expect(body.error.code).toBe("CONFLICT");
    expect(body.error.message).toMatch(/still being processed/);
    held.open();
    expect((await first).status).toBe(201);
    const later = await endpoint.send(account, key);
    expect(later.status).toBe(201);
    expect(later.headers.get("Idempotent-Replayed")).toBe("true");
    expect(endpoint.state.runs).toBe(1);
  });

  it("does not store a 5xx answer: the retry runs again", async () => {
    const endpoint = testEndpoint("failure");
    const account = await registerAccount();
    const key = randomUUID();
    endpoint.state.fail = () => new Error("boom");
    const failed = await endpoint.send(account, key);
    expect(failed.status).toBe(500);
    expect(await storedRow(account, key)).toBeUndefined();
    endpoint.state.fail = undefined;
    const retry = await endpoint.send(account, key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get("Idempotent-Replayed")).toBeNull();
    expect(endpoint.state.runs).toBe(2);
  });

  it("stores a 4xx a handler throws, so a retry does not run again", async () => {
    const endpoint = testEndpoint("conflict-answer");
    const account = await registerAccount();
    const key = randomUUID();
    endpoint.state.fail = () => new ConflictError("already there");
    expect((await endpoint.send(account, key)).status).toBe(409);
    endpoint.state.fail = undefined;
    const retry = await endpoint.send(account, key);
    expect(retry.status).toBe(409);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(endpoint.state.runs).toBe(1);
  });

  it("forgets a key after 24 hours: the request runs again, and expired rows are cleaned up", async () => {
    const account = await registerAccount();
    const other = await registerAccount();
    const key = randomUUID();
    const otherKey = randomUUID();
    const body = { name: "Expiring", relationship: "friend", phone: "+15550107" };
    expect((await addContact(withKey(account, key), body)).status).toBe(201);
    expect((await addContact(withKey(other, otherKey), body)).status).toBe(201);
    const db = getDatabase().db;
    await db.update(schema.idempotencyKeys).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(schema.idempotencyKeys.caller, idempotencyCaller(other.id)));
    await db.update(schema.idempotencyKeys).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(schema.idempotencyKeys.caller, idempotencyCaller(account.id)));

    const again = await addContact(withKey(account, key), body);
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await contactsOf(account)).toHaveLength(2);
    const renewed = await storedRow(account, key);
    expect(renewed!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    // The other user's expired row went with that claim's clean-up.
    expect(await storedRow(other, otherKey)).toBeUndefined();
  });

  it("ignores the header on GET, on public POSTs and on POSTs whose answer is a secret shown once", async () => {
    const account = await registerAccount();
    const list = await call(listTagsRoute, apiRequest("/api/v1/tags", { headers: { ...bearer(account.accessToken), "Idempotency-Key": "clé" } }));
    expect(list.status).toBe(200);
    expect(list.headers.get("Idempotent-Replayed")).toBeNull();

    const key = randomUUID();
    const create = () => call(createKeyRoute, apiRequest("/api/v1/auth/api-keys", { method: "POST", headers: withKey(account, key), body: { name: "ci" } }));
    const [one, two] = [await create(), await create()];
    expect([one.status, two.status]).toEqual([201, 201]);
    expect(two.headers.get("Idempotent-Replayed")).toBeNull();
    const keys = [(await json<{ data: { key: string } }>(one)).data.key, (await json<{ data: { key: string } }>(two)).data.key];
    expect(keys[0]).not.toBe(keys[1]);

    const { POST: loginRoute } = await import("@/app/api/v1/auth/login/route");
    const ip = nextTestIp();
    const signIn = () =>
      call(loginRoute, apiRequest("/api/v1/auth/login", { method: "POST", ip, headers: { ...bearer(account.accessToken), "Idempotency-Key": key }, body: { email: account.email, password: account.password } }));
    const [first, second] = [await signIn(), await signIn()];
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.headers.get("Idempotent-Replayed")).toBeNull();
    expect((await json<{ data: { refreshToken: string } }>(first)).data.refreshToken).not.toBe((await json<{ data: { refreshToken: string } }>(second)).data.refreshToken);
    expect(await getDatabase().db.select().from(schema.idempotencyKeys).where(eq(schema.idempotencyKeys.caller, idempotencyCaller(account.id)))).toHaveLength(0);
  });
});

describe("Idempotency-Key and the database budget", () => {
  // A handler whose query outlives the request's 4 s database budget (PostgreSQL: PGlite's one connection would stall everything).
  const tooSlow = route(
    defineEndpoint({ method: "POST", path: "/api/v1/test-idempotency/too-slow", summary: "test", tags: [], auth: "user", body: z.object({ value: z.string() }) }),
    async ({ ctx }) => {
      await ctx.db.execute(sql`select pg_sleep(6)`);
      return { done: true };
    },
  );

  it.runIf(usingPostgres())("still answers 503 within 5 s, and frees the key so a retry runs", async () => {
    const account = await registerAccount();
    const key = randomUUID();
    const started = performance.now();
    const response = await call(tooSlow, apiRequest("/api/v1/test-idempotency/too-slow", { method: "POST", headers: withKey(account, key), body: { value: "v" } }));
    expect(response.status).toBe(503);
    expect((await json<ErrorBody>(response)).error.code).toBe("SERVICE_UNAVAILABLE");
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await storedRow(account, key)).toBeUndefined();
  });
});

describe("Idempotency-Key in the OpenAPI document", () => {
  type Operation = { parameters?: { name: string; in: string; required?: boolean; schema?: { maxLength?: number } }[]; responses: Record<string, { description?: string; headers?: Record<string, unknown> }> };
  // Shared parameters and error responses are `$ref`s into components: resolved here.
  const operation = async (path: string, method: string): Promise<Operation | undefined> => {
    const doc = await json<{ paths: Record<string, Record<string, Operation>>; components: Record<string, Record<string, unknown>> }>(await call(openapiRoute, apiRequest("/api/v1/openapi.json")));
    const found = doc.paths[path]?.[method];
    if (!found) return undefined;
    return {
      parameters: found.parameters?.map((parameter) => deref(doc, parameter)),
      responses: Object.fromEntries(Object.entries(found.responses).map(([status, response]) => [status, deref(doc, response)])),
    };
  };

  it("documents the optional header with its 409 and 422 answers on POSTs that honour it", async () => {
    const activateOperation = await operation("/api/v1/tags/activate", "post");
    expect(activateOperation?.parameters?.find((parameter) => parameter.name === "Idempotency-Key")).toMatchObject({ in: "header", required: false, schema: { maxLength: 255 } });
    expect(Object.keys(activateOperation?.responses ?? {})).toEqual(expect.arrayContaining(["400", "409", "422"]));
    expect(activateOperation?.responses["201"]?.headers).toHaveProperty("Idempotent-Replayed");
    const contact = await operation("/api/v1/emergency/contacts", "post");
    expect(contact?.responses["409"]?.description).toContain("CONFLICT");
  });

  it("leaves it off GETs, public POSTs and the secret-minting ones", async () => {
    for (const [path, method] of [
      ["/api/v1/tags", "get"],
      ["/api/v1/auth/login", "post"],
      ["/api/v1/auth/api-keys", "post"],
      ["/api/v1/auth/verify-2fa", "post"],
    ] as const) {
      const found = await operation(path, method);
      expect(found, `${method} ${path}`).toBeDefined();
      expect(found?.parameters?.some((parameter) => parameter.name === "Idempotency-Key") ?? false, `${method} ${path}`).toBe(false);
    }
  });
});
