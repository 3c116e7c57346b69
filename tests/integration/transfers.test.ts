import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { DELETE as cancelRoute, GET as transferOtherMethod, POST as createRoute } from "@/app/api/v1/tags/[id]/transfer/route";
import { GET as listRoute } from "@/app/api/v1/tags/transfers/route";
import { POST as acceptRoute } from "@/app/api/v1/tags/transfers/[id]/accept/route";
import { POST as declineRoute } from "@/app/api/v1/tags/transfers/[id]/decline/route";
import { GET as getTagRoute } from "@/app/api/v1/tags/[id]/route";
import { GET as getInsuranceRoute } from "@/app/api/v1/tags/[id]/insurance/route";
import { GET as scansRoute } from "@/app/api/v1/tags/[id]/scans/route";
import { buildActionUrl } from "@/emails/links";
import { listMailbox } from "@/lib/email/mailbox";
import { prepareJobs, runPendingJobs, stopJobs } from "@/lib/jobs";
import { rateLimitPolicies } from "@/lib/ratelimit";
import { DAY_MS } from "@/lib/ratelimit/policies";
import { EXPIRE_TRANSFERS_JOB, TRANSFER_TTL_MS, type TransferRecord } from "@/lib/services/tags/transfers";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, awayFromWindowEdge, call, json } from "../support/http";
import { giveTestTag, setTier, tagRow } from "../support/tags";
import { isPagePath, linkedPaths } from "../support/page-routes";

const MISSING_ID = "00000000-0000-4000-8000-000000000000";

beforeAll(async () => {
  await prepareJobs();
});

afterAll(async () => {
  await stopJobs();
});

type ErrorBody = { success: false; error: { code: string; message: string; details?: Record<string, unknown> } };

async function verifiedAccount(): Promise<TestAccount> {
  const account = await registerAccount();
  await getDatabase().db.update(schema.users).set({ emailVerified: true }).where(eq(schema.users.id, account.id));
  return account;
}

function offer(account: TestAccount, tagId: string, email: string) {
  return call(createRoute, apiRequest(`/api/v1/tags/${tagId}/transfer`, { method: "POST", headers: bearer(account.accessToken), body: { email } }), { id: tagId });
}

function cancel(account: TestAccount, tagId: string) {
  return call(cancelRoute, apiRequest(`/api/v1/tags/${tagId}/transfer`, { method: "DELETE", headers: bearer(account.accessToken) }), { id: tagId });
}

function accept(account: TestAccount, transferId: string) {
  return call(acceptRoute, apiRequest(`/api/v1/tags/transfers/${transferId}/accept`, { method: "POST", headers: bearer(account.accessToken) }), { id: transferId });
}

function decline(account: TestAccount, transferId: string) {
  return call(declineRoute, apiRequest(`/api/v1/tags/transfers/${transferId}/decline`, { method: "POST", headers: bearer(account.accessToken) }), { id: transferId });
}

async function list(account: TestAccount) {
  const response = await call(listRoute, apiRequest("/api/v1/tags/transfers", { headers: bearer(account.accessToken) }));
  expect(response.status).toBe(200);
  return (await json<{ data: { incoming: TransferRecord[]; outgoing: TransferRecord[] } }>(response)).data;
}

async function pendingTransfer(sender: TestAccount, recipient: TestAccount, options: { itemName?: string } = {}) {
  const tag = await giveTestTag(sender.id, { status: "ACTIVE", itemName: options.itemName ?? "Blue backpack" });
  const response = await offer(sender, tag.id, recipient.email);
  expect(response.status).toBe(201);
  return { tag, transfer: (await json<{ data: TransferRecord }>(response)).data };
}

const notificationsOf = (userId: string) => getDatabase().db.select().from(schema.notifications).where(eq(schema.notifications.userId, userId));

async function scansSeenBy(account: TestAccount, tagId: string) {
  const response = await call(scansRoute, apiRequest(`/api/v1/tags/${tagId}/scans`, { headers: bearer(account.accessToken) }), { id: tagId });
  expect(response.status).toBe(200);
  return json<{ data: { id: string; city: string | null }[]; meta: { total: number } }>(response);
}

async function tagSeenBy(account: TestAccount, tagId: string) {
  const response = await call(getTagRoute, apiRequest(`/api/v1/tags/${tagId}`, { headers: bearer(account.accessToken) }), { id: tagId });
  expect(response.status).toBe(200);
  return (await json<{ data: { scanCount: number; lastScannedAt: string | null } }>(response)).data;
}

/** Test setup: two scans from finders with locations, counted on the tag record as the scan service would. */
async function scannedTwice(tagId: string) {
  const at = new Date(Date.now() - 60_000);
  await getDatabase()
    .db.insert(schema.scans)
    .values([
      { tagId, scannedAt: new Date(at.getTime() - 60_000), ipHash: "h1", city: "Paris", country: "FR", latitude: 48.85, longitude: 2.35 },
      { tagId, scannedAt: at, ipHash: "h2", city: "Lyon", country: "FR", latitude: 45.76, longitude: 4.84, locationShared: true, accuracy: 12 },
    ]);
  await getDatabase().db.update(schema.tags).set({ scanCount: 2, lastScannedAt: at }).where(eq(schema.tags.id, tagId));
}

async function transferRow(id: string) {
  const [row] = await getDatabase().db.select().from(schema.tagTransfers).where(eq(schema.tagTransfers.id, id));
  return row!;
}

describe("POST /tags/:id/transfer", () => {
  it("creates a 7-day PENDING transfer and e-mails the recipient a dashboard link", async () => {
    const sender = await registerAccount();
    const recipient = await registerAccount();
    const before = Date.now();
    const { tag, transfer } = await pendingTransfer(sender, recipient, { itemName: "Red bicycle" });
    expect(transfer).toMatchObject({ tagId: tag.id, toEmail: recipient.email, status: "PENDING", itemName: "Red bicycle", respondedAt: null });
    const expiresIn = new Date(transfer.expiresAt).getTime() - before;
    expect(expiresIn).toBeGreaterThanOrEqual(TRANSFER_TTL_MS - 1000);
    expect(expiresIn).toBeLessThanOrEqual(TRANSFER_TTL_MS + 60_000);

    expect((await runPendingJobs({ name: "email.send" })).failed).toBe(0);
    // The recipient also has the registration's verification e-mail.
    const [message, ...rest] = (await listMailbox({ to: recipient.email })).filter((mail) => mail.subject.includes("transfer"));
    expect(rest).toEqual([]);
    // The sender's chosen name never reaches the subject line.
    expect(message?.subject).toBe("A tag is being transferred to you");
    expect(message?.text).toContain("Red bicycle");
    expect(message?.text).toContain(buildActionUrl("/dashboard/tags/transfers"));
    // Every link the e-mail carries (the button, the footer) opens a page that exists.
    const paths = linkedPaths(message!.text, new URL(buildActionUrl("/")).origin);
    expect(paths.length).toBeGreaterThan(0);
    for (const linked of paths) expect(isPagePath(linked), linked).toBe(true);
    expect(await listMailbox({ to: sender.email }).then((mails) => mails.filter((mail) => mail.subject.includes("transfer")))).toEqual([]);
  });

  it("matches the recipient's address case-insensitively and stores it in lower case", async () => {
    const sender = await registerAccount();
    const recipient = await verifiedAccount();
    const tag = await giveTestTag(sender.id, { status: "ACTIVE" });
    const response = await offer(sender, tag.id, recipient.email.toUpperCase());
    expect(response.status).toBe(201);
    expect((await json<{ data: TransferRecord }>(response)).data.toEmail).toBe(recipient.email);
    expect((await list(recipient)).incoming).toHaveLength(1);
  });

  it("refuses a second transfer while one is pending (409), also when two race", async () => {
    const sender = await registerAccount();
    const recipient = await registerAccount();
    const { tag } = await pendingTransfer(sender, recipient);
    const second = await offer(sender, tag.id, "someone-else@example.com");
    expect(second.status).toBe(409);
    expect((await json<ErrorBody>(second)).error.code).toBe("CONFLICT");

    const other = await giveTestTag(sender.id, { status: "ACTIVE" });
    const racing = await Promise.all([offer(sender, other.id, "a-racer@example.com"), offer(sender, other.id, "b-racer@example.com")]);
    expect(racing.map((response) => response.status).sort()).toEqual([201, 409]);
  });

  it("refuses a transfer to yourself (400) and a malformed e-mail (400)", async () => {
    const sender = await registerAccount();
    const tag = await giveTestTag(sender.id, { status: "ACTIVE" });
    const self = await offer(sender, tag.id, ` ${sender.email.toUpperCase()} `);
    expect(self.status).toBe(400);
    expect((await json<ErrorBody>(self)).error.code).toBe("VALIDATION_ERROR");
    const malformed = await offer(sender, tag.id, "not-an-email");
    expect(malformed.status).toBe(400);
    const missing = await call(createRoute, apiRequest(`/api/v1/tags/${tag.id}/transfer`, { method: "POST", headers: bearer(sender.accessToken), body: {} }), { id: tag.id });
    expect(missing.status).toBe(400);
  });

  it("is 404 for another user's tag, a missing tag and a malformed id; 401 without a credential; 405 for other methods", async () => {
    const owner = await registerAccount();
    const intruder = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE" });
    expect((await offer(intruder, tag.id, "x@example.com")).status).toBe(404);
    expect((await offer(intruder, MISSING_ID, "x@example.com")).status).toBe(404);
    expect((await offer(intruder, "not-a-uuid", "x@example.com")).status).toBe(404);
    const anonymous = await call(createRoute, apiRequest(`/api/v1/tags/${tag.id}/transfer`, { method: "POST", body: { email: "x@example.com" } }), { id: tag.id });
    expect(anonymous.status).toBe(401);
    expect((await call(transferOtherMethod, apiRequest(`/api/v1/tags/${tag.id}/transfer`, { headers: bearer(owner.accessToken) }), { id: tag.id })).status).toBe(405);
    expect(await getDatabase().db.select().from(schema.tagTransfers).where(eq(schema.tagTransfers.tagId, tag.id))).toEqual([]);
  });
});

describe("caps on transfer offers", () => {
  const perAddress = rateLimitPolicies.transferOffersByRecipient.limit;
  const perSender = rateLimitPolicies.transferOffersBySender.limit;
  const freshAddress = () => `offer-${randomUUID()}@example.com`;
  const transfersOfTag = (tagId: string) => getDatabase().db.select().from(schema.tagTransfers).where(eq(schema.tagTransfers.tagId, tagId));

  it(`allows ${perAddress} offers a day to one address, whoever sends them; the next is 429 with Retry-After and creates nothing`, async () => {
    await awayFromWindowEdge(DAY_MS, 60_000);
    const [first, second, recipient] = await Promise.all([registerAccount(), registerAccount(), registerAccount()]);
    const firstTags = await Promise.all(Array.from({ length: perAddress - 1 }, () => giveTestTag(first.id, { status: "ACTIVE" })));
    const [third, fourth] = await Promise.all([giveTestTag(second.id, { status: "ACTIVE" }), giveTestTag(second.id, { status: "ACTIVE" })]);
    // The address counts however it is written.
    for (const [i, tag] of firstTags.entries()) expect((await offer(first, tag.id, i % 2 ? recipient.email.toUpperCase() : recipient.email)).status).toBe(201);
    expect((await offer(second, third.id, recipient.email)).status).toBe(201);

    const refused = await offer(second, fourth.id, recipient.email.toUpperCase());
    expect(refused.status).toBe(429);
    expect((await json<ErrorBody>(refused)).error.code).toBe("RATE_LIMIT_EXCEEDED");
    const retryAfter = Number(refused.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(DAY_MS / 1000);
    expect(await transfersOfTag(fourth.id)).toEqual([]);
    expect((await runPendingJobs({ name: "email.send" })).failed).toBe(0);
    expect(await listMailbox({ to: recipient.email }).then((mails) => mails.filter((mail) => mail.subject.includes("transfer")))).toHaveLength(perAddress);

    // Another address is not affected, and neither is the sender's own count.
    expect((await offer(second, fourth.id, freshAddress())).status).toBe(201);
  });

  it("counts only offers that are made: 404 and 409 answers use up nothing, a cancelled offer still counts", async () => {
    await awayFromWindowEdge(DAY_MS, 60_000);
    const [sender, intruder] = await Promise.all([registerAccount(), registerAccount()]);
    const recipient = freshAddress();
    const tag = await giveTestTag(sender.id, { status: "ACTIVE" });
    for (let i = 0; i < perAddress + 1; i++) {
      expect((await offer(intruder, tag.id, recipient)).status).toBe(404);
      expect((await offer(intruder, MISSING_ID, recipient)).status).toBe(404);
    }
    for (let i = 0; i < perAddress; i++) {
      expect((await offer(sender, tag.id, recipient)).status).toBe(201);
      for (let j = 0; j < perAddress + 1; j++) expect((await offer(sender, tag.id, recipient)).status).toBe(409);
      // Each offer e-mailed the address: cancelling it does not give the offer back.
      expect((await cancel(sender, tag.id)).status).toBe(200);
    }
    expect((await offer(sender, tag.id, recipient)).status).toBe(429);
    expect(await transfersOfTag(tag.id)).toHaveLength(perAddress);
  });

  it(`allows a sender ${perSender} offers a day, also when they are sent at once`, async () => {
    await awayFromWindowEdge(DAY_MS, 60_000);
    const sender = await registerAccount();
    const tags = await Promise.all(Array.from({ length: perSender + 3 }, () => giveTestTag(sender.id, { status: "ACTIVE" })));
    const responses = await Promise.all(tags.map((tag) => offer(sender, tag.id, freshAddress())));
    const tally: Record<number, number> = {};
    for (const response of responses) tally[response.status] = (tally[response.status] ?? 0) + 1;
    expect(tally).toEqual({ 201: perSender, 429: 3 });
    const made = await getDatabase().db.select().from(schema.tagTransfers).where(eq(schema.tagTransfers.fromUserId, sender.id));
    expect(made).toHaveLength(perSender);

    // Another sender is not affected.
    const other = await registerAccount();
    expect((await offer(other, (await giveTestTag(other.id, { status: "ACTIVE" })).id, freshAddress())).status).toBe(201);
  });
});

describe("GET /tags/transfers", () => {
  it("lists incoming by the caller's e-mail and outgoing by the caller; others see neither", async () => {
    const sender = await registerAccount();
    const recipient = await verifiedAccount();
    const bystander = await registerAccount();
    const { transfer } = await pendingTransfer(sender, recipient);

    const senderView = await list(sender);
    expect(senderView.outgoing.map((item) => item.id)).toEqual([transfer.id]);
    expect(senderView.incoming).toEqual([]);
    const recipientView = await list(recipient);
    expect(recipientView.incoming.map((item) => item.id)).toEqual([transfer.id]);
    expect(recipientView.outgoing).toEqual([]);
    expect(await list(bystander)).toEqual({ incoming: [], outgoing: [] });
    expect((await call(listRoute, apiRequest("/api/v1/tags/transfers"))).status).toBe(401);
  });

  it("shows no incoming offers until the caller has confirmed the address; their outgoing ones are listed", async () => {
    const sender = await registerAccount();
    const recipient = await registerAccount();
    const { transfer } = await pendingTransfer(sender, recipient);
    const { transfer: own } = await pendingTransfer(recipient, sender);

    // Anyone could register the address without holding it: nothing offered to it shows before it is confirmed.
    expect(await list(recipient)).toEqual({ incoming: [], outgoing: [expect.objectContaining({ id: own.id })] });
    await getDatabase().db.update(schema.users).set({ emailVerified: true }).where(eq(schema.users.id, recipient.id));
    const confirmed = await list(recipient);
    expect(confirmed.incoming.map((item) => item.id)).toEqual([transfer.id]);
    expect(confirmed.outgoing.map((item) => item.id)).toEqual([own.id]);
  });
});

describe("POST /tags/transfers/:id/accept", () => {
  it("moves the tag and its profile to the recipient and marks the transfer ACCEPTED", async () => {
    const sender = await registerAccount();
    const recipient = await verifiedAccount();
    const { tag, transfer } = await pendingTransfer(sender, recipient);
    await getDatabase().db.insert(schema.tagProfiles).values({ tagId: tag.id, description: "With a yellow tag", ownerName: "Old Owner", contactEmail: "old@example.com", contactPhone: "+1 555 0100" });

    const response = await accept(recipient, transfer.id);
    expect(response.status).toBe(200);
    const accepted = (await json<{ data: TransferRecord }>(response)).data;
    expect(accepted).toMatchObject({ id: transfer.id, status: "ACCEPTED" });
    expect(accepted.respondedAt).not.toBeNull();

    const row = await tagRow(tag.id);
    expect(row?.ownerId).toBe(recipient.id);
    expect(row?.status).toBe("ACTIVE");
    expect((await call(getTagRoute, apiRequest(`/api/v1/tags/${tag.id}`, { headers: bearer(recipient.accessToken) }), { id: tag.id })).status).toBe(200);
    expect((await call(getTagRoute, apiRequest(`/api/v1/tags/${tag.id}`, { headers: bearer(sender.accessToken) }), { id: tag.id })).status).toBe(404);
    const [profile] = await getDatabase().db.select().from(schema.tagProfiles).where(eq(schema.tagProfiles.tagId, tag.id));
    expect(profile?.description).toBe("With a yellow tag");
    // The sender's contact details don't follow the tag to its new owner.
    expect(profile).toMatchObject({ ownerName: null, contactEmail: null, contactPhone: null });

    expect((await accept(recipient, transfer.id)).status).toBe(409);
    expect((await list(sender)).outgoing[0]?.status).toBe("ACCEPTED");
  });

  it("lets the new owner start clean: the sender's insurance and the scans of the sender's time are gone", async () => {
    const sender = await registerAccount();
    const recipient = await verifiedAccount();
    const { tag, transfer } = await pendingTransfer(sender, recipient);
    await getDatabase().db.insert(schema.tagInsurance).values({ tagId: tag.id, provider: "Acme", policyNumber: "P-1", coverageAmount: 50000, currency: "USD", contactPhone: "+1 555 0100" });
    await scannedTwice(tag.id);
    expect((await scansSeenBy(sender, tag.id)).meta.total).toBe(2);

    expect((await accept(recipient, transfer.id)).status).toBe(200);
    const insurance = await call(getInsuranceRoute, apiRequest(`/api/v1/tags/${tag.id}/insurance`, { headers: bearer(recipient.accessToken) }), { id: tag.id });
    expect(insurance.status).toBe(404);
    expect(await getDatabase().db.select().from(schema.tagInsurance).where(eq(schema.tagInsurance.tagId, tag.id))).toEqual([]);
    // The earlier scans hold finders' locations from the sender's time: neither listed nor counted.
    expect(await scansSeenBy(recipient, tag.id)).toMatchObject({ data: [], meta: { total: 0 } });
    expect(await tagSeenBy(recipient, tag.id)).toMatchObject({ scanCount: 0, lastScannedAt: null });

    // Scans from the new owner's time are theirs.
    await getDatabase().db.insert(schema.scans).values({ tagId: tag.id, ipHash: "h3", city: "Berlin", country: "DE" });
    expect((await scansSeenBy(recipient, tag.id)).data.map((scan) => scan.city)).toEqual(["Berlin"]);
  });

  it("keeps the sender's insurance and scans when the accept is refused", async () => {
    const sender = await registerAccount();
    const recipient = await verifiedAccount();
    for (let i = 0; i < 5; i++) await giveTestTag(recipient.id, { status: "ACTIVE" });
    const { tag, transfer } = await pendingTransfer(sender, recipient);
    await getDatabase().db.insert(schema.tagInsurance).values({ tagId: tag.id, provider: "Acme", policyNumber: "P-1" });
    await scannedTwice(tag.id);
    expect((await accept(recipient, transfer.id)).status).toBe(422);
    expect(await getDatabase().db.select().from(schema.tagInsurance).where(eq(schema.tagInsurance.tagId, tag.id))).toHaveLength(1);
    expect((await scansSeenBy(sender, tag.id)).meta.total).toBe(2);
    expect(await tagSeenBy(sender, tag.id)).toMatchObject({ scanCount: 2 });
  });

  it("is 404 for anyone but the recipient (the sender included), a missing id and a malformed id", async () => {
    const sender = await registerAccount();
    const recipient = await verifiedAccount();
    const bystander = await verifiedAccount();
    const { tag, transfer } = await pendingTransfer(sender, recipient);
    for (const caller of [bystander, sender]) {
      const response = await accept(caller, transfer.id);
      expect(response.status).toBe(404);
      expect((await json<ErrorBody>(response)).error.code).toBe("NOT_FOUND");
      expect((await decline(caller, transfer.id)).status).toBe(404);
    }
    expect((await accept(recipient, MISSING_ID)).status).toBe(404);
    expect((await accept(recipient, "nope")).status).toBe(404);
    expect((await decline(recipient, "nope")).status).toBe(404);
    expect((await call(acceptRoute, apiRequest(`/api/v1/tags/transfers/${transfer.id}/accept`, { method: "POST" }), { id: transfer.id })).status).toBe(401);
    expect((await tagRow(tag.id))?.ownerId).toBe(sender.id);
    expect((await transferRow(transfer.id)).status).toBe("PENDING");
  });

  it("needs the recipient's e-mail address to be verified (403), for declining too", async () => {
    const sender = await registerAccount();
    const recipient = await registerAccount();
    const { tag, transfer } = await pendingTransfer(sender, recipient);
    const response = await accept(recipient, transfer.id);
    expect(response.status).toBe(403);
    expect((await json<ErrorBody>(response)).error.code).toBe("FORBIDDEN");
    expect((await tagRow(tag.id))?.ownerId).toBe(sender.id);

    const declined = await decline(recipient, transfer.id);
    expect(declined.status).toBe(403);
    expect((await json<ErrorBody>(declined)).error.code).toBe("FORBIDDEN");
    expect((await transferRow(transfer.id)).status).toBe("PENDING");
    expect(await notificationsOf(sender.id)).toEqual([]);

    await getDatabase().db.update(schema.users).set({ emailVerified: true }).where(eq(schema.users.id, recipient.id));
    expect((await decline(recipient, transfer.id)).status).toBe(200);
    expect((await transferRow(transfer.id)).status).toBe("DECLINED");
  });

  it("refuses a recipient at the tier limit (422 with tier and limit); the transfer stays pending", async () => {
    const sender = await registerAccount();
    const recipient = await verifiedAccount();
    for (let i = 0; i < 5; i++) await giveTestTag(recipient.id, { status: "ACTIVE" });
    const { tag, transfer } = await pendingTransfer(sender, recipient);
    const response = await accept(recipient, transfer.id);
    expect(response.status).toBe(422);
    expect((await json<ErrorBody>(response)).error.details).toEqual({ tier: "FREE", limit: 5 });
    expect((await tagRow(tag.id))?.ownerId).toBe(sender.id);
    expect((await transferRow(transfer.id)).status).toBe("PENDING");

    await setTier(recipient.id, "PRO");
    expect((await accept(recipient, transfer.id)).status).toBe(200);
  });

  it("lets exactly one of two concurrent accepts win; the other is 409", async () => {
    const sender = await registerAccount();
    const recipient = await verifiedAccount();
    const { tag, transfer } = await pendingTransfer(sender, recipient);
    const responses = await Promise.all([accept(recipient, transfer.id), accept(recipient, transfer.id)]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
    expect((await tagRow(tag.id))?.ownerId).toBe(recipient.id);
    expect((await transferRow(transfer.id)).status).toBe("ACCEPTED");
  });

  it("refuses an accept after the sender cancelled (409), also when they race", async () => {
    const sender = await registerAccount();
    const recipient = await verifiedAccount();
    const first = await pendingTransfer(sender, recipient);
    expect((await cancel(sender, first.tag.id)).status).toBe(200);
    const late = await accept(recipient, first.transfer.id);
    expect(late.status).toBe(409);
    expect((await json<ErrorBody>(late)).error.code).toBe("CONFLICT");
    expect((await tagRow(first.tag.id))?.ownerId).toBe(sender.id);

    const second = await pendingTransfer(sender, recipient);
    const [cancelled, accepted] = await Promise.all([cancel(sender, second.tag.id), accept(recipient, second.transfer.id)]);
    const row = await transferRow(second.transfer.id);
    const owner = (await tagRow(second.tag.id))?.ownerId;
    if (row.status === "CANCELLED") {
      expect([cancelled.status, accepted.status]).toEqual([200, 409]);
      expect(owner).toBe(sender.id);
    } else {
      expect(row.status).toBe("ACCEPTED");
      expect([cancelled.status, accepted.status]).toEqual([404, 200]);
      expect(owner).toBe(recipient.id);
    }
  });
});

describe("POST /tags/transfers/:id/decline and DELETE /tags/:id/transfer", () => {
  it("declines (recipient) → DECLINED; the tag stays and a new transfer may start", async () => {
    const sender = await registerAccount();
    const recipient = await verifiedAccount();
    const { tag, transfer } = await pendingTransfer(sender, recipient);
    const response = await decline(recipient, transfer.id);
    expect(response.status).toBe(200);
    expect((await json<{ data: TransferRecord }>(response)).data.status).toBe("DECLINED");
    expect((await decline(recipient, transfer.id)).status).toBe(409);
    expect((await accept(recipient, transfer.id)).status).toBe(409);
    expect((await tagRow(tag.id))?.ownerId).toBe(sender.id);
    expect((await offer(sender, tag.id, recipient.email)).status).toBe(201);
  });

  it("cancels (sender) → CANCELLED; nothing pending, another user and bad ids are 404", async () => {
    const sender = await registerAccount();
    const recipient = await verifiedAccount();
    const { tag, transfer } = await pendingTransfer(sender, recipient);
    expect((await cancel(recipient, tag.id)).status).toBe(404);
    expect((await cancel(sender, "bad-id")).status).toBe(404);
    expect((await cancel(sender, MISSING_ID)).status).toBe(404);
    const response = await cancel(sender, tag.id);
    expect(response.status).toBe(200);
    expect((await json<{ data: TransferRecord }>(response)).data).toMatchObject({ id: transfer.id, status: "CANCELLED" });
    expect((await cancel(sender, tag.id)).status).toBe(404);
    expect((await decline(recipient, transfer.id)).status).toBe(409);
    expect((await list(recipient)).incoming[0]?.status).toBe("CANCELLED");
    expect((await call(cancelRoute, apiRequest(`/api/v1/tags/${tag.id}/transfer`, { method: "DELETE" }), { id: tag.id })).status).toBe(401);
  });
});

describe("expiry", () => {
  it("refuses an overdue transfer before the job runs, and the job marks only overdue ones EXPIRED", async () => {
    const sender = await registerAccount();
    const recipient = await verifiedAccount();
    const overdue = await pendingTransfer(sender, recipient);
    const fresh = await pendingTransfer(sender, recipient);
    await getDatabase()
      .db.update(schema.tagTransfers)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.tagTransfers.id, overdue.transfer.id));

    const refused = await accept(recipient, overdue.transfer.id);
    expect(refused.status).toBe(409);
    expect((await json<ErrorBody>(refused)).error.message).toMatch(/expired/i);
    expect((await decline(recipient, overdue.transfer.id)).status).toBe(409);
    expect((await tagRow(overdue.tag.id))?.ownerId).toBe(sender.id);
    expect((await list(recipient)).incoming.find((item) => item.id === overdue.transfer.id)?.status).toBe("EXPIRED");
    expect((await transferRow(overdue.transfer.id)).status).toBe("PENDING");

    // Each transfer scheduled a delayed run for its own expiry; run them now.
    const report = await runPendingJobs({ name: EXPIRE_TRANSFERS_JOB, ignoreStartAfter: true });
    expect(report.failed).toBe(0);
    expect(report.completed).toBeGreaterThanOrEqual(2);
    expect((await transferRow(overdue.transfer.id)).status).toBe("EXPIRED");
    expect((await transferRow(fresh.transfer.id)).status).toBe("PENDING");
    expect((await accept(recipient, fresh.transfer.id)).status).toBe(200);

    // The sender hears of the expired offer only (the accepted one has its own notification).
    const expiredNotices = (await getDatabase().db.select().from(schema.notifications).where(eq(schema.notifications.userId, sender.id))).filter(
      (row) => (row.data as { transferStatus?: string }).transferStatus === "EXPIRED",
    );
    expect(expiredNotices).toEqual([
      expect.objectContaining({
        type: "TAG_STATUS_CHANGED",
        title: "Your tag transfer expired",
        body: `${recipient.email} did not answer within 7 days, so Blue backpack stays in your account. You can offer it again.`,
        data: { tagId: overdue.tag.id, transferId: overdue.transfer.id, transferStatus: "EXPIRED" },
      }),
    ]);

    // An expired transfer no longer blocks a new one.
    expect((await offer(sender, overdue.tag.id, recipient.email)).status).toBe(201);
  });

  it("does not run the expiry job before the transfer's expiry", async () => {
    const sender = await registerAccount();
    const recipient = await registerAccount();
    const { transfer } = await pendingTransfer(sender, recipient);
    await runPendingJobs({ name: EXPIRE_TRANSFERS_JOB });
    expect((await transferRow(transfer.id)).status).toBe("PENDING");
  });
});

describe("transfer notifications", () => {
  it("notifies a recipient who has an account (TRANSFER_RECEIVED), without a second e-mail", async () => {
    const sender = await registerAccount();
    const recipient = await verifiedAccount();
    const { tag, transfer } = await pendingTransfer(sender, recipient, { itemName: "Red suitcase" });
    const rows = await getDatabase().db.select().from(schema.notifications).where(eq(schema.notifications.userId, recipient.id));
    expect(rows).toEqual([expect.objectContaining({ type: "TRANSFER_RECEIVED", body: expect.stringContaining("Red suitcase"), data: { transferId: transfer.id, tagId: tag.id } })]);
    expect(await getDatabase().db.select().from(schema.notifications).where(eq(schema.notifications.userId, sender.id))).toEqual([]);
  });

  it("does not notify an account whose address is unconfirmed (only the e-mail goes out)", async () => {
    const sender = await registerAccount();
    const recipient = await registerAccount();
    await pendingTransfer(sender, recipient, { itemName: "Grey laptop" });
    expect(await notificationsOf(recipient.id)).toEqual([]);
  });

  it("tells the sender when the recipient accepts (TAG_STATUS_CHANGED), and nothing when the accept is refused", async () => {
    const sender = await registerAccount();
    const recipient = await verifiedAccount();
    const { tag, transfer } = await pendingTransfer(sender, recipient, { itemName: "Green bike" });
    await setTier(recipient.id, "FREE");
    for (let i = 0; i < 5; i++) await giveTestTag(recipient.id, { status: "ACTIVE" });
    expect((await accept(recipient, transfer.id)).status).toBe(422);
    expect(await notificationsOf(sender.id)).toEqual([]);

    await setTier(recipient.id, "PRO");
    expect((await accept(recipient, transfer.id)).status).toBe(200);
    expect(await notificationsOf(sender.id)).toEqual([
      expect.objectContaining({
        type: "TAG_STATUS_CHANGED",
        title: "Your tag transfer was accepted",
        body: `Green bike now belongs to ${recipient.email}.`,
        data: { tagId: tag.id, transferId: transfer.id, transferStatus: "ACCEPTED" },
      }),
    ]);
    expect((await notificationsOf(recipient.id)).map((row) => row.type)).toEqual(["TRANSFER_RECEIVED"]);
  });

  it("tells the sender when the recipient declines", async () => {
    const sender = await registerAccount();
    const recipient = await verifiedAccount();
    const { tag, transfer } = await pendingTransfer(sender, recipient, { itemName: "Black cat" });
    expect((await decline(recipient, transfer.id)).status).toBe(200);
    expect(await notificationsOf(sender.id)).toEqual([
      expect.objectContaining({
        type: "TAG_STATUS_CHANGED",
        title: "Your tag transfer was declined",
        body: `${recipient.email} declined Black cat. It stays in your account.`,
        data: { tagId: tag.id, transferId: transfer.id, transferStatus: "DECLINED" },
      }),
    ]);
  });
});
