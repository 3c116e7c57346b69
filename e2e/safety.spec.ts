import type { APIRequestContext, APIResponse } from "@playwright/test";
import { expect, expectRenderedScreenshot, test, waitForHydration } from "./support/fixtures";
import { expectNoHorizontalScroll, newAccount, signInWithForm, type TestAccount } from "./support/accounts";
import { e2eAdmin, e2eBaseUrl } from "./support/server-env";

/** The `data` of a successful API answer, failing the test with the body otherwise. */
async function apiData<T>(response: APIResponse, status: number): Promise<T> {
  expect(response.status(), await response.text()).toBe(status);
  return ((await response.json()) as { data: T }).data;
}

type RequestFactory = { request: { newContext(options: { baseURL: string }): Promise<APIRequestContext> } };

/** Registers an account through the API in a context of its own (register sets a cookie); returns its id. */
async function registerUser(playwright: RequestFactory, account: TestAccount): Promise<{ id: string; accessToken: string }> {
  const api = await playwright.request.newContext({ baseURL: e2eBaseUrl });
  try {
    const data = await apiData<{ user: { id: string }; accessToken: string }>(
      await api.post("/api/v1/auth/register", { data: { email: account.email, password: account.password, firstName: account.firstName, lastName: account.lastName } }),
      201,
    );
    return { id: data.user.id, accessToken: data.accessToken };
  } finally {
    await api.dispose();
  }
}

/** The seeded admin mints a tag and the user claims it, through the API: the tag's id and scan id. */
async function claimTag(playwright: RequestFactory, accessToken: string, itemName: string): Promise<{ id: string; encryptedId: string }> {
  const api = await playwright.request.newContext({ baseURL: e2eBaseUrl });
  try {
    const admin = await apiData<{ accessToken: string }>(await api.post("/api/v1/auth/login", { data: { email: e2eAdmin.email, password: e2eAdmin.password } }), 200);
    const [minted] = await apiData<{ code: string }[]>(await api.post("/api/v1/admin/tags/batch", { data: { count: 1 }, headers: { Authorization: `Bearer ${admin.accessToken}` } }), 201);
    return await apiData<{ id: string; encryptedId: string }>(
      await api.post("/api/v1/tags/activate", { data: { code: minted!.code, itemName }, headers: { Authorization: `Bearer ${accessToken}` } }),
      201,
    );
  } finally {
    await api.dispose();
  }
}

test.describe("safety on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });

  test("emergency information and a contact are saved, a read is logged, the ICE card renders and prints", async ({ page, playwright }, testInfo) => {
    test.setTimeout(150_000);
    const account = { ...newAccount("emergency"), firstName: "Grace", lastName: "Hopper" };
    const { accessToken } = await registerUser(playwright, account);
    const tag = await claimTag(playwright, accessToken, "House keys");
    await signInWithForm(page, account);

    await test.step("the editor: a wrong phone number is reported, the medical facts are saved", async () => {
      await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Emergency" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Emergency information" })).toBeVisible();
      await expect(page.getByTestId("emergency-shown")).toContainText("Not shown yet.");

      const medical = page.getByRole("form", { name: "Medical information" });
      const save = medical.getByRole("button", { name: "Save medical information" });
      await waitForHydration(save);
      await medical.getByLabel("Blood type").selectOption("O+");
      await medical.getByLabel("Organ donor").selectOption("yes");
      await medical.getByLabel("Allergies").fill("Penicillin\nPeanuts");
      await medical.getByLabel("Medical conditions").fill("Type 1 diabetes");
      await medical.getByLabel("Instructions for first responders").fill("Glucose tablets in the left jacket pocket.");
      await medical.getByLabel("Doctor's phone").fill("call the clinic");
      await save.click();
      await expect(medical.getByLabel("Doctor's phone")).toHaveAccessibleDescription(/phone number/);
      await expect(medical.getByLabel("Doctor's phone")).toBeFocused();
      // The choices made survive the failed save (the form resets to what was sent).
      await expect(medical.getByLabel("Blood type")).toHaveValue("O+");
      await expect(medical.getByLabel("Organ donor")).toHaveValue("yes");
      await expect(medical.getByLabel("Allergies")).toHaveValue("Penicillin\nPeanuts");
      await medical.getByLabel("Doctor's phone").fill("+1 555 0100");
      await save.click();
      await expect(medical.getByRole("status").filter({ hasText: "Your emergency information is saved." })).toBeVisible();
      await page.reload();
      await expect(page.getByTestId("emergency-shown")).toContainText("Shown to first responders");
      await expect(page.getByRole("form", { name: "Medical information" }).getByLabel("Allergies")).toHaveValue("Penicillin\nPeanuts");
      await expect(page.getByRole("form", { name: "Medical information" }).getByLabel("Blood type")).toHaveValue("O+");
    });

    await test.step("a contact is added and listed", async () => {
      const add = page.getByRole("form", { name: "Add a contact" });
      const submit = add.getByRole("button", { name: "Add contact" });
      await waitForHydration(submit);
      await add.getByLabel("Name").fill("Alan Turing");
      await add.getByLabel("Relationship").fill("Brother");
      await add.getByLabel("Phone").fill("+44 20 7946 0000");
      await submit.click();
      await expect(add.getByRole("status").filter({ hasText: "Alan Turing was added." })).toBeVisible();
      const contacts = page.getByRole("list", { name: "Emergency contacts" }).getByRole("listitem");
      await expect(contacts).toHaveCount(1);
      await expect(contacts.first()).toContainText("Alan Turing");
      await expect(contacts.first()).toContainText("+44 20 7946 0000");
    });

    await test.step("a first responder's read shows in the access log", async () => {
      const responder = await playwright.request.newContext({ baseURL: e2eBaseUrl });
      const read = await apiData<{ bloodType: string; emergencyContacts: Record<string, string>[] }>(
        await responder.get(`/api/v1/scan/${tag.encryptedId}/emergency`, { headers: { "user-agent": "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36" } }),
        200,
      );
      await responder.dispose();
      expect(read.bloodType).toBe("O+");
      expect(read.emergencyContacts).toEqual([{ name: "Alan Turing", relationship: "Brother", phone: "+44 20 7946 0000" }]);

      await page.reload();
      const log = page.getByRole("list", { name: "Emergency access log" }).getByRole("listitem");
      await expect(log).toHaveCount(1);
      await expect(log.first()).toContainText("through “House keys”");
      await expect(log.first()).toContainText("Chrome on Android");
      await expectNoHorizontalScroll(page, 390);
      await expectRenderedScreenshot(page, testInfo, "emergency-editor");
    });

    await test.step("the ICE card: the chosen facts and the QR code, at wallet size", async () => {
      await page.getByRole("link", { name: "Print an ICE card" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "ICE card" })).toBeVisible();
      const card = page.getByRole("region", { name: "ICE card of Grace Hopper" });
      await expect(card.getByTestId("ice-name")).toHaveText("Grace Hopper");
      await expect(card).toContainText("Blood type: O+");
      await expect(card).toContainText("Allergies: Penicillin, Peanuts");
      await expect(card).toContainText("First contact: Alan Turing (Brother) +44 20 7946 0000");
      await expect(card).not.toContainText("Organ donor");
      await expect(card.getByRole("img", { name: "QR code of my emergency information" }).locator("svg")).toBeVisible();
      await expect(card.getByTestId("ice-url")).toHaveText(`${new URL(e2eBaseUrl).host}/t/${tag.encryptedId}/emergency`);
      // 85.6 × 54 mm at 96 px per inch.
      const box = await card.boundingBox();
      expect(box?.width ?? 0).toBeCloseTo((85.6 / 25.4) * 96, 0);
      expect(box?.height ?? 0).toBeCloseTo((54 / 25.4) * 96, 0);

      const contents = page.getByRole("form", { name: "Card contents" });
      await contents.getByLabel("Allergies").uncheck();
      await contents.getByLabel("Organ donor").check();
      await contents.getByRole("button", { name: "Update the card" }).click();
      await expect(page).toHaveURL(/chosen=1/);
      await expect(card).toContainText("Organ donor: Yes");
      await expect(card).not.toContainText("Allergies");
      await expect(page.getByRole("form", { name: "Card contents" }).getByLabel("Organ donor")).toBeChecked();
      await expectNoHorizontalScroll(page, 390);
      await expectRenderedScreenshot(page, testInfo, "ice-card");
    });

    await test.step("print preview: only the card, at the same size", async () => {
      await waitForHydration(page.getByRole("button", { name: "Print the card" }));
      await page.emulateMedia({ media: "print" });
      const card = page.getByRole("region", { name: "ICE card of Grace Hopper" });
      await expect(page.getByRole("button", { name: "Print the card" })).toBeHidden();
      await expect(page.getByRole("heading", { level: 1, name: "ICE card" })).toBeHidden();
      await expect(page.getByRole("navigation", { name: "Dashboard" })).toBeHidden();
      await expect(page.locator("body > header")).toBeHidden();
      await expect(card).toBeVisible();
      const box = await card.boundingBox();
      expect(box?.width ?? 0).toBeCloseTo((85.6 / 25.4) * 96, 0);
      await expectRenderedScreenshot(page, testInfo, "ice-card-print");
      await page.emulateMedia({ media: "screen" });
    });
  });

  test("a user reports someone, an admin warns them from the queue, the report shows as resolved", async ({ page, browser, playwright }, testInfo) => {
    test.setTimeout(150_000);
    const reporter = newAccount("reporter");
    await registerUser(playwright, reporter);
    const target = newAccount("reported");
    const { id: targetId } = await registerUser(playwright, target);
    await signInWithForm(page, reporter);

    await test.step("the user reports from the safety page (a link carried the user's id)", async () => {
      await page.goto(`/dashboard/account/safety?targetUserId=${targetId}`);
      await expect(page.getByRole("heading", { level: 1, name: "Blocking and reports" })).toBeVisible();
      const form = page.getByRole("form", { name: "Report a problem" });
      await expect(form).toContainText("You are reporting a user.");
      const send = form.getByRole("button", { name: "Send report" });
      await waitForHydration(send);
      await send.click();
      await expect(form.getByLabel("What happened")).toHaveAccessibleDescription(/Describe what happened/);
      await form.getByLabel("What kind of problem").selectOption("HARASSMENT");
      await form.getByLabel("What happened").fill("Keeps sending insulting messages about my lost dog.");
      await send.click();
      await expect(form.getByRole("status").filter({ hasText: "We review every report within 24 hours." })).toBeVisible();
      const mine = page.getByRole("list", { name: "Your reports" }).getByRole("listitem");
      await expect(mine).toHaveCount(1);
      await expect(mine.first()).toContainText("Harassment");
      await expect(mine.first()).toContainText("Received");
      await expectNoHorizontalScroll(page, 390);
      await expectRenderedScreenshot(page, testInfo, "safety-page");
    });

    await test.step("the admin finds it in the open queue and warns the user", async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
      const adminPage = await context.newPage();
      await signInWithForm(adminPage, e2eAdmin);
      await adminPage.goto("/admin/reports");
      await expect(adminPage.getByRole("heading", { level: 1, name: "Reports" })).toBeVisible();
      const card = adminPage.getByRole("list", { name: "Reports" }).getByRole("listitem").filter({ hasText: "Keeps sending insulting messages about my lost dog." });
      await expect(card).toHaveCount(1);
      await expect(card).toContainText(reporter.email);
      await expect(card).toContainText(target.email);
      await expectRenderedScreenshot(adminPage, testInfo, "admin-reports-queue");

      const act = card.getByRole("form", { name: /^Act on the harassment report/ });
      const apply = act.getByRole("button", { name: "Apply" });
      await waitForHydration(apply);
      await expect(act.getByLabel("Action").locator("option")).toHaveText(["Warn the user", "Suspend the user", "Dismiss the report"]);
      await act.getByLabel("Action").selectOption("WARN_USER");
      await act.getByLabel(/^Note/).fill("First warning: keep it civil.");
      await apply.click();
      await expect(adminPage.getByRole("alert").or(adminPage.getByRole("status")).filter({ hasText: "Done: warn the user. The report is closed." })).toBeVisible();
      // The open queue no longer holds it; the resolved one does, with what was done.
      await expect(adminPage.getByRole("list", { name: "Reports" }).getByRole("listitem").filter({ hasText: "Keeps sending insulting messages" })).toHaveCount(0);
      const filter = adminPage.getByRole("form", { name: "Filter reports" });
      await filter.getByLabel("Status").selectOption("RESOLVED");
      await filter.getByRole("button", { name: "Filter" }).click();
      await expect(adminPage).toHaveURL(/status=RESOLVED/);
      const resolved = adminPage.getByRole("list", { name: "Reports" }).getByRole("listitem").filter({ hasText: "Keeps sending insulting messages" });
      await expect(resolved).toContainText("Warn the user");
      await expect(resolved).toContainText("First warning: keep it civil.");
      await expect(resolved.locator("[data-report-status]")).toHaveAttribute("data-report-status", "RESOLVED");
      await expectNoHorizontalScroll(adminPage, 390);
      await expectRenderedScreenshot(adminPage, testInfo, "admin-reports-resolved");
      await context.close();
    });

    await test.step("the reporter sees it resolved", async () => {
      await page.reload();
      await expect(page.getByRole("list", { name: "Your reports" }).getByRole("listitem").first()).toContainText("Resolved");
    });
  });
});
