import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mockNextRequestScope } from "../support/next-request-scope";
import { z } from "zod";

/**
 * The server-action half of the hostile-input sweep (hostile-input.test.ts covers the API): every action
 * exported by a "use server" file under app/ is called with hostile FormData, one field at a time in an
 * otherwise valid form, as an anonymous visitor for public actions and as a signed-in SUPER_ADMIN for the
 * others. An action may answer with its state, a redirect or the 404 page; it may not throw anything
 * else (Next's error page, a 500) nor fail unexpectedly (errorState logs such a failure and shows the
 * generic "went wrong" message: the form's 500).
 *
 * Server actions run inside Next's request scope, which a test does not have: `headers()` and `cookies()`
 * (the signed-in user's session cookie), the cache invalidation calls (no cache to invalidate) and the
 * translations of the request's language are given here. The wrapper, the page context, next-auth, the
 * rate limiter, the services and the database are the real ones.
 */
const request = mockNextRequestScope("192.0.2.77");
const { describeAction } = await import("@/lib/forms/action");
const { log } = await import("@/lib/log");
const { resetRateLimiterForTests } = await import("@/lib/ratelimit");
const { rateLimitPolicyNames } = await import("@/lib/ratelimit/policies");
const { registerAccount, setRole } = await import("../support/auth");
const { giveTestTag } = await import("../support/tags");
const { exampleOf } = await import("../support/openapi-examples");
const { contactOwnerInput, finderEmailInput, finderReplyInput } = await import("@/lib/services/messages");
const { sightingInput } = await import("@/lib/services/alerts");
const { prepareJobs, stopJobs } = await import("@/lib/jobs");

const ROOT = path.resolve(import.meta.dirname, "../..");

function serverActionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return serverActionFiles(full);
    return /\.tsx?$/.test(entry.name) && /^\s*["']use server["']/.test(readFileSync(full, "utf8")) ? [full] : [];
  });
}

type Auth = "system" | "public" | "optional" | "user" | "admin";
interface Shape {
  kind: "form" | "row" | "none";
  auth: Auth;
  params?: z.ZodType;
  input?: z.ZodType;
}

/**
 * Actions that build their action() per call (to translate its messages), so describeAction cannot see
 * them: what they take, written here.
 */
const CUSTOM: Record<string, Shape> = {
  finderReplyAction: { kind: "form", auth: "optional", params: z.object({ token: z.string() }), input: finderReplyInput },
  finderEmailOptInAction: { kind: "form", auth: "optional", params: z.object({ token: z.string() }), input: finderEmailInput },
  contactFromAlertAction: { kind: "form", auth: "optional", params: z.object({ alertId: z.uuid() }), input: contactOwnerInput },
  sightingAction: { kind: "form", auth: "optional", params: z.object({ alertId: z.uuid() }), input: sightingInput },
  describeSightingAction: { kind: "form", auth: "optional", params: z.object({ alertId: z.uuid() }), input: z.object({ where: z.string().meta({ example: "By the bakery" }) }) },
  findTagByCodeAction: { kind: "form", auth: "optional", input: z.object({ code: z.string().meta({ example: "ABCDE-FGHJK" }) }) },
  saveTagDetailsAction: { kind: "form", auth: "user", input: z.object({ tagId: z.uuid(), profileType: z.literal("GENERAL"), itemName: z.string(), description: z.string() }) },
  resendVerificationAction: { kind: "none", auth: "user" },
  startTwoFactorAction: { kind: "none", auth: "user" },
};

/** Field values as a form sends them: a valid example from the schema. */
function exampleFields(schema: z.ZodType | undefined): Record<string, unknown> {
  if (!schema) return {};
  try {
    const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Parameters<typeof exampleOf>[1];
    const value = exampleOf({ paths: {} }, json);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function toForm(fields: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null || value === false) continue;
    if (value instanceof Blob) form.append(name, value);
    else if (Array.isArray(value)) for (const item of value) form.append(name, typeof item === "object" ? JSON.stringify(item) : String(item));
    else form.set(name, value === true ? "on" : typeof value === "object" ? JSON.stringify(value) : String(value));
  }
  return form;
}

/** What a form field can carry: text (a lone surrogate becomes U+FFFD in FormData, as in a browser), JSON text for fields read as JSON, a file. */
const HOSTILE_FIELD_VALUES: unknown[] = [
  "a\u0000b",
  "\uD800",
  "x".repeat(100 * 1024),
  "",
  "1e308",
  "9223372036854775808",
  "null",
  "[]",
  "{}",
  '["\\ud800"]',
  '[{"productId":"\\ud800","quantity":1e308}]',
  '{"a":"\\u0000"}',
  "%E0%A4%A",
  new File(["x"], "x.txt", { type: "text/plain" }),
];

const files = serverActionFiles(path.join(ROOT, "app"));
const unlimited = Object.fromEntries(rateLimitPolicyNames.map((name) => [name, { limit: 1_000_000, windowMs: 60_000 }]));

beforeAll(async () => {
  resetRateLimiterForTests(unlimited as never);
  await prepareJobs();
});

afterAll(async () => {
  request.cookie = "";
  await stopJobs();
});

describe("the request scope given to the actions", () => {
  it("signs the test user in through next-auth with the session cookie, so signed-in actions get past sign-in", async () => {
    const { currentUserContext } = await import("@/lib/http/page-context");
    const account = await registerAccount();
    request.cookie = account.cookie;
    try {
      expect((await currentUserContext())?.actor).toMatchObject({ kind: "user", userId: account.id });
    } finally {
      request.cookie = "";
    }
    expect(await currentUserContext()).toBeNull();
  });
});

interface Problem {
  action: string;
  case: string;
  problem: string;
}

describe.each(files.map((file) => [path.relative(ROOT, file), file] as const))("server actions of %s under hostile input", (_label, file) => {
  it("answer every hostile form with a state, a redirect or the 404 page: never a thrown error or an unexpected failure", async () => {
    const exports = (await import(file)) as Record<string, unknown>;
    const problems: Problem[] = [];
    const errorLog = vi.spyOn(log, "error");
    try {
      for (const [name, exported] of Object.entries(exports)) {
        if (typeof exported !== "function") continue;
        const action = exported as (...args: unknown[]) => Promise<unknown>;
        const shape: Shape | undefined = describeAction(action) ?? CUSTOM[name];
        if (!shape) {
          problems.push({ action: name, case: "-", problem: "not made by action() or rowAction(), and not described in CUSTOM" });
          continue;
        }
        request.cookie = "";
        const owner = await registerAccount();
        const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Sweep bag" });
        if (shape.auth === "user" || shape.auth === "admin") {
          await setRole(owner.id, "SUPER_ADMIN");
          request.cookie = owner.cookie;
        }
        const params = exampleFields(shape.params);
        for (const key of Object.keys(params)) {
          if (/^(tagId|id)$/.test(key)) params[key] = tag.id;
          if (key === "encryptedId") params[key] = tag.encryptedId;
        }
        const valid = { ...params, ...exampleFields(shape.input) };

        const call = async (label: string, fields: Record<string, unknown>) => {
          errorLog.mockClear();
          const form = toForm(fields);
          try {
            if (shape.kind === "none") await action();
            else if (shape.kind === "row") await action(form);
            else await action({ status: "idle" }, form);
          } catch (thrown) {
            const digest = String((thrown as { digest?: unknown } | null)?.digest ?? "");
            if (!digest.startsWith("NEXT_REDIRECT") && digest !== "NEXT_HTTP_ERROR_FALLBACK;404") {
              problems.push({ action: name, case: label, problem: `threw ${String(thrown).slice(0, 200)}` });
            }
          }
          if (errorLog.mock.calls.length) problems.push({ action: name, case: label, problem: `failed unexpectedly: ${JSON.stringify(errorLog.mock.calls[0]).slice(0, 300)}` });
        };

        if (shape.kind !== "none") {
          for (const field of Object.keys(valid)) {
            for (const value of HOSTILE_FIELD_VALUES) {
              await call(`${field}=${value instanceof Blob ? "a file" : JSON.stringify(value).slice(0, 40)}`, { ...valid, [field]: value });
            }
          }
          await call("an empty form", {});
        }
        // Last: the valid form (it may sign the account out or delete it).
        await call("the valid form", valid);
      }
    } finally {
      errorLog.mockRestore();
      request.cookie = "";
    }
    expect(problems, JSON.stringify(problems.slice(0, 30), null, 1)).toEqual([]);
  });
});
