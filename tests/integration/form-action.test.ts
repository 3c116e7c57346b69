import { beforeEach, describe, expect, it, vi } from "vitest";
import { form, redirectOf } from "../support/next-request-scope";
import { z } from "zod";
import { resetRateLimiterForTests } from "@/lib/ratelimit";
import { HOUR_MS } from "@/lib/ratelimit/policies";

// Server actions run inside Next's request scope, which a test does not have: only `headers()` and
// `cookies()` are given here (no cookies: nobody is signed in). The wrapper, the rate limiter, the page context
// and the database are the real ones.
vi.mock("next/headers", () => ({
  headers: async () => new Headers(),
  cookies: async () => ({ get: () => undefined, getAll: () => [], has: () => false }),
}));

// Test files share a worker's modules: an earlier file may have loaded next-auth with the real
// next/headers. A fresh module graph makes this file's one the one every module sees.
vi.resetModules();
const { action, rowAction, whenNotFound } = await import("@/lib/forms/action");
const { ConflictError, NotFoundError, ValidationError } = await import("@/lib/services/errors");

beforeEach(() => {
  // A fresh limiter per test, with the contact form's policy shrunk: two submissions, then the wait.
  resetRateLimiterForTests({ contactForm: { limit: 2, windowMs: HOUR_MS } });
});

describe("action()", () => {
  const save = action(
    {
      auth: "system",
      returnTo: (formData) => `/things/${formData.get("thingId")}`,
      params: z.object({ thingId: z.uuid() }),
      input: z.object({ name: z.string().trim().min(1, "Required."), count: z.int("A whole number.").nullable() }),
      values: ["name", "count"],
      rateLimit: ["contactForm"],
      fieldMap: { title: "name" },
    },
    async ({ ctx, params, input }) => {
      if (input.name === "taken") throw new ConflictError("That name is taken.");
      if (input.name === "service") throw ValidationError.field("title", "Too fancy.");
      if (input.name === "go") (await import("next/navigation")).redirect("/done");
      return { status: "success", message: `${ctx.actor.kind} ${params.thingId} ${input.name} ${input.count}` };
    },
  );
  const id = "22222222-2222-4222-8222-222222222222";

  it("parses params and input from FormData (dropping control characters), and runs the handler", async () => {
    expect(await save({ status: "idle" }, form({ thingId: id, name: " Box\u0000 ", count: "3" }))).toEqual({ status: "success", message: `system ${id} Box 3` });
  });

  it("answers invalid input with per-field messages and the values, without counting it", async () => {
    for (let i = 0; i < 3; i++) {
      const state = await save({ status: "idle" }, form({ thingId: id, name: " ", count: "lots" }));
      expect(state).toEqual({ status: "error", message: "Check the fields marked below.", fieldErrors: { name: ["Required."], count: ["A whole number."] }, values: { name: " ", count: "lots" } });
    }
    // Three refused submissions used none of the two allowed.
    expect(await save({ status: "idle" }, form({ thingId: id, name: "Box", count: "" }))).toMatchObject({ status: "success" });
  });

  it("counts the endpoint's rate limit and answers a spent one with the wait, without running the handler", async () => {
    for (let i = 0; i < 2; i++) expect(await save({ status: "idle" }, form({ thingId: id, name: "Box", count: "" }))).toMatchObject({ status: "success" });
    const limited = await save({ status: "idle" }, form({ thingId: id, name: "go", count: "" }));
    expect(limited).toMatchObject({ status: "error", message: expect.stringMatching(/^Too many attempts\. Please wait .+ and try again\.$/) });
  });

  it("treats a malformed hidden id as a missing thing", async () => {
    expect(await save({ status: "idle" }, form({ thingId: "nope", name: "Box", count: "" }))).toMatchObject({ status: "error", message: new NotFoundError().message });
  });

  it("maps domain errors to the form, renaming service fields", async () => {
    expect(await save({ status: "idle" }, form({ thingId: id, name: "taken", count: "" }))).toMatchObject({ status: "error", message: "That name is taken." });
    expect(await save({ status: "idle" }, form({ thingId: id, name: "service", count: "" }))).toMatchObject({ fieldErrors: { name: ["Too fancy."] } });
  });

  it("lets the handler's redirect through", async () => {
    expect(await redirectOf(save({ status: "idle" }, form({ thingId: id, name: "go", count: "" })))).toBe("/done");
  });

  it("refuses text that is not well-formed (a lone surrogate) or holds a control character, wherever the form's own reader took it from", async () => {
    // A form that carries JSON in a hidden field (the cart): JSON escapes can say what a form field cannot.
    let ran = false;
    const save = action(
      { auth: "system", input: z.object({ note: z.string(), lines: z.array(z.object({ name: z.string() })) }), read: (formData) => JSON.parse(String(formData.get("payload"))) as unknown, values: ["payload"] },
      async () => {
        ran = true;
        return { status: "success" as const };
      },
    );
    const state = await save({ status: "idle" }, form({ payload: '{"note":"a\\ud800b","lines":[{"name":"x\\u0000"}]}' }));
    expect(state).toMatchObject({ status: "error", message: "Check the fields marked below.", fieldErrors: { note: [expect.stringMatching(/lone surrogate/)], lines: [expect.stringMatching(/Control characters/)] } });
    expect(ran).toBe(false);
    // A plain field: FormData holds only well-formed text, and control characters are dropped as before.
    expect(await save({ status: "idle" }, form({ payload: '{"note":"a\\ud83d\\ude00","lines":[]}' }))).toEqual({ status: "success" });
  });

  it("sends a signed-out visitor of a signed-in form to the sign-in page and back", async () => {
    const signedIn = action({ auth: "user", returnTo: "/dashboard/things" }, async () => ({ status: "success" as const, message: "never" }));
    expect(await redirectOf(signedIn({ status: "idle" }, form({})))).toBe(`/login?next=${encodeURIComponent("/dashboard/things")}`);
  });
});

describe("rowAction()", () => {
  const remove = rowAction({ auth: "system", returnTo: "/things", params: z.object({ thingId: z.uuid() }), onError: whenNotFound("/things?notice=missing") }, async ({ params }) => {
    if (params.thingId.startsWith("3")) throw new NotFoundError();
    if (params.thingId.startsWith("4")) throw new ConflictError();
    return "/things?notice=removed";
  });

  it("redirects to the handler's answer, or to onError's for a missing or malformed thing", async () => {
    expect(await redirectOf(remove(form({ thingId: "22222222-2222-4222-8222-222222222222" })))).toBe("/things?notice=removed");
    expect(await redirectOf(remove(form({ thingId: "33333333-3333-4333-8333-333333333333" })))).toBe("/things?notice=missing");
    expect(await redirectOf(remove(form({ thingId: "nope" })))).toBe("/things?notice=missing");
  });

  it("rethrows errors onError does not answer", async () => {
    await expect(remove(form({ thingId: "44444444-4444-4444-8444-444444444444" }))).rejects.toBeInstanceOf(ConflictError);
  });
});
