import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { systemContext } from "@/lib/services/context";
import { getLostPoster } from "@/lib/services/finder";
import { listMailbox } from "@/lib/email/mailbox";
import { prepareJobs, runPendingJobs, stopJobs } from "@/lib/jobs";
import type { TagStatus } from "@/lib/services/tags/transitions";
import { GET as listRoute } from "@/app/api/v1/rewards/route";
import { DELETE as deleteRoute, POST as createRoute } from "@/app/api/v1/rewards/[id]/route";
import { POST as payRoute } from "@/app/api/v1/rewards/[id]/pay/route";
import { POST as disputeRoute } from "@/app/api/v1/rewards/[id]/dispute/route";
import { POST as confirmRoute } from "@/app/api/v1/rewards/confirm-return/[tagId]/route";
import { GET as certificateRoute } from "@/app/api/v1/rewards/certificate/[tagId]/route";
import { GET as certificateByIdRoute } from "@/app/api/v1/rewards/certificates/[certificateId]/route";
import { GET as finderRewardRoute } from "@/app/api/v1/scan/thread/[token]/reward/route";
import { POST as contactRoute } from "@/app/api/v1/scan/[encryptedId]/contact/route";
import { GET as scanRoute } from "@/app/api/v1/scan/[encryptedId]/route";
import { GET as exportRoute } from "@/app/api/v1/auth/me/export/route";
import { GET as notificationsRoute } from "@/app/api/v1/notifications/route";
import { POST as transferRoute } from "@/app/api/v1/tags/[id]/transfer/route";
import { POST as acceptTransferRoute } from "@/app/api/v1/tags/transfers/[id]/accept/route";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { finderReplyRequest, threadRow, threadRowByToken } from "../support/messages";
import { apiRequest, call, json, nextTestIp } from "../support/http";
import { giveTestTag, tagRow } from "../support/tags";

beforeAll(async () => {
  await prepareJobs();
});
afterAll(async () => {
  await stopJobs();
});

const MISSING_ID = "00000000-0000-4000-8000-000000000000";
type RewardBody = {
  id: string;
  tagId: string;
  tagName: string | null;
  amount: number;
  currency: string;
  description: string | null;
  status: string;
  paymentRef: string | null;
  paidAt: string | null;
  disputeReason: string | null;
  verifiedHandover: boolean;
  handoverAttemptsLeft: number;
  certificateId: string | null;
};
type ErrorBody = { success: false; error: { code: string; message: string; details?: { attemptsLeft?: number; locked?: boolean } } };
type FinderRewardBody = {
  offered: boolean;
  amount: number | null;
  currency: string | null;
  status: string | null;
  handoverCode: string | null;
  handoverAdvice: string | null;
  outcome: string | null;
  verifiedHandover: boolean;
  certificateUrl: string | null;
};
type CertificateBody = {
  certificate: { tagId: string; itemName: string | null; returnedAt: string; certificateId: string; verifyUrl: string; verifiedHandover: boolean; rewardAmount: number; rewardCurrency: string; rewardStatus: string };
};

const create = (account: TestAccount, tagId: string, body: unknown = { amount: 50 }) =>
  call(createRoute, apiRequest(`/api/v1/rewards/${tagId}`, { method: "POST", headers: bearer(account.accessToken), body }), { id: tagId });
const remove = (account: TestAccount, id: string) => call(deleteRoute, apiRequest(`/api/v1/rewards/${id}`, { method: "DELETE", headers: bearer(account.accessToken) }), { id });
const pay = (account: TestAccount, id: string, body: unknown = {}) =>
  call(payRoute, apiRequest(`/api/v1/rewards/${id}/pay`, { method: "POST", headers: bearer(account.accessToken), body }), { id });
const dispute = (account: TestAccount, id: string, body: unknown = { reason: "Damaged" }) =>
  call(disputeRoute, apiRequest(`/api/v1/rewards/${id}/dispute`, { method: "POST", headers: bearer(account.accessToken), body }), { id });
const confirm = (account: TestAccount, tagId: string, body: unknown = {}) =>
  call(confirmRoute, apiRequest(`/api/v1/rewards/confirm-return/${tagId}`, { method: "POST", headers: bearer(account.accessToken), body }), { tagId });
const list = (account: TestAccount, query = "") => call(listRoute, apiRequest(`/api/v1/rewards${query}`, { headers: bearer(account.accessToken) }));
const certificate = (tagId: string) => call(certificateRoute, apiRequest(`/api/v1/rewards/certificate/${tagId}`, { ip: nextTestIp() }), { tagId });
const certificateById = (certificateId: string) =>
  call(certificateByIdRoute, apiRequest(`/api/v1/rewards/certificates/${certificateId}`, { ip: nextTestIp() }), { certificateId });
const finderView = (token: string) => call(finderRewardRoute, apiRequest(`/api/v1/scan/thread/${token}/reward`, { ip: nextTestIp() }), { token });

async function data<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return (JSON.parse(text) as { data: T }).data;
}
async function expectError(response: Response, status: number, code: string): Promise<ErrorBody["error"]> {
  expect(response.status).toBe(status);
  const body = await json<ErrorBody>(response);
  expect(body.success).toBe(false);
  expect(body.error.code).toBe(code);
  return body.error;
}

async function ownerWithTag(status: TagStatus = "LOST") {
  const owner = await registerAccount();
  const tag = await giveTestTag(owner.id, { status, itemName: "Blue backpack" });
  await getDatabase().db.update(schema.tags).set({ visibility: "PUBLIC" }).where(eq(schema.tags.id, tag.id));
  return { owner, tag };
}

/** A reward brought to `state` through the API. */
async function rewardIn(state: "ACTIVE" | "RETURNED" | "PAID" | "DISPUTED") {
  const { owner, tag } = await ownerWithTag();
  const reward = await data<RewardBody>(await create(owner, tag.id), 201);
  if (state !== "ACTIVE") await data(await confirm(owner, tag.id), 200);
  if (state === "PAID") await data(await pay(owner, reward.id), 200);
  if (state === "DISPUTED") await data(await dispute(owner, reward.id), 200);
  return { owner, tag, reward };
}

async function openThread(encryptedId: string, finderEmail?: string): Promise<string> {
  const response = await call(contactRoute, apiRequest(`/api/v1/scan/${encryptedId}/contact`, { method: "POST", ip: nextTestIp(), body: { message: "I found your backpack.", finderEmail } }), { encryptedId });
  return (await data<{ threadToken: string }>(response, 201)).threadToken;
}

const rewardRow = async (id: string) => (await getDatabase().db.select().from(schema.rewards).where(eq(schema.rewards.id, id)))[0];

describe("POST /rewards/:tagId", () => {
  it("offers a reward: 201, amount in major units, currency upper case, stored in minor units, owner notified", async () => {
    const { owner, tag } = await ownerWithTag();
    const reward = await data<RewardBody>(await create(owner, tag.id, { amount: 25.5, currency: "eur", description: "Thanks!" }), 201);
    expect(reward).toMatchObject({ tagId: tag.id, tagName: "Blue backpack", amount: 25.5, currency: "EUR", description: "Thanks!", status: "ACTIVE", paidAt: null });
    expect((await rewardRow(reward.id))!.amountMinor).toBe(2550);
    expect(JSON.stringify(reward)).not.toMatch(/handover(Code|CodeSealed)/);
    const notes = await getDatabase().db.select().from(schema.notifications).where(and(eq(schema.notifications.userId, owner.id), eq(schema.notifications.type, "REWARD_UPDATED")));
    expect(notes).toHaveLength(1);
    const defaulted = await data<RewardBody>(await create(owner, (await giveTestTag(owner.id, { status: "ACTIVE" })).id, { amount: 10 }), 201);
    expect(defaulted.currency).toBe("USD");
  });

  it("validates the amount (> 0, ≤ 10 000, cents) and the currency", async () => {
    const { owner, tag } = await ownerWithTag();
    for (const body of [{ amount: 0 }, { amount: -1 }, { amount: 10_000.01 }, { amount: 1.234 }, { amount: "5" }, {}, { amount: 5, currency: "DOLLARS" }, { amount: 5, description: "x".repeat(2001) }]) {
      await expectError(await create(owner, tag.id, body), 400, "VALIDATION_ERROR");
    }
    await data(await create(owner, tag.id, { amount: 10_000 }), 201);
  });

  it("a second ACTIVE or RETURNED reward on the tag is 409; after PAID a new one may be offered", async () => {
    const { owner, tag, reward } = await rewardIn("ACTIVE");
    await expectError(await create(owner, tag.id), 409, "CONFLICT");
    await data(await confirm(owner, tag.id), 200);
    await expectError(await create(owner, tag.id), 409, "CONFLICT");
    await data(await pay(owner, reward.id), 200);
    await data(await create(owner, tag.id), 201);
  });

  it("ten concurrent offers on one tag: exactly one 201, nine 409", async () => {
    const { owner, tag } = await ownerWithTag();
    const responses = await Promise.all(Array.from({ length: 10 }, () => create(owner, tag.id)));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    expect(await getDatabase().db.select().from(schema.rewards).where(eq(schema.rewards.tagId, tag.id))).toHaveLength(1);
  });

  it("another user's tag is 404, like a random id; a malformed id is 404", async () => {
    const { tag } = await ownerWithTag();
    const intruder = await registerAccount();
    const theirs = await expectError(await create(intruder, tag.id), 404, "NOT_FOUND");
    const random = await expectError(await create(intruder, MISSING_ID), 404, "NOT_FOUND");
    expect(theirs).toEqual(random);
    await expectError(await create(intruder, "not-a-uuid"), 404, "NOT_FOUND");
  });
});

describe("the reward state table", () => {
  it("confirm-return: ACTIVE → RETURNED, the LOST tag → FOUND (with its event), the owner notified", async () => {
    const { owner, tag, reward } = await rewardIn("ACTIVE");
    const result = await data<{ tagId: string; status: string; message: string }>(await confirm(owner, tag.id), 200);
    expect(result).toMatchObject({ tagId: tag.id, status: "RETURNED" });
    expect(result.message).toMatch(/paid/i);
    expect((await tagRow(tag.id))!.status).toBe("FOUND");
    const events = await getDatabase().db.select().from(schema.tagEvents).where(eq(schema.tagEvents.tagId, tag.id));
    expect(events.some((e) => e.fromStatus === "LOST" && e.toStatus === "FOUND")).toBe(true);
    expect((await rewardRow(reward.id))!.status).toBe("RETURNED");
    const notes = await getDatabase().db.select().from(schema.notifications).where(and(eq(schema.notifications.userId, owner.id), eq(schema.notifications.type, "REWARD_UPDATED")));
    expect(notes.map((n) => (n.data as { status: string }).status)).toEqual(expect.arrayContaining(["ACTIVE", "RETURNED"]));
  });

  it("confirm-return on an ACTIVE (not LOST) tag leaves the tag ACTIVE", async () => {
    const { owner, tag } = await ownerWithTag("ACTIVE");
    await data(await create(owner, tag.id), 201);
    await data(await confirm(owner, tag.id), 200);
    expect((await tagRow(tag.id))!.status).toBe("ACTIVE");
  });

  it("confirm-return is 409 from RETURNED, PAID and DISPUTED, and with no reward at all", async () => {
    for (const state of ["RETURNED", "PAID", "DISPUTED"] as const) {
      const { owner, tag } = await rewardIn(state);
      await expectError(await confirm(owner, tag.id), 409, "CONFLICT");
    }
    const { owner, tag } = await ownerWithTag();
    await expectError(await confirm(owner, tag.id), 409, "CONFLICT");
  });

  it("pay: RETURNED → PAID with paymentRef and paidAt; 409 from ACTIVE, PAID and DISPUTED", async () => {
    const { owner, reward } = await rewardIn("RETURNED");
    const paid = await data<RewardBody>(await pay(owner, reward.id, { paymentRef: "PAYPAL-7XK29" }), 200);
    expect(paid).toMatchObject({ id: reward.id, status: "PAID", paymentRef: "PAYPAL-7XK29" });
    expect(Date.parse(paid.paidAt!)).not.toBeNaN();
    for (const state of ["ACTIVE", "PAID", "DISPUTED"] as const) {
      const other = await rewardIn(state);
      await expectError(await pay(other.owner, other.reward.id), 409, "CONFLICT");
    }
  });

  it("dispute: RETURNED → DISPUTED and PAID → DISPUTED with the reason; 409 from ACTIVE and DISPUTED; reason required", async () => {
    for (const state of ["RETURNED", "PAID"] as const) {
      const { owner, reward } = await rewardIn(state);
      await expectError(await dispute(owner, reward.id, {}), 400, "VALIDATION_ERROR");
      const result = await data<RewardBody & { message: string }>(await dispute(owner, reward.id, { reason: "Came back damaged" }), 200);
      expect(result).toMatchObject({ id: reward.id, status: "DISPUTED", disputeReason: "Came back damaged" });
    }
    for (const state of ["ACTIVE", "DISPUTED"] as const) {
      const { owner, reward } = await rewardIn(state);
      await expectError(await dispute(owner, reward.id), 409, "CONFLICT");
    }
  });

  it("delete: ACTIVE and DISPUTED are removed; RETURNED and PAID are 409", async () => {
    for (const state of ["ACTIVE", "DISPUTED"] as const) {
      const { owner, reward } = await rewardIn(state);
      expect((await data<{ message: string }>(await remove(owner, reward.id), 200)).message).toBeTruthy();
      expect(await rewardRow(reward.id)).toBeUndefined();
      await expectError(await remove(owner, reward.id), 404, "NOT_FOUND");
    }
    for (const state of ["RETURNED", "PAID"] as const) {
      const { owner, reward } = await rewardIn(state);
      await expectError(await remove(owner, reward.id), 409, "CONFLICT");
      expect(await rewardRow(reward.id)).toBeDefined();
    }
  });

  it("another user's reward is 404 on every verb, identical to a random id", async () => {
    const { tag, reward } = await rewardIn("RETURNED");
    const intruder = await registerAccount();
    for (const act of [(id: string) => pay(intruder, id), (id: string) => dispute(intruder, id), (id: string) => remove(intruder, id)]) {
      const theirs = await expectError(await act(reward.id), 404, "NOT_FOUND");
      expect(theirs).toEqual(await expectError(await act(MISSING_ID), 404, "NOT_FOUND"));
    }
    const theirs = await expectError(await confirm(intruder, tag.id), 404, "NOT_FOUND");
    expect(theirs).toEqual(await expectError(await confirm(intruder, MISSING_ID), 404, "NOT_FOUND"));
    expect((await rewardRow(reward.id))!.status).toBe("RETURNED");
    expect(await data<RewardBody[]>(await list(intruder), 200)).toEqual([]);
  });
});

describe("GET /rewards", () => {
  it("lists the caller's rewards, paginated, newest first; bad pagination is 400", async () => {
    const { owner, tag } = await ownerWithTag();
    const first = await data<RewardBody>(await create(owner, tag.id), 201);
    const second = await data<RewardBody>(await create(owner, (await giveTestTag(owner.id, { status: "ACTIVE" })).id, { amount: 7 }), 201);
    const response = await list(owner, "?page=1&limit=1");
    expect(response.status).toBe(200);
    const body = await json<{ data: RewardBody[]; meta: { total: number } }>(response);
    expect(body.data.map((r) => r.id)).toEqual([second.id]);
    expect(body.meta.total).toBe(2);
    const page2 = await json<{ data: RewardBody[] }>(await list(owner, "?page=2&limit=1"));
    expect(page2.data.map((r) => r.id)).toEqual([first.id]);
    await expectError(await list(owner, "?limit=101"), 400, "VALIDATION_ERROR");
  });

  it("?tagId= narrows the list to one tag; another user's tag lists nothing; a malformed id is 400", async () => {
    const { owner, tag } = await ownerWithTag();
    const other = await giveTestTag(owner.id, { status: "ACTIVE" });
    const onTag = await data<RewardBody>(await create(owner, tag.id), 201);
    await data<RewardBody>(await create(owner, other.id, { amount: 3 }), 201);
    const body = await json<{ data: RewardBody[]; meta: { total: number } }>(await list(owner, `?tagId=${tag.id}`));
    expect(body.data.map((r) => r.id)).toEqual([onTag.id]);
    expect(body.meta.total).toBe(1);
    const stranger = await registerAccount();
    const theirs = await json<{ data: RewardBody[]; meta: { total: number } }>(await list(stranger, `?tagId=${tag.id}`));
    expect(theirs.data).toEqual([]);
    expect(theirs.meta.total).toBe(0);
    await expectError(await list(owner, "?tagId=nope"), 400, "VALIDATION_ERROR");
  });
});

describe("certificates", () => {
  it("404 before the return; after it, the same object by tag and by certificateId; DISPUTED has none", async () => {
    const { owner, tag, reward } = await rewardIn("ACTIVE");
    expect(reward.certificateId).toBeNull();
    await expectError(await certificate(tag.id), 404, "NOT_FOUND");
    await data(await confirm(owner, tag.id), 200);
    const byTag = await data<CertificateBody>(await certificate(tag.id), 200);
    expect(byTag.certificate).toMatchObject({ tagId: tag.id, itemName: "Blue backpack", verifiedHandover: false });
    expect(byTag.certificate.certificateId).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(byTag.certificate.verifyUrl).toBe(`http://localhost:3000/certificates/${byTag.certificate.certificateId}`);
    expect(byTag.certificate).toMatchObject({ rewardAmount: 50, rewardCurrency: "USD", rewardStatus: "RETURNED" });
    expect(await data<CertificateBody>(await certificateById(byTag.certificate.certificateId), 200)).toEqual(byTag);
    const [record] = (await json<{ data: RewardBody[] }>(await list(owner, `?tagId=${tag.id}`))).data;
    expect(record!.certificateId).toBe(byTag.certificate.certificateId);
    await data(await pay(owner, reward.id), 200);
    expect(await data<CertificateBody>(await certificate(tag.id), 200)).toEqual({ certificate: { ...byTag.certificate, rewardStatus: "PAID" } });
    await data(await dispute(owner, reward.id), 200);
    await expectError(await certificate(tag.id), 404, "NOT_FOUND");
    await expectError(await certificateById(byTag.certificate.certificateId), 404, "NOT_FOUND");
    await expectError(await certificateById("AAAAAAAAAAAAAAAAAAAAAAAA"), 404, "NOT_FOUND");
    await expectError(await certificate("nope"), 404, "NOT_FOUND");
  });
});

describe("the finder's view and the handover code", () => {
  it("no reward: offered false; then the amount, a 6-digit code and the advice; the scan view carries the amount", async () => {
    const { owner, tag } = await ownerWithTag();
    const token = await openThread(tag.encryptedId);
    expect(await data<FinderRewardBody>(await finderView(token), 200)).toMatchObject({ offered: false, amount: null, handoverCode: null });
    const scanBefore = await data<{ reward: number | null; rewardCurrency: string | null }>(await call(scanRoute, apiRequest(`/api/v1/scan/${tag.encryptedId}`, { ip: nextTestIp() }), { encryptedId: tag.encryptedId }), 200);
    expect(scanBefore).toMatchObject({ reward: null, rewardCurrency: null });
    await data(await create(owner, tag.id, { amount: 40, currency: "gbp" }), 201);
    const view = await data<FinderRewardBody>(await finderView(token), 200);
    expect(view).toMatchObject({ offered: true, amount: 40, currency: "GBP", status: "ACTIVE" });
    expect(view.handoverCode).toMatch(/^\d{6}$/);
    expect(view.handoverAdvice).toMatch(/hands/);
    expect(view.certificateUrl).toBeNull();
    const scanAfter = await data<{ reward: number | null; rewardCurrency: string | null }>(await call(scanRoute, apiRequest(`/api/v1/scan/${tag.encryptedId}`, { ip: nextTestIp() }), { encryptedId: tag.encryptedId }), 200);
    expect(scanAfter).toMatchObject({ reward: 40, rewardCurrency: "GBP" });
    const ownerCtx = { ...systemContext(getDatabase().db), actor: { kind: "user" as const, userId: owner.id, role: "USER" as const, ip: "127.0.0.1" } };
    expect((await getLostPoster(ownerCtx, tag.id)).reward).toEqual({ amount: 40, currency: "GBP" });
    await expectError(await finderView("A".repeat(43)), 404, "NOT_FOUND");
  });

  it("a matching code marks a verified handover on the reward and certificate, once; the code is gone afterwards", async () => {
    const { owner, tag, reward } = await rewardIn("ACTIVE");
    const token = await openThread(tag.encryptedId);
    const code = (await data<FinderRewardBody>(await finderView(token), 200)).handoverCode!;
    const result = await data<{ verifiedHandover: boolean }>(await confirm(owner, tag.id, { handoverCode: code }), 200);
    expect(result.verifiedHandover).toBe(true);
    expect((await data<CertificateBody>(await certificate(tag.id), 200)).certificate.verifiedHandover).toBe(true);
    const after = await data<FinderRewardBody>(await finderView(token), 200);
    expect(after).toMatchObject({ status: "RETURNED", handoverCode: null, verifiedHandover: true });
    expect(after.certificateUrl).toBe((await data<CertificateBody>(await certificate(tag.id), 200)).certificate.verifyUrl);
    await expectError(await confirm(owner, tag.id, { handoverCode: code }), 409, "CONFLICT");
    expect(await getDatabase().db.select().from(schema.rewardHandovers).where(eq(schema.rewardHandovers.rewardId, reward.id))).toHaveLength(0);
    expect((await tagRow(tag.id))!.status).toBe("FOUND");
  });

  it("wrong codes are refused and counted; the fifth locks the check, even for the right code; confirming without a code still works", async () => {
    const { owner, tag, reward } = await rewardIn("ACTIVE");
    const token = await openThread(tag.encryptedId);
    const code = (await data<FinderRewardBody>(await finderView(token), 200)).handoverCode!;
    const wrong = code === "000000" ? "111111" : "000000";
    expect(reward.handoverAttemptsLeft).toBe(5);
    for (let attempt = 1; attempt <= 5; attempt++) {
      const error = await expectError(await confirm(owner, tag.id, { handoverCode: wrong }), 422, "UNPROCESSABLE_ENTITY");
      expect(error.details).toEqual({ attemptsLeft: 5 - attempt, locked: attempt === 5 });
    }
    expect((await rewardRow(reward.id))!).toMatchObject({ status: "ACTIVE", handoverFailures: 5 });
    expect((await json<{ data: RewardBody[] }>(await list(owner, `?tagId=${tag.id}`))).data[0]!.handoverAttemptsLeft).toBe(0);
    const locked = await expectError(await confirm(owner, tag.id, { handoverCode: code }), 422, "UNPROCESSABLE_ENTITY");
    expect(locked.details).toMatchObject({ locked: true });
    expect((await tagRow(tag.id))!.status).toBe("LOST");
    await expectError(await confirm(owner, tag.id, { handoverCode: "12345" }), 400, "VALIDATION_ERROR");
    const plain = await data<{ verifiedHandover: boolean }>(await confirm(owner, tag.id), 200);
    expect(plain.verifiedHandover).toBe(false);
  });

  it("the owner never sees the code: not in any reward answer, the list, notifications or the account export", async () => {
    const { owner, tag, reward } = await rewardIn("ACTIVE");
    const token = await openThread(tag.encryptedId);
    const code = (await data<FinderRewardBody>(await finderView(token), 200)).handoverCode!;
    const texts = [
      await (await list(owner)).text(),
      await (await call(notificationsRoute, apiRequest("/api/v1/notifications", { headers: bearer(owner.accessToken) }))).text(),
      await (await call(exportRoute, apiRequest("/api/v1/auth/me/export", { ip: nextTestIp(), headers: bearer(owner.accessToken) }))).text(),
    ];
    for (const text of texts) expect(text).not.toMatch(/handover(Code|CodeSealed)"/);
    const exported = JSON.parse(texts[2]!) as { data: { rewards: { id: string }[] } };
    expect(exported.data.rewards.map((r) => r.id)).toEqual([reward.id]);
    expect(texts.join("\n")).not.toContain(`"${code}"`);
    const [handover] = await getDatabase().db.select().from(schema.rewardHandovers).where(eq(schema.rewardHandovers.rewardId, reward.id));
    expect(handover!.codeSealed).not.toContain(code);
    expect(handover!.codeHash).not.toContain(code);
  });
});

describe("telling the finder", () => {
  it("a finder who left an e-mail address is e-mailed the conversation link when a reward is offered, without the amount or the code", async () => {
    const { owner, tag } = await ownerWithTag();
    const finderEmail = `finder-${randomBytes(4).toString("hex")}@example.net`;
    const token = await openThread(tag.encryptedId, finderEmail);
    await data(await create(owner, tag.id, { amount: 75 }), 201);
    const report = await runPendingJobs({ name: "email.send" });
    expect(report.failed).toBe(0);
    const mails = await listMailbox({ to: finderEmail });
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/reward/i);
    expect(mails[0]!.text).toContain(token);
    const code = (await data<FinderRewardBody>(await finderView(token), 200)).handoverCode!;
    expect(mails[0]!.text).not.toContain(code);
    expect(mails[0]!.text).not.toContain("75 USD");
  });
});

describe("a tag transfer and rewards", () => {
  type ScanBody = { reward: number | null; rewardCurrency: string | null };
  const scanView = async (encryptedId: string) => data<ScanBody>(await call(scanRoute, apiRequest(`/api/v1/scan/${encryptedId}`, { ip: nextTestIp() }), { encryptedId }), 200);

  /** Offers the tag to a new account with a confirmed address, which accepts: the new owner. */
  async function transferTo(sender: TestAccount, tagId: string): Promise<TestAccount> {
    const recipient = await registerAccount();
    await getDatabase().db.update(schema.users).set({ emailVerified: true }).where(eq(schema.users.id, recipient.id));
    const offered = await data<{ id: string }>(await call(transferRoute, apiRequest(`/api/v1/tags/${tagId}/transfer`, { method: "POST", headers: bearer(sender.accessToken), body: { email: recipient.email } }), { id: tagId }), 201);
    await data(await call(acceptTransferRoute, apiRequest(`/api/v1/tags/transfers/${offered.id}/accept`, { method: "POST", headers: bearer(recipient.accessToken) }), { id: offered.id }), 200);
    return recipient;
  }

  it("withdraws the sender's ACTIVE reward: GET /scan shows none, the sender's conversations show none, and the new owner may offer their own", async () => {
    const { owner, tag, reward } = await rewardIn("ACTIVE");
    const token = await openThread(tag.encryptedId);
    expect((await data<FinderRewardBody>(await finderView(token), 200)).handoverCode).toMatch(/^\d{6}$/);
    expect(await scanView(tag.encryptedId)).toEqual(expect.objectContaining({ reward: 50, rewardCurrency: "USD" }));

    const newOwner = await transferTo(owner, tag.id);
    expect(await rewardRow(reward.id)).toBeUndefined();
    expect(await scanView(tag.encryptedId)).toEqual(expect.objectContaining({ reward: null, rewardCurrency: null }));
    expect(await data<FinderRewardBody>(await finderView(token), 200)).toMatchObject({ offered: false, amount: null, status: null, handoverCode: null });
    expect((await json<{ data: RewardBody[] }>(await list(owner))).data).toEqual([]);
    const told = await getDatabase().db.select().from(schema.notifications).where(and(eq(schema.notifications.userId, owner.id), eq(schema.notifications.type, "TAG_STATUS_CHANGED")));
    expect(told.map((notification) => notification.body)).toEqual([expect.stringContaining("Your open reward on it was withdrawn.")]);

    // The new owner's own offer: on the scan page, but never in the sender's conversation.
    await data(await create(newOwner, tag.id, { amount: 20, currency: "eur" }), 201);
    expect(await scanView(tag.encryptedId)).toEqual(expect.objectContaining({ reward: 20, rewardCurrency: "EUR" }));
    expect(await data<FinderRewardBody>(await finderView(token), 200)).toMatchObject({ offered: false, handoverCode: null });
    const newToken = await openThread(tag.encryptedId);
    expect(await data<FinderRewardBody>(await finderView(newToken), 200)).toMatchObject({ offered: true, amount: 20, currency: "EUR", status: "ACTIVE" });
  });

  it("keeps the sender's RETURNED reward theirs: the sender may still pay it, the new owner neither sees it nor is blocked by it", async () => {
    const { owner, tag, reward } = await rewardIn("RETURNED");
    const returned = await rewardRow(reward.id);
    expect((await data<CertificateBody>(await certificate(tag.id), 200)).certificate.certificateId).toBe(returned!.certificateId);

    const newOwner = await transferTo(owner, tag.id);
    expect(await rewardRow(reward.id)).toMatchObject({ status: "RETURNED", ownerId: owner.id });
    expect((await json<{ data: RewardBody[] }>(await list(newOwner, `?tagId=${tag.id}`))).data).toEqual([]);
    expect((await json<{ data: RewardBody[] }>(await list(newOwner))).data).toEqual([]);
    // The tag's certificate is the current owner's; the sender's stays reachable by its own id.
    await expectError(await certificate(tag.id), 404, "NOT_FOUND");
    expect((await data<CertificateBody>(await certificateById(returned!.certificateId!), 200)).certificate.rewardStatus).toBe("RETURNED");
    expect(await scanView(tag.encryptedId)).toEqual(expect.objectContaining({ reward: null }));

    await data(await pay(owner, reward.id), 200);
    const offered = await data<RewardBody>(await create(newOwner, tag.id, { amount: 15 }), 201);
    expect(offered.status).toBe("ACTIVE");
    await expectError(await create(newOwner, tag.id, { amount: 15 }), 409, "CONFLICT");
    expect(await scanView(tag.encryptedId)).toEqual(expect.objectContaining({ reward: 15 }));
  });

  it("GET /scan never shows a reward the current owner did not offer, even one left ACTIVE by someone else", async () => {
    const { owner, tag } = await ownerWithTag();
    const newOwner = await transferTo(owner, tag.id);
    // Test setup: a row the services never leave behind (an ACTIVE reward of the previous owner).
    await getDatabase().db.insert(schema.rewards).values({ tagId: tag.id, ownerId: owner.id, amountMinor: 9900, currency: "USD" });
    expect(await scanView(tag.encryptedId)).toEqual(expect.objectContaining({ reward: null, rewardCurrency: null }));
    const ownerCtx = { ...systemContext(getDatabase().db), actor: { kind: "user" as const, userId: newOwner.id, role: "USER" as const, ip: "127.0.0.1" } };
    expect((await getLostPoster(ownerCtx, tag.id)).reward).toBeNull();
  });
});

describe("one handover code per finder", () => {
  type ConfirmBody = { tagId: string; status: string; verifiedHandover: boolean; confirmation: string; finderThreadId: string | null; message: string };
  type Finder = { token: string; threadId: string; email: string };
  const codeOf = async (token: string) => (await data<FinderRewardBody>(await finderView(token), 200)).handoverCode!;

  async function finderOf(encryptedId: string): Promise<Finder> {
    const email = `finder-${randomBytes(4).toString("hex")}@example.net`;
    const token = await openThread(encryptedId, email);
    return { token, threadId: (await threadRowByToken(token))!.id, email };
  }

  async function twoFinders() {
    const { owner, tag, reward } = await rewardIn("ACTIVE");
    const [first, second] = [await finderOf(tag.encryptedId), await finderOf(tag.encryptedId)];
    return { owner, tag, reward, first, second };
  }

  it("each conversation gets its own code; the code confirmed names its finder alone, the other is told the item is home and closed", async () => {
    const { owner, tag, reward, first, second } = await twoFinders();
    const [firstCode, secondCode] = [await codeOf(first.token), await codeOf(second.token)];
    expect(firstCode).toMatch(/^\d{6}$/);
    expect(secondCode).not.toBe(firstCode);
    expect(await codeOf(first.token)).toBe(firstCode); // stable across views
    await runPendingJobs({ name: "email.send" });

    const confirmed = await data<ConfirmBody>(await confirm(owner, tag.id, { handoverCode: secondCode }), 200);
    expect(confirmed).toMatchObject({ status: "RETURNED", verifiedHandover: true, confirmation: "HANDOVER_CODE", finderThreadId: second.threadId });
    const listed = (await json<{ data: (RewardBody & { returnConfirmation: string; finderThreadId: string })[] }>(await list(owner, `?tagId=${tag.id}`))).data[0]!;
    expect(listed).toMatchObject({ returnConfirmation: "HANDOVER_CODE", finderThreadId: second.threadId });

    const mine = await data<FinderRewardBody>(await finderView(second.token), 200);
    expect(mine).toMatchObject({ outcome: "YOURS", status: "RETURNED", verifiedHandover: true, handoverCode: null });
    expect(mine.certificateUrl).toBe((await data<CertificateBody>(await certificate(tag.id), 200)).certificate.verifyUrl);
    const other = await data<FinderRewardBody>(await finderView(first.token), 200);
    expect(other).toEqual(expect.objectContaining({ outcome: "ITEM_BACK", status: "RETURNED", verifiedHandover: false, handoverCode: null, certificateUrl: null }));
    expect((await threadRow(first.threadId))!.status).toBe("CLOSED");
    expect((await threadRow(second.threadId))!.status).toBe("ACTIVE");
    expect((await finderReplyRequest(first.token, { message: "Still there?" })).status).toBe(403);

    // Paid: only the named finder hears of it; the other still only knows the item is home.
    await data(await pay(owner, reward.id), 200);
    expect(await data<FinderRewardBody>(await finderView(second.token), 200)).toMatchObject({ outcome: "YOURS", status: "PAID" });
    expect(await data<FinderRewardBody>(await finderView(first.token), 200)).toMatchObject({ outcome: "ITEM_BACK", status: "RETURNED", certificateUrl: null });

    expect((await runPendingJobs({ name: "email.send" })).failed).toBe(0);
    const [toFirst, toSecond] = [await listMailbox({ to: first.email }), await listMailbox({ to: second.email })];
    expect(toFirst.map((mail) => mail.subject)).toContain("The item is back with its owner");
    expect(toSecond.map((mail) => mail.subject)).not.toContain("The item is back with its owner");
    expect(toSecond.map((mail) => mail.subject)).toContain("News about the reward for the item you found");
    const certified = (await data<CertificateBody>(await certificate(tag.id), 200)).certificate as CertificateBody["certificate"] & { confirmation: string };
    expect(certified).toMatchObject({ verifiedHandover: true, confirmation: "HANDOVER_CODE" });
    expect(await getDatabase().db.select().from(schema.rewardHandovers).where(eq(schema.rewardHandovers.rewardId, reward.id))).toEqual([]);
  });

  it("the owner confirms by choosing the conversation: that finder is named, the certificate says confirmed by the owner", async () => {
    const { owner, tag, first, second } = await twoFinders();
    await codeOf(first.token);
    const confirmed = await data<ConfirmBody>(await confirm(owner, tag.id, { threadId: first.threadId }), 200);
    expect(confirmed).toMatchObject({ verifiedHandover: false, confirmation: "OWNER_CHOSE_FINDER", finderThreadId: first.threadId });
    expect(await data<FinderRewardBody>(await finderView(first.token), 200)).toMatchObject({ outcome: "YOURS", status: "RETURNED", verifiedHandover: false });
    expect(await data<FinderRewardBody>(await finderView(second.token), 200)).toMatchObject({ outcome: "ITEM_BACK", certificateUrl: null });
    const certified = (await data<CertificateBody>(await certificate(tag.id), 200)).certificate as CertificateBody["certificate"] & { confirmation: string };
    expect(certified).toMatchObject({ verifiedHandover: false, confirmation: "OWNER_CHOSE_FINDER" });
    expect((await threadRow(second.threadId))!.status).toBe("CLOSED");
  });

  it("with no body the owner confirms alone: no finder is named, every open conversation is told the item is home", async () => {
    const { owner, tag, reward, first, second } = await twoFinders();
    await runPendingJobs({ name: "email.send" });
    const confirmed = await data<ConfirmBody>(await call(confirmRoute, apiRequest(`/api/v1/rewards/confirm-return/${tag.id}`, { method: "POST", headers: bearer(owner.accessToken) }), { tagId: tag.id }), 200);
    expect(confirmed).toMatchObject({ tagId: tag.id, status: "RETURNED", verifiedHandover: false, confirmation: "OWNER", finderThreadId: null });
    expect(confirmed.message).toMatch(/can now be paid/);
    expect((await tagRow(tag.id))!.status).toBe("FOUND");
    for (const finder of [first, second]) {
      expect(await data<FinderRewardBody>(await finderView(finder.token), 200)).toMatchObject({ outcome: "ITEM_BACK", status: "RETURNED", certificateUrl: null });
      expect((await threadRow(finder.threadId))!.status).toBe("CLOSED");
    }
    await data(await pay(owner, reward.id), 200);
    expect((await runPendingJobs({ name: "email.send" })).failed).toBe(0);
    for (const finder of [first, second]) expect((await listMailbox({ to: finder.email })).map((mail) => mail.subject)).toEqual(expect.arrayContaining(["The item is back with its owner"]));
    for (const finder of [first, second]) expect((await listMailbox({ to: finder.email })).filter((mail) => mail.subject === "The item is back with its owner")).toHaveLength(1);
    const certified = (await data<CertificateBody>(await certificate(tag.id), 200)).certificate as CertificateBody["certificate"] & { confirmation: string };
    expect(certified).toMatchObject({ verifiedHandover: false, confirmation: "OWNER" });
  });

  it("a code of no finder is counted (422); another tag's or an unknown conversation is 422 and not counted; both at once is 400", async () => {
    const { owner, tag, reward, first } = await twoFinders();
    const code = await codeOf(first.token);
    const wrong = code === "000000" ? "111111" : "000000";
    const error = await expectError(await confirm(owner, tag.id, { handoverCode: wrong }), 422, "UNPROCESSABLE_ENTITY");
    expect(error.details).toEqual({ attemptsLeft: 4, locked: false });
    const elsewhere = await ownerWithTag();
    const foreign = await finderOf(elsewhere.tag.encryptedId);
    const otherTagOfOwner = await giveTestTag(owner.id, { status: "ACTIVE" });
    const ownOtherThread = await finderOf(otherTagOfOwner.encryptedId);
    for (const threadId of [foreign.threadId, ownOtherThread.threadId, MISSING_ID]) {
      await expectError(await confirm(owner, tag.id, { threadId }), 422, "UNPROCESSABLE_ENTITY");
    }
    await expectError(await confirm(owner, tag.id, { handoverCode: code, threadId: first.threadId }), 400, "VALIDATION_ERROR");
    await expectError(await confirm(owner, tag.id, { threadId: "not-a-uuid" }), 400, "VALIDATION_ERROR");
    expect((await rewardRow(reward.id))!).toMatchObject({ status: "ACTIVE", handoverFailures: 1 });
    expect((await data<ConfirmBody>(await confirm(owner, tag.id, { handoverCode: code }), 200)).finderThreadId).toBe(first.threadId);
  });

  it("ten concurrent confirmations, with codes, conversations and none: exactly one takes effect", async () => {
    const { owner, tag, reward, first, second } = await twoFinders();
    const [firstCode, secondCode] = [await codeOf(first.token), await codeOf(second.token)];
    const bodies = [{ handoverCode: firstCode }, { handoverCode: secondCode }, { threadId: first.threadId }, { threadId: second.threadId }, {}];
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => confirm(owner, tag.id, bodies[i % bodies.length])));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    const winner = await data<ConfirmBody>(responses.find((response) => response.status === 200)!, 200);
    const row = (await rewardRow(reward.id))!;
    expect(row).toMatchObject({ status: "RETURNED", finderThreadId: winner.finderThreadId, returnConfirmation: winner.confirmation });
    const events = await getDatabase().db.select().from(schema.tagEvents).where(eq(schema.tagEvents.tagId, tag.id));
    expect(events.filter((event) => event.toStatus === "FOUND")).toHaveLength(1);
    const yours = await Promise.all([first, second].map(async (finder) => (await data<FinderRewardBody>(await finderView(finder.token), 200)).outcome));
    expect(yours.filter((outcome) => outcome === "YOURS")).toHaveLength(winner.finderThreadId ? 1 : 0);
  });

  it("a reward offered before per-finder codes (a row with no handover codes) gives each conversation its own code on first view", async () => {
    const { owner, tag } = await ownerWithTag();
    const [first, second] = [await finderOf(tag.encryptedId), await finderOf(tag.encryptedId)];
    // A reward as the previous version left it: written straight to the table, no per-conversation codes.
    const [legacy] = await getDatabase().db.insert(schema.rewards).values({ tagId: tag.id, ownerId: owner.id, amountMinor: 3000 }).returning();
    const views = await Promise.all([finderView(first.token), finderView(first.token), finderView(first.token)]);
    const codes = await Promise.all(views.map(async (view) => (await data<FinderRewardBody>(view, 200)).handoverCode));
    expect(new Set(codes).size).toBe(1);
    expect(codes[0]).toMatch(/^\d{6}$/);
    const secondCode = (await data<FinderRewardBody>(await finderView(second.token), 200)).handoverCode;
    expect(secondCode).toMatch(/^\d{6}$/);
    expect(await getDatabase().db.select().from(schema.rewardHandovers).where(eq(schema.rewardHandovers.rewardId, legacy!.id))).toHaveLength(2);
    expect(await data<ConfirmBody>(await confirm(owner, tag.id, { handoverCode: codes[0]! }), 200)).toMatchObject({ confirmation: "HANDOVER_CODE", finderThreadId: first.threadId });
    expect((await data<FinderRewardBody>(await finderView(second.token), 200)).outcome).toBe("ITEM_BACK");
  });

  it("a conversation the owner opened on their own tag is refused (403), so it can never hold a code", async () => {
    const { owner, tag } = await rewardIn("ACTIVE");
    const response = await call(
      contactRoute,
      apiRequest(`/api/v1/scan/${tag.encryptedId}/contact`, { method: "POST", ip: nextTestIp(), headers: bearer(owner.accessToken), body: { message: "I found it (wink)" } }),
      { encryptedId: tag.encryptedId },
    );
    await expectError(response, 403, "FORBIDDEN");
    expect(await getDatabase().db.select().from(schema.threads).where(eq(schema.threads.tagId, tag.id))).toEqual([]);
  });
});
