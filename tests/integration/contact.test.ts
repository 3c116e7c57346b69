import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { GET as contactGetRoute, POST as contactRoute } from "@/app/api/v1/contact/route";
import { POST as subscribeRoute } from "@/app/api/v1/contact/newsletter/route";
import { GET as confirmRoute } from "@/app/api/v1/contact/newsletter/confirm/route";
import { POST as unsubscribeRoute, GET as unsubscribeGetRoute } from "@/app/api/v1/contact/newsletter/unsubscribe/route";
import { GET as mailboxRoute } from "@/app/api/dev/mailbox/route";
import { listMailbox } from "@/lib/email/mailbox";
import { EMAIL_SEND_JOB } from "@/lib/email/queue";
import { supportEmail } from "@/lib/env";
import { prepareJobs, runPendingJobs, stopJobs } from "@/lib/jobs";
import { HOUR_MS } from "@/lib/ratelimit/policies";
import { unsubscribeToken } from "@/lib/services/contact";
import { uniqueEmail } from "../support/auth";
import { isPagePath, linkedPaths } from "../support/page-routes";
import { apiRequest, awayFromWindowEdge, call, json, nextTestIp } from "../support/http";

type ErrorBody = { success: false; error: { code: string; message: string; details?: { issues: { field: string; message: string }[]; fieldErrors: Record<string, string[]> } } };
type MessageBody = { success: true; data: { message: string } };

beforeAll(async () => {
  await prepareJobs();
});

afterAll(async () => {
  await stopJobs();
});

const contact = (body: unknown, ip = nextTestIp()) => call(contactRoute, apiRequest("/api/v1/contact", { method: "POST", body, ip }));
const subscribe = (email: unknown, ip = nextTestIp()) => call(subscribeRoute, apiRequest("/api/v1/contact/newsletter", { method: "POST", body: { email }, ip }));
const confirm = (token: string) => call(confirmRoute, apiRequest(`/api/v1/contact/newsletter/confirm?token=${encodeURIComponent(token)}`, { ip: nextTestIp() }));

async function sendEmails() {
  const report = await runPendingJobs({ name: EMAIL_SEND_JOB, limit: 1000 });
  expect(report.failed).toBe(0);
}

async function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  const body = await json<ErrorBody>(response);
  expect(body).toMatchObject({ success: false, error: { code } });
  return body.error;
}

async function subscriber(email: string) {
  const [row] = await getDatabase()
    .db.select()
    .from(schema.newsletterSubscribers)
    .where(eq(sql`lower(${schema.newsletterSubscribers.email})`, email.toLowerCase()));
  return row;
}

/** The confirmation links the mailbox holds for an address, newest first (tokens decoded). */
async function confirmationTokens(to: string): Promise<string[]> {
  await sendEmails();
  const messages = (await listMailbox({ to })).filter((message) => message.subject === "Confirm your newsletter subscription");
  return messages.map((message) => {
    const match = message.text.match(/\/newsletter\/confirm\?token=([^\s&"<>]+)/);
    if (!match?.[1]) throw new Error("no confirmation link in the message");
    expect(message.html).toContain(`/newsletter/confirm?token=${match[1]}`);
    for (const path of linkedPaths(message.text, "http://localhost:3000")) expect(isPagePath(path), path).toBe(true);
    return decodeURIComponent(match[1]);
  });
}

const validMessage = () => ({ name: "Ada Lovelace", email: uniqueEmail("contact"), subject: "Tag packs", message: "Do the stickers survive a dishwasher?\n\nThanks!" });

describe("POST /contact", () => {
  it("stores the message (IP hashed), answers 201 promising 24 hours, acknowledges it and forwards it to support with Reply-To", async () => {
    const input = validMessage();
    const ip = nextTestIp();
    const response = await contact(input, ip);
    expect(response.status).toBe(201);
    expect(await json<MessageBody>(response)).toEqual({ success: true, data: { message: expect.stringContaining("24 hours") } });

    const [row] = await getDatabase().db.select().from(schema.contactMessages).where(eq(schema.contactMessages.email, input.email));
    expect(row).toMatchObject({ name: input.name, subject: input.subject, message: input.message });
    expect(row!.ipHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.ipHash).not.toContain(ip);

    await sendEmails();
    const [ack] = await listMailbox({ to: input.email });
    expect(ack).toMatchObject({ subject: "We received your message" });
    expect(ack!.text).toContain("24 hours");
    const forwarded = (await listMailbox({ to: supportEmail() })).find((message) => message.text.includes(row!.id));
    expect(forwarded).toBeDefined();
    expect(forwarded!.subject).toBe(`Contact form: ${input.subject}`);
    expect(forwarded!.headers).toEqual({ "Reply-To": input.email });
    expect(forwarded!.text).toContain(input.email);
    expect(forwarded!.text).toContain("Do the stickers survive a dishwasher?");

    // The development mailbox's API shows the headers too (an additive field).
    const listed = await call(mailboxRoute, apiRequest(`/api/dev/mailbox?to=${encodeURIComponent(supportEmail())}`));
    expect(listed.status, await listed.clone().text()).toBe(200);
    const items = (await json<{ data: { id: string; headers: Record<string, string> }[] }>(listed)).data;
    expect(items.find((item) => item.id === forwarded!.id)?.headers).toEqual({ "Reply-To": input.email });
  });

  it("refuses invalid messages with 400 and per-field details", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...validMessage(), name: undefined }, "name"],
      [{ ...validMessage(), name: "   " }, "name"],
      [{ ...validMessage(), name: "x".repeat(101) }, "name"],
      [{ ...validMessage(), email: "not-an-address" }, "email"],
      [{ ...validMessage(), email: undefined }, "email"],
      [{ ...validMessage(), subject: "x".repeat(101) }, "subject"],
      [{ ...validMessage(), subject: 7 }, "subject"],
      [{ ...validMessage(), message: "" }, "message"],
      [{ ...validMessage(), message: "x".repeat(2001) }, "message"],
    ];
    for (const [body, field] of cases) {
      const error = await expectError(await contact(body), 400, "VALIDATION_ERROR");
      expect(error.details!.fieldErrors[field], `${field} in ${JSON.stringify(body).slice(0, 80)}`).toBeDefined();
      expect(error.details!.issues.some((issue) => issue.field === field)).toBe(true);
    }
    const error = await expectError(await contact({}), 400, "VALIDATION_ERROR");
    expect(Object.keys(error.details!.fieldErrors).sort()).toEqual(["email", "message", "name", "subject"]);
  });

  it("lets no one inject e-mail headers: line breaks in name or subject are 400, markup in the message is escaped", async () => {
    for (const field of ["name", "subject"] as const) {
      const error = await expectError(await contact({ ...validMessage(), [field]: "Hello\r\nBcc: victim@example.com" }), 400, "VALIDATION_ERROR");
      expect(error.details!.fieldErrors[field]).toEqual(["Must be on one line."]);
    }
    await expectError(await contact({ ...validMessage(), email: "a@example.com\r\nBcc: victim@example.com" }), 400, "VALIDATION_ERROR");

    const input = { ...validMessage(), message: '<script>alert(1)</script><img src=x onerror="alert(2)">' };
    expect((await contact(input)).status).toBe(201);
    await sendEmails();
    const forwarded = (await listMailbox({ to: supportEmail() })).find((message) => message.headers["Reply-To"] === input.email);
    expect(forwarded!.html).not.toContain("<script>");
    expect(forwarded!.html).not.toContain("<img src=x");
    expect(forwarded!.html).toContain("&lt;script&gt;");
    const victim = await listMailbox({ to: "victim@example.com" });
    expect(victim).toEqual([]);
  });

  it("allows 3 messages an hour per IP: the 4th is 429 with Retry-After", async () => {
    await awayFromWindowEdge(HOUR_MS, 10_000);
    const ip = nextTestIp();
    for (let i = 0; i < 3; i++) {
      const response = await contact(validMessage(), ip);
      expect(response.status).toBe(201);
      expect(response.headers.get("X-RateLimit-Limit")).toBe("3");
    }
    const refused = await contact(validMessage(), ip);
    await expectError(refused, 429, "RATE_LIMIT_EXCEEDED");
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(refused.headers.get("X-RateLimit-Remaining")).toBe("0");
    expect((await contact(validMessage(), nextTestIp())).status).toBe(201);
  });

  it("answers other methods with 405", async () => {
    const response = await call(contactGetRoute, apiRequest("/api/v1/contact", { ip: nextTestIp() }));
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toContain("POST");
  });
});

describe("POST /contact/newsletter and confirmation", () => {
  it("gives the same answer for a new, pending, confirmed and unsubscribed address, and e-mails only when it should", async () => {
    const email = uniqueEmail("news");
    const answers: { status: number; body: unknown }[] = [];
    const record = async (response: Response) => answers.push({ status: response.status, body: await json(response) });

    await record(await subscribe(email)); // new
    expect(await confirmationTokens(email)).toHaveLength(1);
    expect((await subscriber(email))?.status).toBe("PENDING");

    await record(await subscribe(email.toUpperCase())); // pending, within 10 minutes: no second e-mail
    const [token] = await confirmationTokens(email);
    expect(await confirmationTokens(email)).toHaveLength(1);

    expect((await confirm(token!)).status).toBe(200);
    await record(await subscribe(email)); // confirmed: nothing sent
    expect(await confirmationTokens(email)).toHaveLength(1);
    expect((await subscriber(email))?.status).toBe("CONFIRMED");

    const { id } = (await subscriber(email))!;
    expect((await call(unsubscribeRoute, apiRequest(`/api/v1/contact/newsletter/unsubscribe?token=${unsubscribeToken(id)}`, { method: "POST", ip: nextTestIp() }))).status).toBe(200);
    await record(await subscribe(email)); // unsubscribed: a new confirmation
    expect(await confirmationTokens(email)).toHaveLength(2);

    expect(answers).toHaveLength(4);
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0]).toEqual({ status: 200, body: { success: true, data: { message: expect.stringContaining("Check your inbox") } } });
  });

  it("ten sign-ups of one new address at once: one subscriber, one confirmation e-mail, ten identical answers; ten confirmations of its link: one succeeds", async () => {
    const email = uniqueEmail("news-race");
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => subscribe(i % 2 ? email.toUpperCase() : email)));
    const answers = await Promise.all(responses.map(async (response) => ({ status: response.status, body: await json(response) })));
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0]?.status).toBe(200);
    const rows = await getDatabase()
      .db.select()
      .from(schema.newsletterSubscribers)
      .where(eq(sql`lower(${schema.newsletterSubscribers.email})`, email.toLowerCase()));
    expect(rows).toHaveLength(1);
    const tokens = await confirmationTokens(email);
    expect(tokens).toHaveLength(1);

    const confirmations = await Promise.all(Array.from({ length: 10 }, () => confirm(tokens[0]!)));
    expect(confirmations.map((response) => response.status).sort()).toEqual([200, ...Array<number>(9).fill(400)]);
    expect((await subscriber(email))?.status).toBe("CONFIRMED");
  });

  it("sends a pending address another confirmation only after 10 minutes", async () => {
    const email = uniqueEmail("news-wait");
    await subscribe(email);
    await subscribe(email);
    expect(await confirmationTokens(email)).toHaveLength(1);
    // The first link was issued 11 minutes ago.
    await getDatabase()
      .db.update(schema.newsletterSubscribers)
      .set({ confirmTokenExpiresAt: sql`${schema.newsletterSubscribers.confirmTokenExpiresAt} - interval '11 minutes'` })
      .where(eq(schema.newsletterSubscribers.email, email));
    await subscribe(email);
    const tokens = await confirmationTokens(email);
    expect(tokens).toHaveLength(2);
    // Only the newest link works: the token is replaced.
    await expectError(await confirm(tokens[1]!), 400, "VALIDATION_ERROR");
    expect((await confirm(tokens[0]!)).status).toBe(200);
  });

  it("confirms once: a used, unknown, expired or missing token is 400", async () => {
    const email = uniqueEmail("news-once");
    await subscribe(email);
    const [token] = await confirmationTokens(email);
    const confirmed = await confirm(token!);
    expect(confirmed.status).toBe(200);
    expect(await json<MessageBody>(confirmed)).toEqual({ success: true, data: { message: expect.stringContaining("confirmed") } });
    const row = await subscriber(email);
    expect(row).toMatchObject({ status: "CONFIRMED", confirmTokenHash: null });
    expect(row!.confirmedAt).toBeInstanceOf(Date);

    const used = await expectError(await confirm(token!), 400, "VALIDATION_ERROR");
    expect(used.details!.fieldErrors.token).toBeDefined();
    await expectError(await confirm("not-a-token"), 400, "VALIDATION_ERROR");
    await expectError(await call(confirmRoute, apiRequest("/api/v1/contact/newsletter/confirm", { ip: nextTestIp() })), 400, "VALIDATION_ERROR");

    const late = uniqueEmail("news-late");
    await subscribe(late);
    const [lateToken] = await confirmationTokens(late);
    await getDatabase()
      .db.update(schema.newsletterSubscribers)
      .set({ confirmTokenExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.newsletterSubscribers.email, late));
    await expectError(await confirm(lateToken!), 400, "VALIDATION_ERROR");
    expect((await subscriber(late))?.status).toBe("PENDING");
  });

  it("refuses an invalid address with 400", async () => {
    for (const email of [undefined, "", "nobody", 42, "a@b.c\r\nBcc: x@example.com"]) {
      const error = await expectError(await subscribe(email), 400, "VALIDATION_ERROR");
      expect(error.details!.fieldErrors.email).toBeDefined();
    }
  });
});

describe("POST /contact/newsletter/unsubscribe (one-click)", () => {
  async function confirmedSubscriber() {
    const email = uniqueEmail("news-out");
    await subscribe(email);
    const [token] = await confirmationTokens(email);
    await confirm(token!);
    return (await subscriber(email))!;
  }

  const oneClick = (token: string, init: { form?: boolean; headers?: Record<string, string> } = {}) =>
    call(
      unsubscribeRoute,
      apiRequest(`/api/v1/contact/newsletter/unsubscribe?token=${encodeURIComponent(token)}`, {
        method: "POST",
        ip: nextTestIp(),
        headers: { ...(init.form ? { "content-type": "application/x-www-form-urlencoded" } : {}), ...init.headers },
        rawBody: init.form ? "List-Unsubscribe=One-Click" : undefined,
      }),
    );

  it("unsubscribes with the provider's form body, with no credential and from a foreign origin, and is idempotent", async () => {
    const row = await confirmedSubscriber();
    const response = await oneClick(unsubscribeToken(row.id), { form: true, headers: { origin: "https://mail.example.net", cookie: "authjs.session-token=forged" } });
    expect(response.status).toBe(200);
    const body = await json<MessageBody>(response);
    expect(body.data.message).toContain("unsubscribed");
    const after = await subscriber(row.email);
    expect(after?.status).toBe("UNSUBSCRIBED");
    const when = after!.unsubscribedAt;
    expect(when).toBeInstanceOf(Date);

    const again = await oneClick(unsubscribeToken(row.id), { form: true });
    expect(again.status).toBe(200);
    expect(await json<MessageBody>(again)).toEqual(body);
    expect((await subscriber(row.email))!.unsubscribedAt).toEqual(when);
  });

  it("unsubscribes without a body too", async () => {
    const row = await confirmedSubscriber();
    expect((await oneClick(unsubscribeToken(row.id))).status).toBe(200);
    expect((await subscriber(row.email))?.status).toBe("UNSUBSCRIBED");
  });

  it("refuses a token we did not make (400) and does not act on a GET (405)", async () => {
    const row = await confirmedSubscriber();
    const token = unsubscribeToken(row.id);
    const tampered = `${row.id}.${"0".repeat(64)}`;
    const otherId = "00000000-0000-4000-8000-000000000000";
    for (const bad of [tampered, `${otherId}.${token.split(".")[1]}`, "garbage", ""]) {
      await expectError(await oneClick(bad, { form: true }), 400, "VALIDATION_ERROR");
    }
    const get = await call(unsubscribeGetRoute, apiRequest(`/api/v1/contact/newsletter/unsubscribe?token=${token}`, { ip: nextTestIp() }));
    expect(get.status).toBe(405);
    expect((await subscriber(row.email))?.status).toBe("CONFIRMED");
  });
});
