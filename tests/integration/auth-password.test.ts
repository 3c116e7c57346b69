import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, isNull } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { POST as forgotPasswordRoute } from "@/app/api/v1/auth/forgot-password/route";
import { POST as resetPasswordRoute } from "@/app/api/v1/auth/reset-password/route";
import { POST as changePasswordRoute } from "@/app/api/v1/auth/change-password/route";
import { POST as refreshRoute } from "@/app/api/v1/auth/refresh/route";
import { GET as meRoute } from "@/app/api/v1/auth/me/route";
import { hashToken } from "@/lib/auth/tokens";
import { listMailbox } from "@/lib/email/mailbox";
import { EMAIL_SEND_JOB } from "@/lib/email/queue";
import { prepareJobs, runPendingJobs, stopJobs } from "@/lib/jobs";
import { createApiKey } from "@/lib/services/auth/api-keys";
import { apiRequest, call, json, nextTestIp, awayFromWindowEdge } from "../support/http";
import { bearer, loginAccount, registerAccount, TEST_PASSWORD, uniqueEmail, type TestAccount } from "../support/auth";

const NEW_PASSWORD = "N3w-Passw0rd!";

type ErrorBody = { success: false; error: { code: string; message: string; details?: { fieldErrors: Record<string, string[]> } } };

beforeAll(async () => {
  await prepareJobs();
});

afterAll(async () => {
  await stopJobs();
});

const forgot = (email: unknown, ip = nextTestIp()) => call(forgotPasswordRoute, apiRequest("/api/v1/auth/forgot-password", { method: "POST", ip, body: { email } }));
const reset = (body: Record<string, unknown>) => call(resetPasswordRoute, apiRequest("/api/v1/auth/reset-password", { method: "POST", ip: nextTestIp(), body }));
const change = (headers: Record<string, string>, body: Record<string, unknown>) =>
  call(changePasswordRoute, apiRequest("/api/v1/auth/change-password", { method: "POST", ip: nextTestIp(), headers, body }));
const me = (headers: Record<string, string>) => call(meRoute, apiRequest("/api/v1/auth/me", { headers }));
const refresh = (refreshToken: string) => call(refreshRoute, apiRequest("/api/v1/auth/refresh", { method: "POST", body: { refreshToken } }));

async function mailTo(to: string, subject: string) {
  const report = await runPendingJobs({ name: EMAIL_SEND_JOB });
  expect(report.failed).toBe(0);
  return (await listMailbox({ to })).filter((message) => message.subject === subject);
}

function tokenIn(message: { text: string; html: string } | undefined, path: string): string {
  const match = message?.text.match(new RegExp(`${path}\\?token=([^\\s&"<>]+)`));
  if (!match?.[1]) throw new Error(`no ${path} link in the message`);
  expect(message!.html).toContain(`${path}?token=${match[1]}`);
  return decodeURIComponent(match[1]);
}

/** Asks for a reset link and returns the token from the e-mail. */
async function resetTokenFor(account: TestAccount): Promise<string> {
  expect((await forgot(account.email)).status).toBe(200);
  const [newest] = await mailTo(account.email, "Reset your password");
  return tokenIn(newest, "/reset-password");
}

async function expectError(response: Response, status: number, code: string): Promise<ErrorBody> {
  expect(response.status).toBe(status);
  const body = await json<ErrorBody>(response);
  expect(body.success).toBe(false);
  expect(body.error.code).toBe(code);
  return body;
}

describe("POST /auth/forgot-password", () => {
  it("answers a known and an unknown address identically, and e-mails a one-hour reset link only to the known one", async () => {
    const account = await registerAccount();
    const unknown = uniqueEmail("nobody");
    const known = await forgot(account.email.toUpperCase());
    const missing = await forgot(unknown);
    expect(known.status).toBe(200);
    expect(missing.status).toBe(200);
    const knownBody = await json(known);
    expect(knownBody).toEqual({ success: true, data: { message: expect.any(String) } });
    expect(await json(missing)).toEqual(knownBody);

    const [message, ...older] = await mailTo(account.email, "Reset your password");
    expect(older).toEqual([]);
    const token = tokenIn(message, "/reset-password");
    expect(token.length).toBeGreaterThanOrEqual(43);
    expect(message!.text).toContain("one hour");
    expect(await listMailbox({ to: unknown })).toEqual([]);

    // Stored hashed, lives one hour.
    const [row] = await getDatabase().db.select().from(schema.userTokens).where(eq(schema.userTokens.tokenHash, hashToken(token)));
    expect(row).toMatchObject({ userId: account.id, purpose: "PASSWORD_RESET", usedAt: null });
    const lifetime = row!.expiresAt.getTime() - row!.createdAt.getTime();
    expect(lifetime).toBe(60 * 60 * 1000);
  });

  it("refuses a malformed address with 400 and allows 3 requests per hour per IP (429 after)", async () => {
    const invalid = await expectError(await forgot("not-an-email"), 400, "VALIDATION_ERROR");
    expect(invalid.error.details?.fieldErrors.email).toBeDefined();
    await expectError(await call(forgotPasswordRoute, apiRequest("/api/v1/auth/forgot-password", { method: "POST", ip: nextTestIp(), body: {} })), 400, "VALIDATION_ERROR");

    const ip = nextTestIp();
    for (let i = 0; i < 3; i++) expect((await forgot(uniqueEmail(), ip)).status).toBe(200);
    const limited = await expectError(await forgot(uniqueEmail(), ip), 429, "RATE_LIMIT_EXCEEDED");
    expect(limited.error.message).toBe("Too many requests. Please try again later.");
  });
});

describe("POST /auth/reset-password", () => {
  it("sets the new password and ends every session of the account", async () => {
    const account = await registerAccount();
    const second = await loginAccount(account.email, account.password);
    const secondTokens = (await json<{ data: { accessToken: string; refreshToken: string } }>(second)).data;
    const token = await resetTokenFor(account);

    const response = await reset({ token, password: NEW_PASSWORD });
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ success: true, data: { message: expect.any(String) } });

    // Every session is over: access tokens, refresh tokens and the browser cookie.
    for (const headers of [bearer(account.accessToken), bearer(secondTokens.accessToken), { cookie: account.cookie }]) {
      await expectError(await me(headers), 401, "UNAUTHORIZED");
    }
    expect((await refresh(account.refreshToken)).status).toBe(401);
    expect((await refresh(secondTokens.refreshToken)).status).toBe(401);
    const live = await getDatabase().db.select().from(schema.sessions).where(and(eq(schema.sessions.userId, account.id), isNull(schema.sessions.revokedAt)));
    expect(live).toEqual([]);

    expect((await loginAccount(account.email, TEST_PASSWORD)).status).toBe(401);
    expect((await loginAccount(account.email, NEW_PASSWORD)).status).toBe(200);

    // A security notice goes out as well.
    expect(await mailTo(account.email, "Your password was changed")).toHaveLength(1);
  });

  it("accepts a token once: used, unknown and expired tokens are 400 on `token`", async () => {
    const account = await registerAccount();
    const token = await resetTokenFor(account);
    expect((await reset({ token, password: NEW_PASSWORD })).status).toBe(200);

    const used = await expectError(await reset({ token, password: "An0ther-Passw0rd" }), 400, "VALIDATION_ERROR");
    expect(used.error.details?.fieldErrors.token).toBeDefined();
    await expectError(await reset({ token: "x".repeat(43), password: NEW_PASSWORD }), 400, "VALIDATION_ERROR");

    const expiring = await resetTokenFor(account);
    await getDatabase()
      .db.update(schema.userTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.userTokens.tokenHash, hashToken(expiring)));
    const expired = await expectError(await reset({ token: expiring, password: "An0ther-Passw0rd" }), 400, "VALIDATION_ERROR");
    expect(expired.error.details?.fieldErrors.token).toBeDefined();
    expect((await loginAccount(account.email, NEW_PASSWORD)).status).toBe(200);
  });

  it("refuses a superseded reset token and a verification token with 400", async () => {
    const account = await registerAccount();
    // Asking again makes the earlier link stop working.
    const first = await resetTokenFor(account);
    const latest = await resetTokenFor(account);
    expect(latest).not.toBe(first);
    await expectError(await reset({ token: first, password: "An0ther-Passw0rd" }), 400, "VALIDATION_ERROR");

    // A token for another purpose is not a reset token.
    const [verification] = (await listMailbox({ to: account.email })).filter((message) => message.subject === "Confirm your e-mail address");
    await expectError(await reset({ token: tokenIn(verification, "/verify-email"), password: "An0ther-Passw0rd" }), 400, "VALIDATION_ERROR");

    expect((await loginAccount(account.email, account.password)).status).toBe(200);
    expect((await reset({ token: latest, password: NEW_PASSWORD })).status).toBe(200);
  });

  it("applies the registration password rules and needs a token", async () => {
    const account = await registerAccount();
    const token = await resetTokenFor(account);
    for (const [password, message] of [["Sh0rt", "at least 8"], ["alllowercase1", "uppercase"], ["ALLUPPERCASE1", "lowercase"], ["NoNumbersHere", "number"]]) {
      const weak = await expectError(await reset({ token, password }), 400, "VALIDATION_ERROR");
      expect(weak.error.details?.fieldErrors.password?.join(" ")).toContain(message);
    }
    const missing = await expectError(await reset({ password: NEW_PASSWORD }), 400, "VALIDATION_ERROR");
    expect(missing.error.details?.fieldErrors.token).toBeDefined();
    // The weak attempts did not use the token up.
    expect((await reset({ token, password: NEW_PASSWORD })).status).toBe(200);
  });
});

describe("POST /auth/change-password", () => {
  it("changes the password, keeps the current session and ends the others", async () => {
    const account = await registerAccount();
    const other = (await json<{ data: { accessToken: string; refreshToken: string } }>(await loginAccount(account.email, account.password))).data;

    const response = await change(bearer(account.accessToken), { currentPassword: account.password, newPassword: NEW_PASSWORD });
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ success: true, data: { message: expect.any(String) } });

    expect((await me(bearer(account.accessToken))).status).toBe(200);
    expect((await refresh(account.refreshToken)).status).toBe(200);
    await expectError(await me(bearer(other.accessToken)), 401, "UNAUTHORIZED");
    expect((await refresh(other.refreshToken)).status).toBe(401);

    expect((await loginAccount(account.email, account.password)).status).toBe(401);
    expect((await loginAccount(account.email, NEW_PASSWORD)).status).toBe(200);
    const [notice] = await mailTo(account.email, "Your password was changed");
    expect(notice?.text).toContain("/forgot-password");
  });

  it("works from the web session cookie on the app's own origin, and refuses other origins", async () => {
    const account = await registerAccount();
    const crossSite = await change({ cookie: account.cookie, origin: "https://evil.example" }, { currentPassword: account.password, newPassword: NEW_PASSWORD });
    await expectError(crossSite, 403, "FORBIDDEN");
    const sameSite = await change({ cookie: account.cookie, origin: "http://localhost:3000" }, { currentPassword: account.password, newPassword: NEW_PASSWORD });
    expect(sameSite.status).toBe(200);
    // The cookie's session was the current one, so it lives on; the bearer session of registration is the same row.
    expect((await me({ cookie: account.cookie })).status).toBe(200);
  });

  it("answers 401 for a wrong current password and leaves the password and sessions alone", async () => {
    const account = await registerAccount();
    const wrong = await expectError(await change(bearer(account.accessToken), { currentPassword: "Wrong-passw0rd", newPassword: NEW_PASSWORD }), 401, "UNAUTHORIZED");
    expect(wrong.error.message).toMatch(/current password/i);
    expect((await me(bearer(account.accessToken))).status).toBe(200);
    expect((await loginAccount(account.email, account.password)).status).toBe(200);
  });

  it("validates the body: weak, missing or unchanged new password is 400", async () => {
    const account = await registerAccount();
    const weak = await expectError(await change(bearer(account.accessToken), { currentPassword: account.password, newPassword: "weakpass" }), 400, "VALIDATION_ERROR");
    expect(weak.error.details?.fieldErrors.newPassword).toBeDefined();
    const missing = await expectError(await change(bearer(account.accessToken), { newPassword: NEW_PASSWORD }), 400, "VALIDATION_ERROR");
    expect(missing.error.details?.fieldErrors.currentPassword).toBeDefined();
    const same = await expectError(await change(bearer(account.accessToken), { currentPassword: account.password, newPassword: account.password }), 400, "VALIDATION_ERROR");
    expect(same.error.details?.fieldErrors.newPassword).toBeDefined();
  });

  it("refuses anonymous callers and bad tokens with 401, and API keys with 403", async () => {
    const account = await registerAccount();
    const body = { currentPassword: account.password, newPassword: NEW_PASSWORD };
    await expectError(await change({}, body), 401, "UNAUTHORIZED");
    await expectError(await change(bearer("not.a.token"), body), 401, "UNAUTHORIZED");
    await expectError(await change({ "x-api-key": "tag_test_doesnotexistdoesnotexistdoesnotexist00" }, body), 401, "UNAUTHORIZED");

    const { key } = await createApiKey({ actor: { kind: "user", userId: account.id, role: "USER", ip: "203.0.113.10" }, db: getDatabase().db }, { name: "server" });
    await expectError(await change({ "x-api-key": key }, body), 403, "FORBIDDEN");
    expect((await loginAccount(account.email, account.password)).status).toBe(200);
  });

  it("counts wrong current passwords against the account lockout shared with login", async () => {
    await awayFromWindowEdge(15 * 60_000, 60_000);
    const account = await registerAccount();
    for (let i = 0; i < 10; i++) {
      expect((await change(bearer(account.accessToken), { currentPassword: `Wrong-passw0rd${i}`, newPassword: NEW_PASSWORD })).status).toBe(401);
    }
    const locked = await expectError(await change(bearer(account.accessToken), { currentPassword: account.password, newPassword: NEW_PASSWORD }), 429, "RATE_LIMIT_EXCEEDED");
    expect(locked.error.message).toBe("Too many requests. Please try again later.");
    expect((await loginAccount(account.email, account.password)).status).toBe(429);
  });
});
