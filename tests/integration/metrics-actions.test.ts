import { beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { form, mockNextRequestScope, redirectOf } from "../support/next-request-scope";

// Server actions' duration histogram (tagsvc_server_action_duration_seconds): one series per action and
// outcome, labelled by the endpoint's METHOD and path template for action.for, by metricName otherwise.
// The request scope is the test's (next/headers); the wrappers, the rate limiter and the registry are real.
mockNextRequestScope("198.51.100.61");
const { action, rowAction, whenNotFound } = await import("@/lib/forms/action");
const { ConflictError, NotFoundError } = await import("@/lib/services/errors");
const { getMetrics } = await import("@/lib/metrics/registry");
const { resetRateLimiterForTests } = await import("@/lib/ratelimit");
const { HOUR_MS } = await import("@/lib/ratelimit/policies");
const { tagEndpoints } = await import("@/lib/http/endpoints");

const HISTOGRAM = "tagsvc_server_action_duration_seconds";

async function countOf(labels: Record<string, string>): Promise<number> {
  const metric = await getMetrics().serverActionDuration.get();
  const found = metric.values.find((value) => {
    const seen = value.labels as Record<string, string | number | undefined>;
    return value.metricName === `${HISTOGRAM}_count` && Object.entries(labels).every(([key, wanted]) => String(seen[key]) === wanted) && Object.keys(seen).length === Object.keys(labels).length;
  });
  return found?.value ?? 0;
}

async function refusalsOf(policy: string): Promise<number> {
  const metric = await getMetrics().rateLimitRefusals.get();
  return metric.values.find((value) => value.labels.policy === policy)?.value ?? 0;
}

beforeEach(() => {
  resetRateLimiterForTests({ contactForm: { limit: 2, windowMs: HOUR_MS } });
});

describe("server actions in the metrics", () => {
  const save = action(
    { auth: "system", metricName: "things.save", input: z.object({ name: z.string().trim().min(1) }), rateLimit: ["contactForm"] },
    async ({ input }) => {
      if (input.name === "taken") throw new ConflictError("That name is taken.");
      if (input.name === "boom") throw new Error("unexpected");
      if (input.name === "go") (await import("next/navigation")).redirect("/done");
      return { status: "success" as const };
    },
  );
  const labels = (outcome: string) => ({ action: "things.save", kind: "form", outcome });

  it("records each outcome of a form under the action's name", async () => {
    const before = Object.fromEntries(await Promise.all(["ok", "invalid", "refused", "error", "redirect", "rate_limited"].map(async (outcome) => [outcome, await countOf(labels(outcome))] as const)));
    expect(await save({ status: "idle" }, form({ name: "Box" }))).toEqual({ status: "success" });
    expect(await save({ status: "idle" }, form({ name: " " }))).toMatchObject({ status: "error" });
    expect(await save({ status: "idle" }, form({ name: "taken" }))).toMatchObject({ status: "error", message: "That name is taken." });
    resetRateLimiterForTests({ contactForm: { limit: 10, windowMs: HOUR_MS } });
    expect(await save({ status: "idle" }, form({ name: "boom" }))).toMatchObject({ status: "error" });
    expect(await redirectOf(save({ status: "idle" }, form({ name: "go" })))).toBe("/done");
    expect(await countOf(labels("ok"))).toBe(before.ok! + 1);
    expect(await countOf(labels("invalid"))).toBe(before.invalid! + 1);
    expect(await countOf(labels("refused"))).toBe(before.refused! + 1);
    expect(await countOf(labels("error"))).toBe(before.error! + 1);
    expect(await countOf(labels("redirect"))).toBe(before.redirect! + 1);
    expect(await countOf(labels("rate_limited"))).toBe(before.rate_limited!);
  });

  it("records a post the rate limit refused, and counts the refusal under its policy", async () => {
    const limited = await countOf(labels("rate_limited"));
    const refusals = await refusalsOf("contactForm");
    for (let i = 0; i < 2; i++) expect(await save({ status: "idle" }, form({ name: "Box" }))).toEqual({ status: "success" });
    expect(await save({ status: "idle" }, form({ name: "Box" }))).toMatchObject({ status: "error", message: expect.stringMatching(/^Too many attempts/) });
    expect(await countOf(labels("rate_limited"))).toBe(limited + 1);
    expect(await refusalsOf("contactForm")).toBe(refusals + 1);
  });

  it("labels action.for by its endpoint's method and path template, and a row button's outcomes", async () => {
    const update = action.for(tagEndpoints.update, { fields: { id: "tagId" } }, async () => ({ status: "success" as const }));
    const signIn = { action: "PATCH /api/v1/tags/{id}", kind: "form", outcome: "redirect" };
    const before = await countOf(signIn);
    // Nobody is signed in: the sign-in redirect.
    await redirectOf(update({ status: "idle" }, form({ tagId: "22222222-2222-4222-8222-222222222222" })));
    expect(await countOf(signIn)).toBe(before + 1);

    const remove = rowAction({ auth: "system", metricName: "things.remove", params: z.object({ thingId: z.uuid() }), onError: whenNotFound("/things?notice=missing") }, async ({ params }) => {
      if (params.thingId.startsWith("3")) throw new NotFoundError();
      return "/things?notice=removed";
    });
    const row = (outcome: string) => ({ action: "things.remove", kind: "row", outcome });
    const [redirects, refused] = [await countOf(row("redirect")), await countOf(row("refused"))];
    expect(await redirectOf(remove(form({ thingId: "22222222-2222-4222-8222-222222222222" })))).toBe("/things?notice=removed");
    expect(await redirectOf(remove(form({ thingId: "33333333-3333-4333-8333-333333333333" })))).toBe("/things?notice=missing");
    expect(await countOf(row("redirect"))).toBe(redirects + 1);
    expect(await countOf(row("refused"))).toBe(refused + 1);
  });

  it("labels an action without a name 'other', never a value from the form", async () => {
    const unnamed = action({ auth: "system", input: z.object({ name: z.string() }) }, async () => ({ status: "success" as const }));
    const before = await countOf({ action: "other", kind: "form", outcome: "ok" });
    await unnamed({ status: "idle" }, form({ name: "/api/v1/tags/22222222-2222-4222-8222-222222222222" }));
    expect(await countOf({ action: "other", kind: "form", outcome: "ok" })).toBe(before + 1);
    const metric = await getMetrics().serverActionDuration.get();
    expect(metric.values.filter((value) => String(value.labels.action).includes("22222222"))).toEqual([]);
  });
});
