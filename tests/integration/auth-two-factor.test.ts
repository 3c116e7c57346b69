import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { generate } from "otplib";
import { getDatabase, schema } from "@/db/client";
import { POST as enableRoute } from "@/app/api/v1/auth/enable-2fa/route";
import { POST as verifyRoute } from "@/app/api/v1/auth/verify-2fa/route";
import { POST as disableRoute } from "@/app/api/v1/auth/disable-2fa/route";
import { POST as createApiKeyRoute } from "@/app/api/v1/auth/api-keys/route";
import { decryptSecret } from "@/lib/auth/totp";
import { EMAIL_SEND_JOB } from "@/lib/email/queue";
import { listMailbox } from "@/lib/email/mailbox";
import { prepareJobs, runPendingJobs, stopJobs } from "@/lib/jobs";
import type { ServiceContext } from "@/lib/services/context";
import { disableTwoFactor, enableTwoFactor, verifyTwoFactor } from "@/lib/services/auth/two-factor";
import { apiRequest, call, json, nextTestIp, awayFromWindowEdge } from "../support/http";
import { bearer, loginAccount, registerAccount, type TestAccount } from "../support/auth";

type RouteHandler = typeof enableRoute;
type ErrorBody = { error: { code: string; message: string } };

const PERIOD = 30;
const stepOf = (date: Date) => Math.floor(date.getTime() / 1000 / PERIOD);
const codeForStep = (secret: string, step: number) => generate({ secret, epoch: step * PERIOD });
const currentCode = (secret: string) => generate({ secret, epoch: Math.floor(Date.now() / 1000) });
const BACKUP_CODE = /^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{4}-[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{4}$/;

/** Six digits that are none of the codes a server could accept now (steps ±2 around the clock). */
async function wrongCode(secret: string): Promise<string> {
  const step = stepOf(new Date());
  const nearby = await Promise.all([-2, -1, 0, 1, 2].map((offset) => codeForStep(secret, step + offset)));
  return ["000000", "111111", "222222", "333333", "444444", "555555"].find((code) => !nearby.includes(code))!;
}

const post = (handler: RouteHandler, path: string, headers: Record<string, string>, body?: unknown) =>
  call(handler, apiRequest(path, { method: "POST", headers, body, ip: nextTestIp() }));
const enable = (headers: Record<string, string>) => post(enableRoute, "/api/v1/auth/enable-2fa", headers);
const verify = (headers: Record<string, string>, code: string) => post(verifyRoute, "/api/v1/auth/verify-2fa", headers, { code });
const disable = (headers: Record<string, string>, code: string) => post(disableRoute, "/api/v1/auth/disable-2fa", headers, { code });

async function errorCode(response: Response): Promise<string> {
  return (await json<ErrorBody>(response)).error.code;
}

async function startSetUp(account: TestAccount): Promise<string> {
  const response = await enable(bearer(account.accessToken));
  expect(response.status).toBe(200);
  return (await json<{ data: { secret: string } }>(response)).data.secret;
}

async function secretRow(userId: string) {
  const [row] = await getDatabase().db.select().from(schema.twoFactorSecrets).where(eq(schema.twoFactorSecrets.userId, userId));
  return row;
}

async function userRow(userId: string) {
  const [row] = await getDatabase().db.select().from(schema.users).where(eq(schema.users.id, userId));
  return row!;
}

/** Enables two-factor through the routes; returns the secret and the backup codes. */
async function accountWithTwoFactor() {
  const account = await registerAccount();
  const secret = await startSetUp(account);
  const verified = await verify(bearer(account.accessToken), await currentCode(secret));
  expect(verified.status).toBe(200);
  const { backupCodes } = (await json<{ data: { backupCodes: string[] } }>(verified)).data;
  return { account, secret, backupCodes };
}

function userContext(userId: string): ServiceContext {
  return { actor: { kind: "user", userId, role: "USER", ip: nextTestIp() }, db: getDatabase().db };
}

beforeAll(async () => {
  await prepareJobs();
});

afterAll(async () => {
  await stopJobs();
});

describe("two-factor set-up", () => {
  it("enable returns a secret and a PNG QR code, stores the secret encrypted and pending, and replaces a pending one", async () => {
    const account = await registerAccount();
    const response = await enable(bearer(account.accessToken));
    expect(response.status).toBe(200);
    const { data } = await json<{ data: { qrCodeUrl: string; secret: string; otpauthUrl: string } }>(response);
    expect(Object.keys(data).sort()).toEqual(["otpauthUrl", "qrCodeUrl", "secret"]);
    // The link a phone opens holds what the QR code holds: this account's secret, issuer and label.
    const uri = new URL(data.otpauthUrl);
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(uri.searchParams.get("secret")).toBe(data.secret);
    expect(uri.searchParams.get("issuer")).toBe("Tag Service");
    expect(decodeURIComponent(uri.pathname)).toContain(account.email);
    expect(data.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(data.qrCodeUrl).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    const png = Buffer.from(data.qrCodeUrl.split(",")[1]!, "base64");
    expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);

    const stored = await secretRow(account.id);
    expect(stored).toMatchObject({ confirmedAt: null, lastTimeStep: null });
    expect(stored!.secretEncrypted).not.toContain(data.secret);
    expect(decryptSecret(stored!.secretEncrypted)).toBe(data.secret);
    expect((await userRow(account.id)).twoFactorEnabled).toBe(false);

    // Starting again before verifying replaces the pending secret: the first one's codes stop working.
    const second = await startSetUp(account);
    expect(second).not.toBe(data.secret);
    expect(decryptSecret((await secretRow(account.id))!.secretEncrypted)).toBe(second);
    const stale = await currentCode(data.secret);
    const fresh = await Promise.all([-1, 0, 1].map((offset) => codeForStep(second, stepOf(new Date()) + offset)));
    if (!fresh.includes(stale)) {
      const refused = await verify(bearer(account.accessToken), stale);
      expect(refused.status).toBe(401);
    }
    expect((await userRow(account.id)).twoFactorEnabled).toBe(false);
  });

  it("verify refuses a wrong code with 401, a malformed one with 400, and answers 409 without a pending secret", async () => {
    const account = await registerAccount();
    const noSecret = await verify(bearer(account.accessToken), "123456");
    expect(noSecret.status).toBe(409);
    expect(await errorCode(noSecret)).toBe("CONFLICT");

    const secret = await startSetUp(account);
    const wrong = await verify(bearer(account.accessToken), await wrongCode(secret));
    expect(wrong.status).toBe(401);
    expect(await errorCode(wrong)).toBe("UNAUTHORIZED");
    for (const code of ["12345", "abcdef", "1234567"]) {
      const malformed = await verify(bearer(account.accessToken), code);
      expect(malformed.status).toBe(400);
      expect(await errorCode(malformed)).toBe("VALIDATION_ERROR");
    }
    expect(await secretRow(account.id)).toMatchObject({ confirmedAt: null });
    expect((await userRow(account.id)).twoFactorEnabled).toBe(false);
  });

  it("verify turns two-factor on with ten single-use backup codes stored hashed; enable and verify then answer 409", async () => {
    const { account, backupCodes } = await accountWithTwoFactor();
    expect(backupCodes).toHaveLength(10);
    expect(new Set(backupCodes).size).toBe(10);
    for (const code of backupCodes) expect(code).toMatch(BACKUP_CODE);

    expect((await userRow(account.id)).twoFactorEnabled).toBe(true);
    const stored = await secretRow(account.id);
    expect(stored!.confirmedAt).toBeInstanceOf(Date);
    expect(stored!.lastTimeStep).toEqual(expect.any(Number));
    const hashes = await getDatabase().db.select().from(schema.backupCodes).where(eq(schema.backupCodes.userId, account.id));
    expect(hashes).toHaveLength(10);
    for (const row of hashes) {
      expect(row.usedAt).toBeNull();
      expect(backupCodes.some((code) => row.codeHash.includes(code) || row.codeHash.includes(code.replace("-", "")))).toBe(false);
    }

    const again = await enable(bearer(account.accessToken));
    expect(again.status).toBe(409);
    expect(await errorCode(again)).toBe("CONFLICT");
    const reverify = await verify(bearer(account.accessToken), "123456");
    expect(reverify.status).toBe(409);
  });
});

describe("signing in with two-factor", () => {
  it("needs a code, accepts each TOTP step once (the verify code included), and each backup code once", async () => {
    const { account, secret, backupCodes } = await accountWithTwoFactor();
    const verifiedStep = (await secretRow(account.id))!.lastTimeStep!;

    const withoutCode = await loginAccount(account.email, account.password);
    expect(withoutCode.status).toBe(403);
    expect(await errorCode(withoutCode)).toBe("TWO_FACTOR_REQUIRED");

    // The code verify-2fa consumed cannot sign in.
    const replayOfVerify = await loginAccount(account.email, account.password, { twoFactorCode: await codeForStep(secret, verifiedStep) });
    expect(replayOfVerify.status).toBe(401);

    // The next step is within the ±1 window for the next minute, so this is clock-safe.
    const nextCode = await codeForStep(secret, verifiedStep + 1);
    const ok = await loginAccount(account.email, account.password, { twoFactorCode: nextCode });
    expect(ok.status).toBe(200);
    const { data } = await json<{ data: { user: { twoFactorEnabled: boolean }; accessToken: string } }>(ok);
    expect(data.user.twoFactorEnabled).toBe(true);
    expect(data.accessToken.split(".")).toHaveLength(3);

    const replay = await loginAccount(account.email, account.password, { twoFactorCode: nextCode });
    expect(replay.status).toBe(401);
    expect(await errorCode(replay)).toBe("UNAUTHORIZED");
    expect((await secretRow(account.id))!.lastTimeStep).toBe(verifiedStep + 1);

    const wrong = await loginAccount(account.email, account.password, { twoFactorCode: await wrongCode(secret) });
    expect(wrong.status).toBe(401);

    // Backup codes: each works once; case and the hyphen do not matter.
    const [first, second] = backupCodes as [string, string];
    expect((await loginAccount(account.email, account.password, { twoFactorCode: first })).status).toBe(200);
    const reused = await loginAccount(account.email, account.password, { twoFactorCode: first });
    expect(reused.status).toBe(401);
    expect(await errorCode(reused)).toBe("UNAUTHORIZED");
    expect((await loginAccount(account.email, account.password, { twoFactorCode: second.replace("-", "").toLowerCase() })).status).toBe(200);
    expect((await loginAccount(account.email, account.password, { twoFactorCode: second })).status).toBe(401);
    expect((await loginAccount(account.email, account.password, { twoFactorCode: "ABCD-EFGH" })).status).toBe(401);
  });

  it("accepts the current and the next step's codes at login, each once", async () => {
    const account = await registerAccount();
    const ctx = userContext(account.id);
    const { secret } = await enableTwoFactor(ctx);
    // Confirmed a minute ago (controlled clock), so the codes of the real current and next steps are both fresh.
    const past = new Date(Date.now() - 60_000);
    await verifyTwoFactor(ctx, { code: await codeForStep(secret, stepOf(past)) }, past);

    const current = await currentCode(secret);
    const next = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + PERIOD });
    expect((await loginAccount(account.email, account.password, { twoFactorCode: current })).status).toBe(200);
    expect((await loginAccount(account.email, account.password, { twoFactorCode: current })).status).toBe(401);
    expect((await loginAccount(account.email, account.password, { twoFactorCode: next })).status).toBe(200);
    expect((await loginAccount(account.email, account.password, { twoFactorCode: next })).status).toBe(401);
    // Once the next step was used, the current one is behind it and refused too.
    expect((await loginAccount(account.email, account.password, { twoFactorCode: await currentCode(secret) })).status).toBe(401);
  });
});

describe("time steps with a controlled clock", () => {
  it("verify accepts ±1 step; a used step is refused; the next step's code is accepted 30 s later", async () => {
    const account = await registerAccount();
    const ctx = userContext(account.id);
    // An instant in the past, so later real-clock checks never see a recorded step ahead of them.
    const t0 = new Date((stepOf(new Date()) - 100) * PERIOD * 1000 + 5_000);
    const step = stepOf(t0);

    const { secret } = await enableTwoFactor(ctx);
    await expect(verifyTwoFactor(ctx, { code: await codeForStep(secret, step - 2) }, t0)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(verifyTwoFactor(ctx, { code: await codeForStep(secret, step + 2) }, t0)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const { backupCodes } = await verifyTwoFactor(ctx, { code: await codeForStep(secret, step - 1) }, t0);
    expect(backupCodes).toHaveLength(10);
    expect((await secretRow(account.id))!.lastTimeStep).toBe(step - 1);

    // disable-2fa goes through the same once-per-step rule.
    await expect(disableTwoFactor(ctx, { code: await codeForStep(secret, step - 1) }, t0)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(disableTwoFactor(ctx, { code: await codeForStep(secret, step + 3) }, t0)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const t1 = new Date(t0.getTime() + PERIOD * 1000);
    const nextCode = await generate({ secret, epoch: Math.floor(t1.getTime() / 1000) });
    expect(nextCode).toBe(await codeForStep(secret, step + 1));
    await expect(disableTwoFactor(ctx, { code: nextCode }, t1)).resolves.toEqual({ message: expect.any(String) });
    expect((await userRow(account.id)).twoFactorEnabled).toBe(false);
  });
});

describe("turning two-factor off", () => {
  it("needs a valid TOTP or backup code (401 otherwise), removes the secret and backup codes, then answers 409", async () => {
    const { account, secret, backupCodes } = await accountWithTwoFactor();
    const wrong = await disable(bearer(account.accessToken), await wrongCode(secret));
    expect(wrong.status).toBe(401);
    expect(await errorCode(wrong)).toBe("UNAUTHORIZED");
    const wrongBackup = await disable(bearer(account.accessToken), "ZZZZ-ZZZZ");
    expect(wrongBackup.status).toBe(401);
    expect((await userRow(account.id)).twoFactorEnabled).toBe(true);

    const off = await disable(bearer(account.accessToken), backupCodes[3]!);
    expect(off.status).toBe(200);
    expect((await json<{ data: { message: string } }>(off)).data.message).toEqual(expect.any(String));
    expect((await userRow(account.id)).twoFactorEnabled).toBe(false);
    expect(await secretRow(account.id)).toBeUndefined();
    expect(await getDatabase().db.select().from(schema.backupCodes).where(eq(schema.backupCodes.userId, account.id))).toEqual([]);

    expect((await loginAccount(account.email, account.password)).status).toBe(200);
    const again = await disable(bearer(account.accessToken), backupCodes[4]!);
    expect(again.status).toBe(409);
    expect(await errorCode(again)).toBe("CONFLICT");

    // Set-up can start over with a new secret.
    expect(await startSetUp(account)).not.toBe(secret);
  });

  it("accepts a current TOTP code", async () => {
    const { account, secret } = await accountWithTwoFactor();
    const step = (await secretRow(account.id))!.lastTimeStep!;
    const off = await disable(bearer(account.accessToken), await codeForStep(secret, step + 1));
    expect(off.status).toBe(200);
    expect((await userRow(account.id)).twoFactorEnabled).toBe(false);
  });

  it("counts wrong codes against the account's sign-in lockout", async () => {
    await awayFromWindowEdge(15 * 60_000, 60_000);
    const { account, secret, backupCodes } = await accountWithTwoFactor();
    const bad = await wrongCode(secret);
    for (let i = 0; i < 10; i++) expect((await disable(bearer(account.accessToken), bad)).status).toBe(401);
    const locked = await disable(bearer(account.accessToken), backupCodes[0]!);
    expect(locked.status).toBe(429);
    expect(await errorCode(locked)).toBe("RATE_LIMIT_EXCEEDED");
    expect(Number(locked.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await userRow(account.id)).twoFactorEnabled).toBe(true);
    expect((await loginAccount(account.email, account.password, { twoFactorCode: backupCodes[1] })).status).toBe(429);
  });

  it("answers 409 when two-factor is not on", async () => {
    const account = await registerAccount();
    const response = await disable(bearer(account.accessToken), "123456");
    expect(response.status).toBe(409);
    expect(await errorCode(response)).toBe("CONFLICT");
  });
});

describe("security", () => {
  it("enable, verify and disable refuse API keys with 403 and anonymous callers with 401", async () => {
    const { account, secret, backupCodes } = await accountWithTwoFactor();
    const created = await call(createApiKeyRoute, apiRequest("/api/v1/auth/api-keys", { method: "POST", headers: bearer(account.accessToken), body: { name: "script" } }));
    expect(created.status).toBe(201);
    const { key } = (await json<{ data: { key: string } }>(created)).data;
    const viaKey = { "X-API-Key": key };

    for (const response of [await enable(viaKey), await verify(viaKey, await currentCode(secret)), await disable(viaKey, backupCodes[0]!)]) {
      expect(response.status).toBe(403);
      expect(await errorCode(response)).toBe("FORBIDDEN");
    }
    for (const response of [await enable({}), await verify({}, "123456"), await disable({}, "123456")]) {
      expect(response.status).toBe(401);
      expect(await errorCode(response)).toBe("UNAUTHORIZED");
    }
    // Nothing changed: the backup code refused above still works.
    expect((await userRow(account.id)).twoFactorEnabled).toBe(true);
    expect((await loginAccount(account.email, account.password, { twoFactorCode: backupCodes[0] })).status).toBe(200);
  });

  it("sends a security notice when two-factor is turned on and off", async () => {
    const { account, backupCodes } = await accountWithTwoFactor();
    expect((await disable(bearer(account.accessToken), backupCodes[0]!)).status).toBe(200);
    await runPendingJobs({ name: EMAIL_SEND_JOB });
    const subjects = (await listMailbox({ to: account.email })).map((message) => message.subject);
    expect(subjects).toContain("Two-factor authentication is on");
    expect(subjects).toContain("Two-factor authentication is off");
  });
});
