import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDatabase } from "@/db/client";
import { emailOutbox } from "@/db/schema";
import { env } from "@/lib/env";
import { deliverEmail } from "@/lib/email/deliver";
import { createOutboxTransport } from "@/lib/email/outbox-transport";
import { createResendTransport, EmailDeliveryError } from "@/lib/email/resend-transport";
import { createSendPace } from "@/lib/email/send-pace";
import { defaultTransport } from "@/lib/email/transport";
import { createRateLimiter, rateLimitBackendFromEnv, type RateLimiter } from "@/lib/ratelimit";
import { listMailbox } from "@/lib/email/mailbox";

const message = (to: string, subject: string) => ({
  to,
  subject,
  html: `<p>${subject}</p><a href="http://localhost:3000/verify-email?token=tok">Verify</a>`,
  text: `${subject}\nVerify http://localhost:3000/verify-email?token=tok`,
});

describe("outbox transport", () => {
  beforeEach(async () => {
    await getDatabase().db.delete(emailOutbox);
  });

  it("stores the message in email_outbox", async () => {
    const sent = await createOutboxTransport().send({ ...message("ada@example.com", "Hello"), from: "Sender <s@example.com>", template: "notice" });
    const [row] = await getDatabase().db.select().from(emailOutbox).where(eq(emailOutbox.id, sent.id));
    expect(row).toMatchObject({
      to: "ada@example.com",
      from: "Sender <s@example.com>",
      subject: "Hello",
      template: "notice",
      text: message("ada@example.com", "Hello").text,
      html: message("ada@example.com", "Hello").html,
    });
    expect(row?.createdAt).toBeInstanceOf(Date);
  });

  it("writes through a given executor, so a rolled-back transaction leaves no row", async () => {
    const { db } = getDatabase();
    await expect(
      db.transaction(async (tx) => {
        await createOutboxTransport(tx).send({ ...message("tx@example.com", "In tx"), from: env.EMAIL_FROM });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await listMailbox({ to: "tx@example.com" })).toEqual([]);
  });

  // A RESEND_API_KEY in the shell would send real e-mail: these default-transport tests then stand aside.
  it("is the default transport when RESEND_API_KEY is unset", () => {
    expect(defaultTransport().name).toBe("outbox");
  });
});

describe("deliverEmail", () => {
  beforeEach(async () => {
    await getDatabase().db.delete(emailOutbox);
  });

  it("sends through the outbox by default, from EMAIL_FROM", async () => {
    const result = await deliverEmail({ ...message("grace@example.com", "Welcome"), template: "auth.welcome" });
    expect(result.transport).toBe("outbox");
    const [row] = await getDatabase().db.select().from(emailOutbox).where(eq(emailOutbox.id, result.id));
    expect(row?.from).toBe(env.EMAIL_FROM);
    expect(row?.template).toBe("auth.welcome");
  });

  it("keeps an explicit sender and uses the given transport", async () => {
    const result = await deliverEmail({ ...message("grace@example.com", "Hi"), from: "Other <o@example.com>" }, createOutboxTransport());
    const [row] = await getDatabase().db.select().from(emailOutbox).where(eq(emailOutbox.id, result.id));
    expect(row?.from).toBe("Other <o@example.com>");
  });
});

describe("listMailbox", () => {
  beforeEach(async () => {
    await getDatabase().db.delete(emailOutbox);
  });

  it("returns messages newest first, shaped for the mailbox", async () => {
    const transport = createOutboxTransport();
    for (const subject of ["first", "second", "third"]) await deliverEmail(message("order@example.com", subject), transport);
    const listed = await listMailbox();
    expect(listed.map((m) => m.subject)).toEqual(["third", "second", "first"]);
    const [newest] = listed;
    expect(Object.keys(newest!).sort()).toEqual(["createdAt", "headers", "html", "id", "subject", "text", "to"]);
    expect(newest!.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(newest!.text).toContain("?token=tok");
  });

  it("orders by when the message was sent, not by insertion", async () => {
    const { db } = getDatabase();
    await db.insert(emailOutbox).values([
      { to: "t@example.com", from: "f", subject: "old", text: "", html: "", createdAt: new Date("2024-01-01T00:00:00Z") },
      { to: "t@example.com", from: "f", subject: "new", text: "", html: "", createdAt: new Date("2024-06-01T00:00:00Z") },
      { to: "t@example.com", from: "f", subject: "middle", text: "", html: "", createdAt: new Date("2024-03-01T00:00:00Z") },
    ]);
    expect((await listMailbox({ to: "t@example.com" })).map((m) => m.subject)).toEqual(["new", "middle", "old"]);
  });

  it("filters by recipient, case-insensitively", async () => {
    const transport = createOutboxTransport();
    await deliverEmail(message("alice@example.com", "for alice 1"), transport);
    await deliverEmail(message("bob@example.com", "for bob"), transport);
    await deliverEmail(message("Alice@Example.com", "for alice 2"), transport);
    expect((await listMailbox({ to: "alice@example.com" })).map((m) => m.subject)).toEqual(["for alice 2", "for alice 1"]);
    expect((await listMailbox({ to: " BOB@example.com " })).map((m) => m.subject)).toEqual(["for bob"]);
    expect(await listMailbox({ to: "nobody@example.com" })).toEqual([]);
    expect(await listMailbox({ to: "" })).toHaveLength(3);
  });

  it("limits the number of messages", async () => {
    const transport = createOutboxTransport();
    for (let i = 0; i < 5; i++) await deliverEmail(message("many@example.com", `m${i}`), transport);
    expect((await listMailbox({ limit: 2 })).map((m) => m.subject)).toEqual(["m4", "m3"]);
    expect(await listMailbox({ limit: 0 })).toHaveLength(1);
  });
});

interface CapturedRequest {
  method?: string;
  url?: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

describe("Resend transport against a local server", () => {
  let server: Server;
  let baseUrl: string;
  let requests: CapturedRequest[] = [];
  let reply: { status: number; body: unknown } = { status: 200, body: { id: "re_email_1" } };

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        requests.push({ method: req.method, url: req.url, headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8") || "null") });
        res.writeHead(reply.status, { "content-type": "application/json" });
        res.end(JSON.stringify(reply.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  });

  beforeEach(() => {
    requests = [];
    reply = { status: 200, body: { id: "re_email_1" } };
  });

  it("posts the message to /emails with the API key", async () => {
    const transport = createResendTransport({ apiKey: "re_test_key", baseUrl });
    const result = await deliverEmail({ ...message("ada@example.com", "Verify your e-mail"), from: "Tags <no-reply@example.com>", idempotencyKey: "job-42" }, transport);
    expect(result).toEqual({ id: "re_email_1", transport: "resend" });
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.method).toBe("POST");
    expect(request?.url).toBe("/emails");
    expect(request?.headers.authorization).toBe("Bearer re_test_key");
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.headers["idempotency-key"]).toBe("job-42");
    expect(request?.body).toEqual({
      from: "Tags <no-reply@example.com>",
      to: "ada@example.com",
      subject: "Verify your e-mail",
      html: message("ada@example.com", "Verify your e-mail").html,
      text: message("ada@example.com", "Verify your e-mail").text,
    });
  });

  it("passes Reply-To and extra headers (List-Unsubscribe) to Resend, and the outbox keeps them", async () => {
    const headers = { "List-Unsubscribe": "<https://example.com/u?token=t>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
    await deliverEmail({ ...message("ada@example.com", "News"), replyTo: "sender@example.com", headers }, createResendTransport({ apiKey: "re_test_key", baseUrl }));
    expect(requests[0]?.body).toMatchObject({ reply_to: "sender@example.com", headers });

    await deliverEmail({ ...message("headers@example.com", "News"), replyTo: "sender@example.com", headers }, createOutboxTransport());
    const [stored] = await listMailbox({ to: "headers@example.com" });
    expect(stored?.headers).toEqual({ "Reply-To": "sender@example.com", ...headers });
  });

  it("defaults the sender to EMAIL_FROM", async () => {
    await deliverEmail(message("ada@example.com", "Hi"), createResendTransport({ apiKey: "re_test_key", baseUrl }));
    expect((requests[0]?.body as { from: string }).from).toBe(env.EMAIL_FROM);
  });

  it("follows RESEND_BASE_URL when no base URL is given (the SDK reads it)", async () => {
    const previous = process.env.RESEND_BASE_URL;
    process.env.RESEND_BASE_URL = baseUrl;
    try {
      await deliverEmail(message("ada@example.com", "Via env"), createResendTransport({ apiKey: "re_env_key" }));
    } finally {
      if (previous === undefined) delete process.env.RESEND_BASE_URL;
      else process.env.RESEND_BASE_URL = previous;
    }
    expect(requests[0]?.headers.authorization).toBe("Bearer re_env_key");
  });

  it("throws a non-retryable error when Resend rejects the message", async () => {
    reply = { status: 422, body: { statusCode: 422, name: "validation_error", message: "Invalid `to` field." } };
    const error = await deliverEmail(message("bad", "x"), createResendTransport({ apiKey: "re_test_key", baseUrl })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmailDeliveryError);
    expect(error).toMatchObject({ providerCode: "validation_error", statusCode: 422, retryable: false });
    expect((error as Error).message).toContain("Invalid `to` field.");
  });

  it("throws a retryable error on a server error or rate limit", async () => {
    const transport = createResendTransport({ apiKey: "re_test_key", baseUrl });
    reply = { status: 500, body: { statusCode: 500, name: "internal_server_error", message: "boom" } };
    await expect(deliverEmail(message("ada@example.com", "x"), transport)).rejects.toMatchObject({ retryable: true, statusCode: 500 });
    reply = { status: 429, body: { statusCode: 429, name: "rate_limit_exceeded", message: "slow down" } };
    await expect(deliverEmail(message("ada@example.com", "x"), transport)).rejects.toMatchObject({ retryable: true, statusCode: 429 });
  });

  describe("paced to the provider's send rate (EMAIL_SEND_RATE) through the shared rate limit store", () => {
    // The test process's limiter (Redis when REDIS_URL is set, as in CI), under a fresh prefix.
    const pacedTransport = (perSecond: number, maxWaitMs?: number) => {
      const limiter = createRateLimiter(rateLimitBackendFromEnv(), { prefix: `tagsvc:test:pace:${randomUUID()}`, policies: { emailProviderSends: { limit: perSecond } } });
      limiters.push(limiter);
      const waitForSendSlot = createSendPace({ takeSlot: () => limiter.check(["emailProviderSends"], { ip: "", key: "resend" }), maxWaitMs });
      return createResendTransport({ apiKey: "re_test_key", baseUrl, waitForSendSlot });
    };
    const limiters: RateLimiter[] = [];
    afterAll(async () => {
      await Promise.all(limiters.map((limiter) => limiter.close()));
    });

    it("sends a burst at most so many per second: six at 2 a second all go out once, over at least three windows", async () => {
      const transport = pacedTransport(2);
      const started = Date.now();
      const sent = await Promise.all(Array.from({ length: 6 }, (_, i) => deliverEmail({ ...message(`burst-${i}@example.com`, `Burst ${i}`), idempotencyKey: `burst-${i}` }, transport)));
      const elapsedMs = Date.now() - started;
      expect(sent).toHaveLength(6);
      expect(requests.map((request) => request.headers["idempotency-key"]).sort()).toEqual(Array.from({ length: 6 }, (_, i) => `burst-${i}`));
      // Three one-second windows hold six sends at two each: at least two window ends pass, so a second at least.
      expect(elapsedMs).toBeGreaterThanOrEqual(1_000);
    });

    it("gives up on a send that finds no slot in time: a retryable 429 error, and nothing reaches Resend", async () => {
      const transport = pacedTransport(1, 0);
      const outcomes = await Promise.allSettled([1, 2, 3].map((i) => deliverEmail(message(`late-${i}@example.com`, "x"), transport)));
      expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
      const refused = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected").map((outcome) => outcome.reason as unknown);
      expect(refused).toHaveLength(2);
      for (const error of refused) {
        expect(error).toBeInstanceOf(EmailDeliveryError);
        expect(error).toMatchObject({ providerCode: "rate_limit_exceeded", statusCode: 429, retryable: true });
      }
      expect(requests).toHaveLength(1);
    });
  });

  it("throws a retryable error when the server cannot be reached", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const transport = createResendTransport({ apiKey: "re_test_key", baseUrl: `http://127.0.0.1:${port}` });
    await expect(deliverEmail(message("ada@example.com", "x"), transport)).rejects.toMatchObject({ retryable: true, statusCode: null });
  });
});
