import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { POST as sendVerificationRoute } from "@/app/api/v1/auth/send-verification/route";
import { POST as verifyEmailRoute } from "@/app/api/v1/auth/verify-email/route";
import { GET as meRoute } from "@/app/api/v1/auth/me/route";
import { hashToken } from "@/lib/auth/tokens";
import { listMailbox } from "@/lib/email/mailbox";
import { EMAIL_SEND_JOB } from "@/lib/email/queue";
import { prepareJobs, runPendingJobs, stopJobs } from "@/lib/jobs";
import { issueUserToken } from "@/lib/services/auth/queries";
import { confirmEmailFromLink, emailLinkAlreadyConfirmed } from "@/lib/services/auth/verification";
import { systemContext } from "@/lib/services/context";
import { ValidationError } from "@/lib/services/errors";
import { apiRequest, call, json, nextTestIp } from "../support/http";
import { bearer, registerAccount } from "../support/auth";

const SUBJECT = "Confirm your e-mail address";

type ErrorBody = { success: false; error: { code: string; message: string; details?: { fieldErrors: Record<string, string[]> } } };

beforeAll(async () => {
  await prepareJobs();
});

afterAll(async () => {
  await stopJobs();
});

const verify = (body: Record<string, unknown>) => call(verifyEmailRoute, apiRequest("/api/v1/auth/verify-email", { method: "POST", ip: nextTestIp(), body }));
const sendVerification = (headers: Record<string, string>) =>
  call(sendVerificationRoute, apiRequest("/api/v1/auth/send-verification", { method: "POST", ip: nextTestIp(), headers }));

async function verificationTokens(to: string): Promise<string[]> {
  const report = await runPendingJobs({ name: EMAIL_SEND_JOB });
  expect(report.failed).toBe(0);
  const messages = (await listMailbox({ to })).filter((message) => message.subject === SUBJECT);
  return messages.map((message) => {
    const match = message.text.match(/\/verify-email\?token=([^\s&"<>]+)/);
    if (!match?.[1]) throw new Error("no verification link in the message");
    expect(message.html).toContain(`/verify-email?token=${match[1]}`);
    return decodeURIComponent(match[1]);
  });
}

async function emailVerified(headers: Record<string, string>): Promise<boolean> {
  const response = await call(meRoute, apiRequest("/api/v1/auth/me", { headers }));
  expect(response.status).toBe(200);
  return (await json<{ data: { emailVerified: boolean } }>(response)).data.emailVerified;
}

async function expectError(response: Response, status: number, code: string): Promise<ErrorBody> {
  expect(response.status).toBe(status);
  const body = await json<ErrorBody>(response);
  expect(body.error.code).toBe(code);
  return body;
}

describe("POST /auth/verify-email", () => {
  it("confirms the address with the token from the registration e-mail, once", async () => {
    const account = await registerAccount();
    expect(await emailVerified(bearer(account.accessToken))).toBe(false);
    const [token, ...others] = await verificationTokens(account.email);
    expect(others).toEqual([]);

    // Public: no credential needed.
    const response = await verify({ token });
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ success: true, data: { message: expect.any(String) } });
    expect(await emailVerified(bearer(account.accessToken))).toBe(true);

    const reused = await expectError(await verify({ token }), 400, "VALIDATION_ERROR");
    expect(reused.error.details?.fieldErrors.token).toBeDefined();
  });

  it("refuses unknown, expired and missing tokens with 400 and leaves the address unconfirmed", async () => {
    const account = await registerAccount();
    const [token] = await verificationTokens(account.email);
    await expectError(await verify({ token: "definitely-not-a-token" }), 400, "VALIDATION_ERROR");
    const missing = await expectError(await verify({}), 400, "VALIDATION_ERROR");
    expect(missing.error.details?.fieldErrors.token).toBeDefined();
    await expectError(await verify({ token: "   " }), 400, "VALIDATION_ERROR");

    await getDatabase()
      .db.update(schema.userTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.userTokens.tokenHash, hashToken(token!)));
    const expired = await expectError(await verify({ token }), 400, "VALIDATION_ERROR");
    expect(expired.error.details?.fieldErrors.token).toBeDefined();
    expect(await emailVerified(bearer(account.accessToken))).toBe(false);
  });

  it("keeps the link alive for 24 hours", async () => {
    const account = await registerAccount();
    const [token] = await verificationTokens(account.email);
    const [row] = await getDatabase().db.select().from(schema.userTokens).where(eq(schema.userTokens.tokenHash, hashToken(token!)));
    expect(row).toMatchObject({ userId: account.id, purpose: "EMAIL_VERIFICATION" });
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(24 * 60 * 60 * 1000);
  });
});

describe("the confirmation page's link (emailLinkAlreadyConfirmed, confirmEmailFromLink)", () => {
  const confirmFromLink = (token: string) => confirmEmailFromLink(systemContext(), { token });
  const alreadyConfirmed = (token: string) => emailLinkAlreadyConfirmed(systemContext(), { token });
  const expire = (token: string) =>
    getDatabase()
      .db.update(schema.userTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.userTokens.tokenHash, hashToken(token)));

  it("confirms with a fresh link, then says the address is already confirmed, even once the link has expired; the API still answers 400", async () => {
    const account = await registerAccount();
    const [token] = await verificationTokens(account.email);
    // Opening the page only reads: the fresh link still works afterwards.
    expect(await alreadyConfirmed(token!)).toBe(false);
    expect(await confirmFromLink(token!)).toEqual({ message: "Your e-mail address is confirmed.", alreadyConfirmed: false });
    expect(await alreadyConfirmed(token!)).toBe(true);
    expect(await emailVerified(bearer(account.accessToken))).toBe(true);

    expect(await confirmFromLink(token!)).toEqual({ message: "Your e-mail address is already confirmed.", alreadyConfirmed: true });
    await expire(token!);
    expect(await confirmFromLink(token!)).toEqual({ message: "Your e-mail address is already confirmed.", alreadyConfirmed: true });
    await expectError(await verify({ token }), 400, "VALIDATION_ERROR");
  });

  it("says the same of a link replaced by a newer one that was used", async () => {
    const account = await registerAccount();
    const [first] = await verificationTokens(account.email);
    expect((await sendVerification(bearer(account.accessToken))).status).toBe(200);
    const [latest] = await verificationTokens(account.email);
    // Replaced and not confirmed yet: the old link is simply dead.
    await expect(confirmFromLink(first!)).rejects.toBeInstanceOf(ValidationError);
    expect((await confirmFromLink(latest!)).alreadyConfirmed).toBe(false);
    expect(await confirmFromLink(first!)).toMatchObject({ alreadyConfirmed: true });
  });

  it("still refuses unknown tokens, expired links of unconfirmed addresses and other kinds of token", async () => {
    await expect(confirmFromLink("definitely-not-a-token")).rejects.toBeInstanceOf(ValidationError);
    expect(await alreadyConfirmed("definitely-not-a-token")).toBe(false);

    const account = await registerAccount();
    const [token] = await verificationTokens(account.email);
    await expire(token!);
    await expect(confirmFromLink(token!)).rejects.toBeInstanceOf(ValidationError);
    expect(await emailVerified(bearer(account.accessToken))).toBe(false);

    const confirmed = await registerAccount();
    const [confirmedToken] = await verificationTokens(confirmed.email);
    await confirmFromLink(confirmedToken!);
    const resetToken = await issueUserToken(getDatabase().db, confirmed.id, "PASSWORD_RESET");
    await expect(confirmFromLink(resetToken)).rejects.toBeInstanceOf(ValidationError);
    expect(await alreadyConfirmed(resetToken)).toBe(false);
  });
});

describe("POST /auth/send-verification", () => {
  it("e-mails a new link that works, and the earlier link stops working", async () => {
    const account = await registerAccount();
    const [first] = await verificationTokens(account.email);

    const response = await sendVerification(bearer(account.accessToken));
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ success: true, data: { message: expect.any(String) } });
    const tokens = await verificationTokens(account.email);
    expect(tokens).toHaveLength(2);
    const [latest] = tokens;
    expect(latest).not.toBe(first);

    await expectError(await verify({ token: first }), 400, "VALIDATION_ERROR");
    expect((await verify({ token: latest })).status).toBe(200);
    expect(await emailVerified(bearer(account.accessToken))).toBe(true);
  });

  it("sends nothing once the address is confirmed", async () => {
    const account = await registerAccount();
    const [token] = await verificationTokens(account.email);
    expect((await verify({ token })).status).toBe(200);
    const response = await sendVerification(bearer(account.accessToken));
    expect(response.status).toBe(200);
    expect(await verificationTokens(account.email)).toHaveLength(1);
  });

  it("needs a credential: anonymous and invalid tokens are 401, a cross-site cookie 403", async () => {
    const account = await registerAccount();
    await expectError(await sendVerification({}), 401, "UNAUTHORIZED");
    await expectError(await sendVerification(bearer(account.refreshToken)), 401, "UNAUTHORIZED");
    await expectError(await sendVerification({ cookie: account.cookie, origin: "https://evil.example" }), 403, "FORBIDDEN");
    expect((await sendVerification({ cookie: account.cookie, origin: "http://localhost:3000" })).status).toBe(200);
  });
});
