import { beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { ServiceContext } from "@/lib/services/context";

const user: ServiceContext = { actor: { kind: "user", userId: "11111111-1111-4111-8111-111111111111", role: "USER", ip: "203.0.113.9" }, db: {} as ServiceContext["db"] };
const calls = vi.hoisted(() => ({ requireUser: [] as string[], rateLimit: [] as unknown[][], allowed: true, signedIn: true }));

vi.mock("next/headers", () => ({ headers: async () => new Headers({ "x-forwarded-for": "203.0.113.9" }) }));
vi.mock("@/lib/ratelimit", () => ({
  checkRateLimits: async (...args: unknown[]) => {
    calls.rateLimit.push(args);
    return { allowed: calls.allowed, limit: 10, remaining: 0, reset: 0, retryAfter: 42 };
  },
}));
vi.mock("@/lib/auth/page-context", async () => {
  const { redirect } = await import("next/navigation");
  return {
    requireUserContext: async (returnTo: string) => {
      calls.requireUser.push(returnTo);
      if (!calls.signedIn) redirect(`/login?next=${encodeURIComponent(returnTo)}`);
      return user;
    },
    requireAdminContext: async () => user,
  };
});

const { action, rowAction, whenNotFound } = await import("@/lib/forms/action");
const { ConflictError, NotFoundError, ValidationError } = await import("@/lib/services/errors");

function form(entries: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) data.set(name, value);
  return data;
}

/** The URL a thrown Next redirect points at. */
async function redirectOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  const digest = (error as { digest?: string } | undefined)?.digest ?? "";
  expect(digest.startsWith("NEXT_REDIRECT")).toBe(true);
  return digest.split(";")[2]!;
}

beforeEach(() => {
  calls.requireUser = [];
  calls.rateLimit = [];
  calls.allowed = true;
  calls.signedIn = true;
});

describe("action()", () => {
  const save = action(
    {
      auth: "user",
      returnTo: (formData) => `/things/${formData.get("thingId")}`,
      params: z.object({ thingId: z.uuid() }),
      input: z.object({ name: z.string().trim().min(1, "Required."), count: z.int("A whole number.").nullable() }),
      values: ["name", "count"],
      rateLimit: ["auth"],
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

  it("resolves the caller, parses params and input from FormData, counts the rate limit and runs the handler", async () => {
    const state = await save({ status: "idle" }, form({ thingId: id, name: " Box\u0000 ", count: "3" }));
    expect(state).toEqual({ status: "success", message: `user ${id} Box 3` });
    expect(calls.requireUser).toEqual([`/things/${id}`]);
    expect(calls.rateLimit).toEqual([[["auth"], { ip: expect.any(String), userId: "11111111-1111-4111-8111-111111111111" }, undefined]]);
  });

  it("answers invalid input with per-field messages and the values, before counting the rate limit", async () => {
    const state = await save({ status: "idle" }, form({ thingId: id, name: " ", count: "lots" }));
    expect(state).toEqual({ status: "error", message: "Check the fields marked below.", fieldErrors: { name: ["Required."], count: ["A whole number."] }, values: { name: " ", count: "lots" } });
    expect(calls.rateLimit).toEqual([]);
  });

  it("treats a malformed hidden id as a missing thing", async () => {
    const state = await save({ status: "idle" }, form({ thingId: "nope", name: "Box", count: "" }));
    expect(state).toMatchObject({ status: "error", message: new NotFoundError().message });
  });

  it("answers a spent rate limit with the wait", async () => {
    calls.allowed = false;
    const state = await save({ status: "idle" }, form({ thingId: id, name: "Box", count: "" }));
    expect(state).toMatchObject({ status: "error", message: "Too many attempts. Please wait 42 seconds and try again." });
  });

  it("maps domain errors to the form, renaming service fields", async () => {
    expect(await save({ status: "idle" }, form({ thingId: id, name: "taken", count: "" }))).toMatchObject({ status: "error", message: "That name is taken." });
    expect(await save({ status: "idle" }, form({ thingId: id, name: "service", count: "" }))).toMatchObject({ fieldErrors: { name: ["Too fancy."] } });
  });

  it("lets Next's redirects through: the handler's and sign-in's", async () => {
    expect(await redirectOf(save({ status: "idle" }, form({ thingId: id, name: "go", count: "" })))).toBe("/done");
    calls.signedIn = false;
    expect(await redirectOf(save({ status: "idle" }, form({ thingId: id, name: "Box", count: "" })))).toBe(`/login?next=${encodeURIComponent(`/things/${id}`)}`);
  });
});

describe("rowAction()", () => {
  const remove = rowAction({ auth: "user", returnTo: "/things", params: z.object({ thingId: z.uuid() }), onError: whenNotFound("/things?notice=missing") }, async ({ params }) => {
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
