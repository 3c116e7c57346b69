import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { connectPostgres, getDatabase, schema, setDatabase, type DatabaseHandle } from "@/db/client";
import { FINDER_PAGE_CSP } from "@/lib/finder-page/document";
import { FINDER_STYLESHEET } from "@/lib/finder-page/finder-css.generated";
import { escapeHtml } from "@/lib/html-escape";
import { prepareJobs, stopJobs } from "@/lib/jobs";
import en from "@/messages/en.json";
import es from "@/messages/es.json";
import { registerAccount } from "../support/auth";
import { finderContactPost, finderPage } from "../support/finder-page";
import { apiRequest, call, nextTestIp } from "../support/http";
import { testDatabase } from "../support/integration-setup";
import { giveTestTag, mintTestTags } from "../support/tags";
import { closedPort } from "../support/tcp-proxy";
import { GET as scanApi } from "@/app/api/v1/scan/[encryptedId]/route";

/**
 * GET and POST /t/:encryptedId, the finder's page (lib/finder-page, docs/finder-page.md), through the real
 * route handler, rate limiter, services and database: every view is a scan, the page is the same bytes
 * while the tag is unchanged and changes with it, and it carries a policy without a nonce that allows
 * exactly its own inline script.
 */

beforeAll(async () => {
  await prepareJobs();
});

afterAll(async () => {
  await stopJobs();
});

async function ownedTag(status: "ACTIVE" | "LOST" = "ACTIVE", itemName = "Blue backpack") {
  const owner = await registerAccount();
  return { owner, tag: await giveTestTag(owner.id, { status, itemName }) };
}

async function scansOf(tagId: string) {
  return getDatabase().db.select().from(schema.scans).where(eq(schema.scans.tagId, tagId));
}

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

describe("the finder's page", () => {
  it("is the tag's page in the finder's language, with a policy that allows only its own inline script and our stylesheet", async () => {
    const { tag } = await ownedTag("LOST");
    const response = await finderPage(tag.encryptedId, { ip: nextTestIp() });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(response.headers.get("vary")).toContain("Accept-Language");
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const csp = response.headers.get("content-security-policy")!;
    expect(csp).toBe(FINDER_PAGE_CSP);
    expect(csp).not.toContain("nonce");
    expect(csp).not.toContain("unsafe-inline");
    const page = await response.text();
    expect(page).toMatch(/^<!DOCTYPE html><html lang="en">/);
    expect(page).toContain(`<h1 id="finder-item" class="text-2xl font-bold break-words text-ink">Blue backpack</h1>`);
    expect(page).toContain(escapeHtml(en.Finder.bannerLost));
    // One inline script, allowed by its hash; one stylesheet of our own; nothing of the framework's.
    const scripts = [...page.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
    expect(scripts).toHaveLength(1);
    expect(csp).toContain(`script-src ${sha256(scripts[0]!)};`);
    expect(csp).toContain("style-src 'self';");
    expect(page).not.toMatch(/<script[^>]+src=|<style|_next\//);
    const stylesheets = [...page.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((match) => match[1]);
    expect(stylesheets).toEqual([FINDER_STYLESHEET]);
    expect(existsSync(path.join("public", FINDER_STYLESHEET))).toBe(true);
    // The contact form posts to the page itself, and location sharing names the API it calls.
    expect(page).toContain(`<form method="post" action="/t/${tag.encryptedId}" aria-label="Message the owner"`);
    expect(page).toContain(`data-endpoint="/api/v1/scan/${tag.encryptedId}/location"`);
  });

  it("speaks Spanish to a Spanish phone", async () => {
    const { tag } = await ownedTag();
    const page = await (await finderPage(tag.encryptedId, { ip: nextTestIp(), headers: { "accept-language": "es-MX,es;q=0.9" } })).text();
    expect(page).toMatch(/^<!DOCTYPE html><html lang="es">/);
    expect(page).toContain(escapeHtml(es.Finder.messageOwner));
    expect(page).not.toContain(escapeHtml(en.Finder.messageOwner));
  });

  it("records a scan for every view, as the scan API does, and tells the owner of the first real one only", async () => {
    const { owner, tag } = await ownedTag();
    const ip = nextTestIp();
    const first = await (await finderPage(tag.encryptedId, { ip })).text();
    const second = await (await finderPage(tag.encryptedId, { ip })).text();
    expect(second).toBe(first);
    const scans = await scansOf(tag.id);
    expect(scans.map((scan) => scan.scanClass).sort()).toEqual(["REAL", "REPEAT"]);
    const [row] = await getDatabase().db.select({ scanCount: schema.tags.scanCount }).from(schema.tags).where(eq(schema.tags.id, tag.id));
    expect(row!.scanCount).toBe(2);
    const told = await getDatabase().db.select().from(schema.notifications).where(and(eq(schema.notifications.userId, owner.id), eq(schema.notifications.type, "TAG_SCANNED")));
    expect(told).toHaveLength(1);
  });

  it("counts ten views at once as ten scans, exactly one of them real", async () => {
    const { tag } = await ownedTag();
    const ip = nextTestIp();
    const responses = await Promise.all(Array.from({ length: 10 }, () => finderPage(tag.encryptedId, { ip })));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    const scans = await scansOf(tag.id);
    expect(scans).toHaveLength(10);
    expect(scans.filter((scan) => scan.scanClass === "REAL")).toHaveLength(1);
  });

  it("shows a change to the tag at the next view: the cached page is keyed by what it shows", async () => {
    const { owner, tag } = await ownedTag();
    const ip = nextTestIp();
    const before = await (await finderPage(tag.encryptedId, { ip })).text();
    expect(before).not.toContain("finder-reward");
    await getDatabase().db.insert(schema.rewards).values({ tagId: tag.id, ownerId: owner.id, amountMinor: 5000, currency: "EUR" });
    await getDatabase().db.update(schema.tags).set({ status: "LOST", itemName: "Red bike" }).where(eq(schema.tags.id, tag.id));
    const after = await (await finderPage(tag.encryptedId, { ip })).text();
    expect(after).toContain("Red bike");
    expect(after).toContain('data-testid="finder-reward"');
    expect(after).toContain("€50.00");
    expect(after).toContain(escapeHtml(en.Finder.bannerLost));
  });

  it("answers HEAD without a body, recorded as a prefetch (link previews), not a finder's scan", async () => {
    const { tag } = await ownedTag();
    const response = await finderPage(tag.encryptedId, { ip: nextTestIp(), method: "HEAD" });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
    expect((await scansOf(tag.id)).map((scan) => scan.scanClass)).toEqual(["PREFETCH"]);
  });

  it("recognises the owner's own visit by the session cookie: recorded as OWNER, nobody told", async () => {
    const { owner, tag } = await ownedTag();
    const response = await finderPage(tag.encryptedId, { ip: nextTestIp(), headers: { cookie: owner.cookie } });
    expect(response.status).toBe(200);
    expect((await scansOf(tag.id)).map((scan) => scan.scanClass)).toEqual(["OWNER"]);
    // A forged or stale cookie is nobody: the page still opens, as a finder's.
    const { tag: other } = await ownedTag();
    expect((await finderPage(other.encryptedId, { ip: nextTestIp(), headers: { cookie: "authjs.session-token=forged" } })).status).toBe(200);
  });

  it("says a tag nobody has set up is not set up, and an unknown or hostile address is not found (404), never a 500", async () => {
    const [unowned] = await mintTestTags(1);
    const pending = await finderPage(unowned!.encryptedId, { ip: nextTestIp() });
    expect(pending.status).toBe(200);
    expect(await pending.text()).toContain(escapeHtml(en.Finder.unownedHeading));
    for (const address of ["AAAAAAAAAAAAAAAAAAAAAA", "abc\u0000def", "x".repeat(5000), "%E0%A4%A", "lone\uD800surrogate", "../../etc/passwd", "<script>"]) {
      const response = await finderPage(address, { ip: nextTestIp() });
      expect(response.status, address.slice(0, 20)).toBe(404);
      expect(await response.text()).toContain(escapeHtml(en.Finder.notFoundHeading));
    }
  });

  it("shares the scan API's per-IP budget: 30 a minute through either door, then 429 with Retry-After", async () => {
    const { tag } = await ownedTag();
    const ip = nextTestIp();
    for (let i = 0; i < 15; i++) expect((await finderPage(tag.encryptedId, { ip })).status).toBe(200);
    for (let i = 0; i < 15; i++) expect((await call(scanApi as never, apiRequest(`/api/v1/scan/${tag.encryptedId}`, { ip }), { encryptedId: tag.encryptedId })).status).toBe(200);
    const limited = await finderPage(tag.encryptedId, { ip });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited.text()).toContain(escapeHtml(en.Finder.tooManyHeading));
    expect(await scansOf(tag.id)).toHaveLength(30);
  });
});

describe("the page's contact form, without JavaScript", () => {
  it("opens a conversation and sends the finder to it (303), the same as POST …/contact", async () => {
    const { tag } = await ownedTag();
    const response = await finderContactPost(tag.encryptedId, { message: "Found it by the station", finderName: "Sam", finderEmail: "sam@example.com" }, { ip: nextTestIp() });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toMatch(/^\/thread\/[A-Za-z0-9_-]{43}\?sent=1&email=1$/);
    const threads = await getDatabase().db.select().from(schema.threads).where(eq(schema.threads.tagId, tag.id));
    expect(threads).toHaveLength(1);
    // The post is not a view of the page: no scan was recorded.
    expect(await scansOf(tag.id)).toHaveLength(0);
  });

  it("answers a refused post with the page, the messages in the finder's language, the values kept (escaped) and the first problem focused", async () => {
    const { tag } = await ownedTag();
    const response = await finderContactPost(tag.encryptedId, { message: "", finderName: '<b>"Sam"</b>', finderEmail: "not an address" }, { ip: nextTestIp(), headers: { "accept-language": "es" } });
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain(escapeHtml(es.Finder.messageRequired));
    expect(page).toContain(escapeHtml(es.Finder.invalidEmail));
    expect(page).toContain('value="&lt;b&gt;&quot;Sam&quot;&lt;/b&gt;"');
    expect(page).toMatch(/<textarea[^>]*aria-invalid="true"[^>]*autofocus/);
    expect(page).not.toContain("<b>");
    expect(await getDatabase().db.select().from(schema.threads).where(eq(schema.threads.tagId, tag.id))).toEqual([]);
  });

  it("refuses a post from another site (403) before reading it, as a forged server action is refused", async () => {
    const { tag } = await ownedTag();
    const forged = await finderContactPost(tag.encryptedId, { message: "Forged" }, { ip: nextTestIp(), headers: { origin: "https://evil.example", host: "localhost:3000" } });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain("This form came from another site");
    expect(await getDatabase().db.select().from(schema.threads).where(eq(schema.threads.tagId, tag.id))).toEqual([]);
    const same = await finderContactPost(tag.encryptedId, { message: "Same site" }, { ip: nextTestIp(), headers: { origin: "http://localhost:3000", host: "localhost:3000" } });
    expect(same.status).toBe(303);
  });

  it("refuses a body too large (413), a foreign content type (415) and strips control characters", async () => {
    const { tag } = await ownedTag();
    expect((await finderContactPost(tag.encryptedId, { message: "x".repeat(70_000) }, { ip: nextTestIp() })).status).toBe(413);
    expect((await finderContactPost(tag.encryptedId, { message: "hello" }, { ip: nextTestIp(), headers: { "content-type": "text/plain" } })).status).toBe(415);
    const ok = await finderContactPost(tag.encryptedId, { message: "hel\u0000lo" }, { ip: nextTestIp() });
    expect(ok.status).toBe(303);
    const [message] = await getDatabase().db.select().from(schema.threadMessages).innerJoin(schema.threads, eq(schema.threads.id, schema.threadMessages.threadId)).where(eq(schema.threads.tagId, tag.id));
    expect(message!.thread_messages.content).toBe("hello");
  });

  it("opens one conversation per post when ten arrive at once, and the hourly budget still holds", async () => {
    const { tag } = await ownedTag();
    const ip = nextTestIp();
    const responses = await Promise.all(Array.from({ length: 12 }, (_, i) => finderContactPost(tag.encryptedId, { message: `Found it ${i}` }, { ip })));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 303)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(2);
    expect(await getDatabase().db.select().from(schema.threads).where(eq(schema.threads.tagId, tag.id))).toHaveLength(10);
  });
});

describe("the finder's page when the database is gone", () => {
  let handle: DatabaseHandle | undefined;
  afterEach(async () => {
    setDatabase(testDatabase());
    await handle?.close().catch(() => {});
  });

  it("answers 503 in the finder's language within 5 seconds", async () => {
    handle = connectPostgres(`postgres://postgres@127.0.0.1:${await closedPort()}/test`);
    setDatabase(handle);
    const started = performance.now();
    const response = await finderPage("AAAAAAAAAAAAAAAAAAAAAA", { ip: nextTestIp(), headers: { "accept-language": "fr" } });
    expect(response.status).toBe(503);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(await response.text()).toContain("Momentanément indisponible");
  });
});
