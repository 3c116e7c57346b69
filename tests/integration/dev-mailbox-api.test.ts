import { afterEach, describe, expect, it, vi } from "vitest";
import { GET as mailbox } from "@/app/api/dev/mailbox/route";
import { createOutboxTransport } from "@/lib/email/outbox-transport";
import { apiRequest, call, json } from "../support/http";

async function send(to: string, subject: string) {
  await createOutboxTransport().send({ to, from: "Tag Service <no-reply@example.com>", subject, text: `${subject} http://localhost:3000/verify-email?token=t-${subject}`, html: `<p>${subject}</p>` });
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("GET /api/dev/mailbox", () => {
  it("lists a recipient's messages newest first in the envelope", async () => {
    await send("reader@example.com", "one");
    await send("other@example.com", "not yours");
    await send("Reader@Example.com", "two");
    const response = await call(mailbox, apiRequest("/api/dev/mailbox?to=reader@example.com"));
    expect(response.status).toBe(200);
    const body = await json<{ success: boolean; data: { id: string; to: string; subject: string; text: string; html: string; createdAt: string }[] }>(response);
    expect(body.success).toBe(true);
    expect(body.data.map((m) => m.subject)).toEqual(["two", "one"]);
    expect(Object.keys(body.data[0]!).sort()).toEqual(["createdAt", "headers", "html", "id", "subject", "text", "to"]);
    expect(body.data[0]!.text).toContain("?token=t-two");
    expect(new Date(body.data[0]!.createdAt).toISOString()).toBe(body.data[0]!.createdAt);
  });

  it("is 404 when the mailbox is off (production without ENABLE_DEV_MAILBOX)", async () => {
    vi.stubEnv("ENABLE_DEV_MAILBOX", "false");
    vi.resetModules();
    const { GET: disabled } = await import("@/app/api/dev/mailbox/route");
    const response = await call(disabled, apiRequest("/api/dev/mailbox?to=reader@example.com"));
    expect(response.status).toBe(404);
    expect(await json(response)).toEqual({ success: false, error: { code: "NOT_FOUND", message: expect.any(String) } });
  });
});
