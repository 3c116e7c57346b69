import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { randomInt } from "node:crypto";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, describe, expect, it, vi } from "vitest";
import { mockNextRequestScope } from "../support/next-request-scope";
import { FIXTURE_PIN as PIN, FIXTURE_RELAY as RELAY, fixtureApp } from "../support/telephony-fixture";

/**
 * The development phone page and its server actions (app/dev/phone), over real HTTP: the network posts
 * its signed webhooks to APP_URL, here a small server answering the TwiML contract
 * (tests/support/telephony-fixture.ts). The actions, the network and the database are the real ones.
 */

const freshNumber = () => `+49151${String(randomInt(0, 100_000_000)).padStart(8, "0")}`;
const FINDER = freshNumber();
const OWNER = freshNumber();

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
    const signature = String(req.headers["x-twilio-signature"] ?? "");
    const contentType = String(req.headers["content-type"] ?? "");
    void app
      .transport({ url: `${appUrl}${req.url}`, method: req.method === "GET" ? "GET" : "POST", params, signature })
      .then(({ status, body }) => {
        res.writeHead(contentType === "application/x-www-form-urlencoded" ? status : 415, { "Content-Type": "text/xml" });
        res.end(body);
      });
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const app = fixtureApp(OWNER, { appUrl });
// Stubbed for this file's modules only: fresh modules read it, and afterAll restores the variable and drops
// those modules, since the files after this one in the worker (isolate: false) need the real APP_URL.
vi.stubEnv("APP_URL", appUrl);
vi.resetModules();

mockNextRequestScope("192.0.2.78");
const actions = await import("@/app/dev/phone/actions");
const { default: DevPhonePage, dynamic } = await import("@/app/dev/phone/page");
const { testNetwork } = await import("@/lib/telephony/test-network");

afterAll(async () => {
  vi.unstubAllEnvs();
  vi.resetModules();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function renderPage(query: Record<string, string> = { finder: FINDER, owner: OWNER }) {
  return renderToStaticMarkup(await DevPhonePage({ searchParams: Promise.resolve(query) }));
}

/** Submits a form to a row action; answers where it redirected to. */
async function submit(action: (form: FormData) => Promise<void>, fields: Record<string, string>): Promise<string> {
  const form = new FormData();
  for (const [name, value] of Object.entries({ finder: FINDER, owner: OWNER, ...fields })) form.set(name, value);
  try {
    await action(form);
  } catch (thrown) {
    const digest = String((thrown as { digest?: unknown }).digest ?? "");
    if (digest.startsWith("NEXT_REDIRECT")) return digest.split(";")[2]!;
    throw thrown;
  }
  throw new Error("the action did not redirect");
}

const pageUrl = `/dev/phone?finder=${encodeURIComponent(FINDER)}&owner=${encodeURIComponent(OWNER)}`;

describe("/dev/phone", () => {
  it("is rendered on every request", () => {
    expect(dynamic).toBe("force-dynamic");
  });

  it("plays a whole call and a text between the finder's and the owner's phones", async () => {
    let html = await renderPage();
    expect(html).toContain("<h1");
    expect(html).toContain(`Call the relay (${RELAY})`);
    expect(html).toContain("Not ringing.");

    expect(await submit(actions.dialRelayAction, {})).toBe(pageUrl);
    expect(app.received[0]).toMatchObject({ path: "/api/v1/webhooks/telephony/voice", params: { From: FINDER, To: RELAY, CallStatus: "ringing" } });
    html = await renderPage();
    expect(html).toContain("Enter the PIN.");
    expect(html).toMatch(/<label[^>]*for="finder-keys"[^>]*>Keypad/);

    const [finderCall] = await testNetwork().callsOf(FINDER);
    expect(await submit(actions.pressKeysAction, { sid: finderCall!.sid, keys: PIN })).toBe(pageUrl);
    html = await renderPage();
    expect(html).toContain("Ringing the owner…");
    expect(html).toContain(`Incoming call from ${RELAY}`);
    expect(html).toContain(`Call from ${RELAY}`);

    const [ownerCall] = await testNetwork().callsOf(OWNER);
    await submit(actions.answerCallAction, { sid: ownerCall!.sid });
    html = await renderPage();
    expect(html).toContain("A finder of Rex is calling through Tag Service; press 1 to accept.");
    await submit(actions.pressKeysAction, { sid: ownerCall!.sid, keys: "1" });
    html = await renderPage();
    expect(html.match(/>Connected</g)).toHaveLength(2);

    await submit(actions.hangUpAction, { sid: finderCall!.sid });
    expect(app.received.at(-1)).toMatchObject({ path: "/api/v1/webhooks/telephony/voice/status", params: { DialCallStatus: "completed" } });
    html = await renderPage();
    expect(html).toContain("Last call (completed)");
    expect(html).toContain(`Call the relay (${RELAY})`);

    expect(await submit(actions.sendTextAction, { from: FINDER, body: `${PIN} Found it by the lake` })).toBe(pageUrl);
    html = await renderPage();
    expect(html).toContain("Sent to the owner of Rex.");
    expect(html.indexOf("Sent to the owner of Rex.")).toBeLessThan(html.indexOf(`${PIN} Found it by the lake`));
  });

  it("comes back with a notice for a step the call is not in, or a malformed field", async () => {
    const sid = await testNetwork().dial(freshNumber());
    await testNetwork().hangUp(sid);
    expect(await submit(actions.pressKeysAction, { sid, keys: "1" })).toBe(`${pageUrl}&notice=not-waiting`);
    expect(await submit(actions.pressKeysAction, { sid, keys: "abc" })).toBe(`${pageUrl}&notice=invalid`);
    expect(await renderPage({ finder: FINDER, owner: OWNER, notice: "not-waiting" })).toContain("That call is not in that step any more");
  });

  it("offers the numbers the relay texted as the owner's, the latest first by default", async () => {
    const owner = freshNumber();
    await testNetwork().sendText(owner, `${PIN} hello`);
    const html = await renderPage({ finder: FINDER });
    expect(html).toContain(`<option value="${owner}">`);
    expect(html).toContain(`Owner&#x27;s phone <span class="font-mono text-base font-normal">${owner}</span>`);
  });
});
