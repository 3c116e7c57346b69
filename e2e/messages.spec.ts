import type { APIRequestContext } from "@playwright/test";
import { expect, expectRenderedScreenshot, test, waitForHydration } from "./support/fixtures";
import { expectNoHorizontalScroll, mailboxLink, newAccount, signInWithForm } from "./support/accounts";
import { e2eAdmin, e2eBaseUrl } from "./support/server-env";

/** The `data` of a successful API answer, failing the test with the body otherwise. */
async function apiData<T>(response: import("@playwright/test").APIResponse, status: number): Promise<T> {
  expect(response.status(), await response.text()).toBe(status);
  return ((await response.json()) as { data: T }).data;
}

/** The finder: plain fetch from the test, no cookies, no account. */
async function finderFetch(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${e2eBaseUrl}${path}`, {
    method: init.method ?? "GET",
    headers: { ...(init.body !== undefined ? { "content-type": "application/json" } : {}), ...init.headers },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as { data?: Record<string, unknown>; error?: { code: string } } };
}

type RequestFactory = { request: { newContext(options: { baseURL: string }): Promise<APIRequestContext> } };

/**
 * The admin mints a tag and the owner (a new account, by API) claims it as "Blue backpack": its scan id.
 * A context per actor: login and register set a session cookie, and a cookie POST without Origin is refused.
 */
async function ownerWithTag(playwright: RequestFactory, owner: ReturnType<typeof newAccount>): Promise<string> {
  const adminApi = await playwright.request.newContext({ baseURL: e2eBaseUrl });
  const ownerApi = await playwright.request.newContext({ baseURL: e2eBaseUrl });
  try {
    const admin = await apiData<{ accessToken: string }>(await adminApi.post("/api/v1/auth/login", { data: { email: e2eAdmin.email, password: e2eAdmin.password } }), 200);
    const [minted] = await apiData<{ code: string; encryptedId: string }[]>(
      await adminApi.post("/api/v1/admin/tags/batch", { data: { count: 1 }, headers: { Authorization: `Bearer ${admin.accessToken}` } }),
      201,
    );
    const registered = await apiData<{ accessToken: string }>(
      await ownerApi.post("/api/v1/auth/register", { data: { email: owner.email, password: owner.password, firstName: owner.firstName, lastName: owner.lastName } }),
      201,
    );
    await apiData(await ownerApi.post("/api/v1/tags/activate", { data: { code: minted!.code, itemName: "Blue backpack" }, headers: { Authorization: `Bearer ${registered.accessToken}` } }), 201);
    return minted!.encryptedId;
  } finally {
    await Promise.all([adminApi.dispose(), ownerApi.dispose()]);
  }
}

test.describe("messages between a finder and the owner", () => {
  test.use({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });

  test("a finder writes, the inbox shows it unread at once, the owner replies, the finder reads the reply", async ({ page, playwright }, testInfo) => {
    test.setTimeout(150_000);
    const owner = newAccount("messages");
    const encryptedId = await ownerWithTag(playwright, owner);
    const finderEmail = `e2e-finder-${Date.now().toString(36)}@example.net`;

    await signInWithForm(page, owner);

    await test.step("the inbox is empty and listens for new messages", async () => {
      await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Messages" }).click();
      await expect(page).toHaveURL(/\/dashboard\/messages$/);
      await expect(page.getByRole("heading", { level: 1, name: "Messages" })).toBeVisible();
      // A fresh load, so the test knows when this page's stream is open.
      const streamOpened = page.waitForResponse((response) => response.url().endsWith("/api/v1/notifications/stream") && response.status() === 200);
      await page.reload();
      await streamOpened;
      await expect(page.getByText("No messages yet.")).toBeVisible();
      await waitForHydration(page.getByRole("link", { name: /^Notifications, \d+ unread$/ }));
    });

    let threadToken = "";
    await test.step("a finder writes through the API: the conversation appears unread without a reload", async () => {
      const contact = await finderFetch(`/api/v1/scan/${encryptedId}/contact`, {
        method: "POST",
        body: { finderName: "Sam", message: "Hi! I found your blue backpack at the station. WhatsApp me at +44 7700 900123 and we sort it out.", finderEmail },
        headers: { "accept-language": "fr-FR,fr;q=0.9" },
      });
      expect(contact.status).toBe(201);
      threadToken = String(contact.body.data!.threadToken);
      expect(contact.body.data!.threadUrl).toBe(`${e2eBaseUrl.replace(/\/+$/, "")}/thread/${threadToken}`);

      const conversations = page.getByRole("list", { name: "Conversations, most recent first" });
      await expect(conversations.getByRole("listitem")).toHaveCount(1);
      const row = conversations.getByRole("listitem").first();
      await expect(row).toHaveAttribute("data-unread", "1");
      await expect(row.getByText("1 unread")).toBeVisible();
      await expect(row.getByText("Sam", { exact: true })).toBeVisible();
      await expect(row.getByText("About Blue backpack")).toBeVisible();
      await expect(row.getByText(/I found your blue backpack/)).toBeVisible();
      // Not only counted: an alert on the page, which the owner can dismiss.
      const alert = page.getByTestId("message-alert");
      await expect(alert).toBeVisible();
      await expect(alert.getByRole("link", { name: "Open messages" })).toHaveAttribute("href", "/dashboard/messages");
      await alert.getByRole("button", { name: "Dismiss this alert" }).click();
      await expect(alert).toHaveCount(0);
      // Marked before it is opened: the finder's message tripped the scam rules.
      await expect(row).toHaveAttribute("data-scam-flagged", "true");
      await expect(row.getByText("Possible scam")).toBeVisible();
      await expectNoHorizontalScroll(page, 390);
      await expectRenderedScreenshot(page, testInfo, "inbox-unread");
    });

    await test.step("the conversation shows the message with its scam warning; the owner replies", async () => {
      await page.getByRole("link", { name: /Sam/ }).click();
      await expect(page).toHaveURL(/\/dashboard\/messages\/[0-9a-f-]{36}$/);
      await expect(page.getByRole("heading", { level: 1, name: "Sam" })).toBeVisible();
      const messages = page.getByRole("list", { name: "Messages, oldest first" });
      await expect(messages.getByRole("listitem")).toHaveCount(1);
      const warning = page.getByRole("note").filter({ hasText: "Be careful: this may be a scam" });
      await expect(warning).toBeVisible();
      await expect(warning).toContainText("continuing outside Tag Service");

      const form = page.getByRole("form", { name: "Reply to the finder" });
      const send = form.getByRole("button", { name: "Send reply" });
      await waitForHydration(send);
      // The report form opens with "scam" chosen for this message.
      await expect(messages.getByRole("link", { name: /^Report this message/ })).toHaveAttribute("href", /type=SCAM$/);
      // Warned before sending contact details: without the box ticked, a reply with a phone number is held back.
      await expect(page.getByText("Careful: this finder's messages look like a scam.")).toBeVisible();
      await form.getByLabel("Your reply").fill("Call me on +44 20 7946 0958");
      await send.click();
      await expect(form.getByText("Tick this to send your contact details to this finder.")).toBeVisible();
      await expect(messages.getByRole("listitem")).toHaveCount(1);
      await expect(form.getByLabel("Your reply")).toHaveValue("Call me on +44 20 7946 0958");
      await form.getByLabel("Your reply").fill("Thank you so much! Could you leave it at the station's lost-and-found desk?");
      await send.click();
      await expect(page.getByRole("status").filter({ hasText: "Your reply was sent." })).toBeVisible();
      await expect(messages.getByRole("listitem")).toHaveCount(2);
      await expect(messages.getByRole("listitem").last()).toHaveAttribute("data-sender", "OWNER");
      await expect(form.getByLabel("Your reply")).toHaveValue("");
      await expectNoHorizontalScroll(page, 390);
      await expectRenderedScreenshot(page, testInfo, "conversation-replied");
    });

    await test.step("the finder reads the reply by the thread token, and was e-mailed the link in French", async () => {
      const thread = await finderFetch(`/api/v1/scan/thread/${threadToken}`);
      expect(thread.status).toBe(200);
      const sent = thread.body.data!.messages as { sender: string; content: string; warnings: string[] }[];
      expect(sent.map((message) => message.sender)).toEqual(["FINDER", "OWNER"]);
      expect(sent[0]!.warnings).toEqual(["OFF_PLATFORM"]);
      expect(sent[1]!.content).toBe("Thank you so much! Could you leave it at the station's lost-and-found desk?");
      expect(JSON.stringify(thread.body)).not.toContain(owner.email);
      expect(await mailboxLink(page.request, finderEmail, "/thread")).toBe(`${e2eBaseUrl.replace(/\/+$/, "")}/thread?token=${threadToken}`);
      const mailbox = await page.request.get(`/api/dev/mailbox?to=${encodeURIComponent(finderEmail)}`);
      const [mail] = ((await mailbox.json()) as { data: { subject: string }[] }).data;
      expect(mail!.subject).toBe("Le propriétaire a répondu à votre message");
    });

    await test.step("closing stops the finder writing; reopening lets them again", async () => {
      const close = page.getByRole("button", { name: "Close conversation" });
      await waitForHydration(close);
      await close.click();
      await expect(page.getByRole("status").filter({ hasText: "The conversation is closed." })).toBeVisible();
      await expect(page.getByRole("form", { name: "Reply to the finder" })).toHaveCount(0);
      expect((await finderFetch(`/api/v1/scan/thread/${threadToken}/reply`, { method: "POST", body: { message: "Hello?" } })).status).toBe(403);
      await expectRenderedScreenshot(page, testInfo, "conversation-closed");

      await page.getByRole("button", { name: "Reopen conversation" }).click();
      await expect(page.getByRole("status").filter({ hasText: "The conversation is open again" })).toBeVisible();
      expect((await finderFetch(`/api/v1/scan/thread/${threadToken}/reply`, { method: "POST", body: { message: "I left it at the desk." } })).status).toBe(201);
      // The open conversation refreshes with the finder's new message.
      await expect(page.getByRole("list", { name: "Messages, oldest first" }).getByRole("listitem")).toHaveCount(3);
    });
  });
  test("the finder's thread page shows the owner's reply within 2 s without a reload; without JavaScript \"Check for replies\" reloads; the finder opts in to e-mail", async ({ browser, playwright }, testInfo) => {
    test.setTimeout(120_000);
    const owner = newAccount("live-thread");
    const encryptedId = await ownerWithTag(playwright, owner);
    const ownerApi = await playwright.request.newContext({ baseURL: e2eBaseUrl });
    const finderContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const noScript = await browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
    try {
      const { accessToken } = await apiData<{ accessToken: string }>(await ownerApi.post("/api/v1/auth/login", { data: { email: owner.email, password: owner.password } }), 200);
      const auth = { Authorization: `Bearer ${accessToken}` };
      const contact = await finderFetch(`/api/v1/scan/${encryptedId}/contact`, { method: "POST", body: { message: "Found your backpack on the tram." } });
      expect(contact.status).toBe(201);
      const threadToken = String(contact.body.data!.threadToken);
      const [listed] = await apiData<{ id: string }[]>(await ownerApi.get("/api/v1/messages", { headers: auth }), 200);
      const reply = async (content: string) => apiData(await ownerApi.post(`/api/v1/messages/${listed!.id}/reply`, { data: { content }, headers: auth }), 201);

      const finder = await finderContext.newPage();
      await test.step("the owner's reply appears on the open page within 2 s, without a reload", async () => {
        const streamOpened = finder.waitForResponse((response) => response.url().endsWith(`/api/v1/scan/thread/${threadToken}/stream`) && response.status() === 200);
        await finder.goto(`/thread/${threadToken}`);
        await streamOpened;
        // A marker on the window: a reload would drop it.
        await finder.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
        await reply("Thank you! I can meet you at the tram stop at six.");
        await expect(finder.getByText("Thank you! I can meet you at the tram stop at six.")).toBeVisible({ timeout: 2_000 });
        expect(await finder.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
        await expectRenderedScreenshot(finder, testInfo, "finder-thread-live-390");
      });

      await test.step("without JavaScript, \"Check for replies\" is a real reload that shows a new reply", async () => {
        const page = await noScript.newPage();
        await page.goto(`/thread/${threadToken}`);
        const check = page.getByRole("link", { name: "Check for replies" });
        await expect(check).toHaveAttribute("href", `/thread/${threadToken}`);
        await reply("See you there.");
        await expect(page.getByText("See you there.")).toHaveCount(0);
        await check.click();
        await expect(page.getByText("See you there.")).toBeVisible();
      });

      await test.step("the finder asks to be e-mailed on the next reply", async () => {
        const finderEmail = `e2e-optin-${Date.now().toString(36)}@example.net`;
        const form = finder.getByRole("form", { name: "Get an e-mail when the owner replies" });
        const submit = form.getByRole("button", { name: "E-mail me on reply" });
        await waitForHydration(submit);
        await form.getByLabel("Your e-mail address").fill(finderEmail);
        await submit.click();
        await expect(finder.getByTestId("optin-state")).toHaveText("Done: we will e-mail you when the owner replies.");
        await reply("I am on my way.");
        expect(await mailboxLink(finder.request, finderEmail, "/thread")).toBe(`${e2eBaseUrl.replace(/\/+$/, "")}/thread?token=${threadToken}`);
      });
    } finally {
      await Promise.all([ownerApi.dispose(), finderContext.close(), noScript.close()]);
    }
  });
});
