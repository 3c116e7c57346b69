import { expect, expectRenderedScreenshot, test, waitForHydration } from "./support/fixtures";
import { confirmEmailWithMailbox, expectNoHorizontalScroll, newAccount, registerByApi, signInWithForm } from "./support/accounts";
import { mintTagsAsAdmin, samplePng } from "./support/tags";

test.describe("tags in the dashboard", () => {
  test("activate a tag, fill a pet profile with a photo, mark it lost, print the QR label", async ({ page, browser, request }, testInfo) => {
    test.setTimeout(180_000);

    const { codes, adminPage, csv } = await test.step("the admin mints a batch and downloads it as CSV", async () => mintTagsAsAdmin(browser, 3));
    expect(csv.split("\r\n")[0]).toBe('"id","code","encryptedId","scanUrl"');
    for (const code of codes) expect(csv).toContain(`"${code}"`);
    await expectRenderedScreenshot(adminPage, testInfo, "admin-minted");
    await adminPage.context().close();
    const [code, second, third] = codes as [string, string, string];

    const account = newAccount("tags");
    await registerByApi(request, account);
    await signInWithForm(page, account);

    await test.step("a non-admin does not find the admin area", async () => {
      await page.goto("/admin/tags");
      await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    });

    await test.step("activate one code: a wrong code is reported, the right one opens the new tag", async () => {
      await page.goto("/dashboard/tags");
      await expect(page.getByRole("heading", { level: 1, name: "Your tags" })).toBeVisible();
      await expect(page.getByText("You have no tags yet.")).toBeVisible();
      await page.getByRole("link", { name: "Activate a tag" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Activate a tag" })).toBeVisible();

      const form = page.getByRole("form", { name: "Activate one tag" });
      const submit = form.getByRole("button", { name: "Activate tag" });
      await waitForHydration(submit);
      await form.getByLabel("Tag code").fill("nope");
      await submit.click();
      await expect(form.getByLabel("Tag code")).toHaveAccessibleDescription(/10 letters and digits/);
      await expect(form.getByLabel("Tag code")).toBeFocused();
      await expectRenderedScreenshot(page, testInfo, "activate-wrong-code");

      // Lower case and without the dash: the code is read case- and hyphen-insensitively.
      await form.getByLabel("Tag code").fill(code.replace("-", "").toLowerCase());
      await form.getByLabel("What is it on?").selectOption("PET");
      await submit.click();
      await expect(page).toHaveURL(/\/dashboard\/tags\/[0-9a-f-]{36}\?notice=activated$/);
      await expect(page.getByRole("status").filter({ hasText: "The tag is yours." })).toBeVisible();
      await expect(page.getByRole("heading", { level: 1, name: "Unnamed tag" })).toBeVisible();
      await expect(page.locator("[data-status]").first()).toHaveAttribute("data-status", "PENDING_SETUP");
      await expect(page.getByText(code, { exact: false }).first()).toBeVisible();
    });
    const tagUrl = page.url().replace(/\?.*$/, "");

    await test.step("one details form, with the pet's details: the tag turns active", async () => {
      const details = page.getByRole("form", { name: "Details" });
      const save = details.getByRole("button", { name: "Save", exact: true });
      await waitForHydration(save);
      // A pet's name is the item's name: asked once.
      await expect(details.getByLabel("Item name")).toHaveCount(0);
      await details.getByLabel("Pet's name").fill("Rex");
      await details.getByLabel("Description").fill("Friendly brown dog with a red collar.");
      await details.getByLabel("Contact e-mail").fill("not an address");
      await save.click();
      await expect(details.getByLabel("Species")).toHaveAccessibleDescription(/Required/);
      await expect(details.getByLabel("Contact e-mail")).toHaveAccessibleDescription(/valid e-mail/);
      await expect(details.getByLabel("Species")).toBeFocused();
      // Nothing was half-saved: the name is still unset.
      await expect(page.getByRole("heading", { level: 1, name: "Unnamed tag" })).toBeVisible();
      await details.getByLabel("Contact e-mail").fill("");
      await details.getByLabel("Species").fill("Dog");
      await details.getByLabel("Breed").fill("Beagle");
      await details.getByLabel("Microchip number").fill("985112345678901");
      await save.click();
      await expect(details.getByRole("status").filter({ hasText: "The details are saved." })).toBeVisible();
      await expect(page.getByRole("heading", { level: 1, name: "Rex" })).toBeVisible();
      await expect(page.locator("[data-status]").first()).toHaveAttribute("data-status", "ACTIVE");
      await expect(details.getByLabel("Breed")).toHaveValue("Beagle");
      // Field by field, the form says whether finders see it; a pet tag does not offer the owner's medical information unless ticked.
      await expect(details.getByLabel("Breed")).toHaveAccessibleDescription(/Finders see this/);
      await expect(details.getByLabel("Distinctive marks")).toHaveAccessibleDescription(/Finders see this/);
      await expect(details.getByLabel("Microchip number")).toHaveAccessibleDescription(/Only you see this/);
      await expect(details.getByLabel(/Offer my emergency information/)).not.toBeChecked();
    });

    await test.step("upload a photo: a missing file is reported, a PNG is added as primary", async () => {
      const upload = page.getByRole("form", { name: "Add a photo" });
      const submit = upload.getByRole("button", { name: "Upload photo" });
      await submit.click();
      await expect(upload.getByLabel("Photo", { exact: true })).toHaveAccessibleDescription(/Choose a photo/);

      await upload.getByLabel("Photo", { exact: true }).setInputFiles({ name: "rex.png", mimeType: "image/png", buffer: await samplePng() });
      await submit.click();
      await expect(upload.getByRole("status").filter({ hasText: "The photo was added." })).toBeVisible();
      const photos = page.getByRole("list", { name: "Photos" }).getByRole("listitem");
      await expect(photos).toHaveCount(1);
      await expect(photos.first()).toContainText("Primary");
      const image = photos.first().getByRole("img");
      await expect(image).toHaveAttribute("alt", /Photo 1 of Rex \(primary\)/);
      await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);

      // A second photo, then chosen as the primary one.
      await upload.getByLabel("Photo", { exact: true }).setInputFiles({ name: "rex-2.png", mimeType: "image/png", buffer: await samplePng() });
      await submit.click();
      await expect(photos).toHaveCount(2);
      await expect(photos.nth(1)).not.toContainText("Primary");
      await photos.nth(1).getByRole("button", { name: /Make primary/ }).click();
      await expect(page.getByText("The primary photo was changed.")).toBeVisible();
      await expect(photos.nth(1)).toContainText("Primary");
      await expect(photos.nth(0).getByRole("button", { name: /Make primary/ })).toBeVisible();
    });

    await test.step("lost mode, one tap from the first screen of a phone, with the reward in the same form; one status control for the other moves", async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      const lostIt = page.getByText("I lost it", { exact: false });
      const box = await lostIt.boundingBox();
      expect(box && box.y + box.height).toBeLessThanOrEqual(844);
      // The one status control: LOST only through lost mode; the other moves folded under it.
      await expect(page.getByRole("radio")).toHaveCount(0);
      await page.getByText("Other status changes").click();
      await expect(page.getByRole("button", { name: "Switch the tag off" })).toBeVisible();
      await expect(page.getByRole("form", { name: "Report it stolen" }).getByRole("button", { name: "Report it stolen" })).toBeVisible();
      await page.getByText("Other status changes").click();

      await lostIt.click();
      const lost = page.getByRole("form", { name: "Turn on lost mode" });
      await waitForHydration(lost.getByRole("button", { name: "Turn on lost mode" }));
      await page.getByText("What finders see now").click();
      await expect(page.getByTestId("finder-preview")).toContainText("Rex");
      await lost.getByLabel("Message for finders").fill("Please call me, he is shy. Reward offered.");
      await lost.getByLabel("Amount").fill("25");
      await lost.getByLabel("Currency").selectOption("EUR");
      await lost.getByRole("button", { name: "Turn on lost mode" }).click();
      await expect(page).toHaveURL(/notice=lost-on-reward/);
      await expect(page.getByRole("status").filter({ hasText: "The tag is now lost, and the reward is offered" })).toBeVisible();
      await expect(page.locator("[data-status]").first()).toHaveAttribute("data-status", "LOST");
      await expect(page.locator("[data-status]").first()).toHaveText(/Lost/);
      const mode = page.getByRole("region", { name: "Lost mode is on" });
      await expect(mode.getByRole("form", { name: "Lost mode" }).getByLabel("Message for finders")).toHaveValue("Please call me, he is shy. Reward offered.");
      await expect(mode.getByTestId("reward-amount")).toHaveText("€25.00");
      // Push is off in this browser: lost mode offers it for this device.
      await expect(mode.getByTestId("push-offer").getByRole("button", { name: "Enable push on this device" })).toBeVisible();
      await mode.getByText("What finders see now").click();
      await expect(page.getByTestId("finder-preview")).toContainText("LOST: the owner is looking for it");
      await expect(page.getByRole("button", { name: "I've got it back" })).toBeVisible();
      await page.getByText("Other status changes").click();
      await expect(page.getByRole("button", { name: "Turn lost mode off" })).toBeVisible();
      await expect(page.getByRole("form", { name: "Report it stolen" })).toBeVisible();
      await page.getByText("Other status changes").click();
      await expectNoHorizontalScroll(page, 390);
      await expectRenderedScreenshot(page, testInfo, "tag-detail-lost-390");

      await page.setViewportSize({ width: 1280, height: 800 });
      await page.reload();
      await expect(page.getByRole("heading", { level: 1, name: "Rex" })).toBeVisible();
      await expectRenderedScreenshot(page, testInfo, "tag-detail-lost-1280");
      await page.setViewportSize({ width: 1280, height: 720 });
    });

    await test.step("print the QR label", async () => {
      await page.getByText(/^More: /).click();
      await page.getByRole("link", { name: "Print the QR label" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "QR label" })).toBeVisible();
      const label = page.getByRole("region", { name: "Label for Rex" });
      await expect(label.getByRole("img", { name: `QR code for the tag ${code}` }).locator("svg")).toBeVisible();
      await expect(label.getByTestId("tag-code")).toHaveText(code);
      await expect(label).toContainText("Rex");
      const qrBox = await label.getByTestId("tag-qr").boundingBox();
      expect(qrBox?.width ?? 0).toBeGreaterThan(150);
      await waitForHydration(page.getByRole("button", { name: "Print" }));

      // Roughly a label-sized page: on paper only the label shows, on white.
      await page.setViewportSize({ width: 420, height: 520 });
      await page.emulateMedia({ media: "print" });
      await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
      await expect(page.locator("body > header")).toBeHidden();
      await expect(page.getByRole("navigation", { name: "Dashboard" })).toBeHidden();
      await expect(label.getByTestId("tag-code")).toBeVisible();
      await expectRenderedScreenshot(page, testInfo, "tag-label-print");
      await page.emulateMedia({ media: "screen" });
      await page.setViewportSize({ width: 1280, height: 720 });
    });

    await test.step("insurance details and a transfer the recipient declines", async () => {
      await page.goto(tagUrl);
      await page.getByText(/^More: /).click();
      const insurance = page.getByRole("form", { name: "Insurance" });
      const saveInsurance = insurance.getByRole("button", { name: "Save insurance" });
      await waitForHydration(saveInsurance);
      await insurance.getByLabel("Amount covered").fill("lots");
      await saveInsurance.click();
      await expect(insurance.getByLabel("Insurer", { exact: true })).toHaveAccessibleDescription(/Required/);
      await expect(insurance.getByLabel("Amount covered")).toHaveAccessibleDescription(/An amount like/);
      await insurance.getByLabel("Insurer", { exact: true }).fill("Paws Mutual");
      await insurance.getByLabel("Policy number").fill("PM-2231-77");
      await insurance.getByLabel("Amount covered").fill("2500.50");
      await insurance.getByLabel("Currency").fill("eur");
      await saveInsurance.click();
      await expect(insurance.getByRole("status").filter({ hasText: "The insurance details are saved." })).toBeVisible();
      await page.reload();
      await page.getByText(/^More: /).click();
      await expect(page.getByRole("form", { name: "Insurance" }).getByLabel("Currency")).toHaveValue("EUR");

      // A request context of its own: the shared one carries the first account's cookie.
      const recipient = newAccount("tags-recipient");
      const signUp = await browser.newContext();
      await registerByApi(signUp.request, recipient);
      await signUp.close();
      const transfer = page.getByRole("form", { name: "Transfer the tag" });
      await waitForHydration(transfer.getByRole("button", { name: "Send transfer" }));
      await transfer.getByLabel("New owner's e-mail address").fill(recipient.email);
      await transfer.getByRole("button", { name: "Send transfer" }).click();
      await expect(page.getByRole("status").filter({ hasText: "The transfer was sent." })).toBeVisible();
      await expect(page.getByRole("region", { name: "Transfer to someone else" })).toContainText(recipient.email);

      const context = await browser.newContext();
      const recipientPage = await context.newPage();
      await signInWithForm(recipientPage, recipient);
      await recipientPage.goto("/dashboard/tags/transfers");
      // Anyone could register the address unconfirmed: offers to it show only once it is confirmed.
      const incoming = recipientPage.getByRole("region", { name: "Offered to you" });
      await expect(incoming).toContainText("Confirm your e-mail address to see tags offered to it");
      await expect(recipientPage.getByRole("list", { name: "Incoming transfers" })).toHaveCount(0);
      await expectRenderedScreenshot(recipientPage, testInfo, "transfers-unconfirmed");

      await confirmEmailWithMailbox(recipientPage, recipient);
      await recipientPage.goto("/dashboard/tags/transfers");
      const offers = recipientPage.getByRole("list", { name: "Incoming transfers" }).getByRole("listitem");
      await expect(offers).toHaveCount(1);
      await expect(offers.first()).toContainText("Rex");
      await offers.first().getByRole("button", { name: "Decline Rex" }).click();
      await expect(recipientPage.getByRole("status").filter({ hasText: "The transfer was declined." })).toBeVisible();
      await expect(offers.first()).toContainText("Declined");
      await expectRenderedScreenshot(recipientPage, testInfo, "transfers-declined");
      await context.close();

      await page.goto("/dashboard/tags/transfers");
      await expect(page.getByRole("list", { name: "Outgoing transfers" })).toContainText("Declined");
    });

    await test.step("activate several codes at once; the list filters by status", async () => {
      await page.goto("/dashboard/tags/activate");
      const bulk = page.getByRole("form", { name: "Activate several tags" });
      await waitForHydration(bulk.getByRole("button", { name: "Activate all" }));
      await bulk.getByLabel("Tag codes").fill(`${second}\n${third.toLowerCase()}\n${code}`);
      await bulk.getByRole("button", { name: "Activate all" }).click();
      await expect(bulk.getByRole("alert").filter({ hasText: "2 tags were activated. One code could not be activated; it is left in the box." })).toBeVisible();
      await expect(bulk.getByLabel("Tag codes")).toHaveAccessibleDescription(/already activated/);
      await expect(bulk.getByLabel("Tag codes")).toHaveValue(code);
      await expectRenderedScreenshot(page, testInfo, "activate-several-result");

      await page.goto("/dashboard/tags");
      const rows = page.getByRole("list", { name: "Tags" }).getByRole("listitem");
      await expect(rows).toHaveCount(3);
      await page.getByLabel("Status").selectOption("LOST");
      await page.getByRole("button", { name: "Filter" }).click();
      await expect(page).toHaveURL(/status=LOST/);
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText("Rex");
      await expect(rows.first().locator("[data-status]")).toHaveAttribute("data-status", "LOST");
      await page.getByRole("link", { name: "Clear" }).click();
      await expect(rows).toHaveCount(3);
      await expect(page.getByLabel("Status")).toHaveValue("");
      // The lost one: its photo as a thumbnail and its quick actions; the ones still setting up have neither.
      const rex = rows.filter({ hasText: "Rex" });
      await expect(rex.locator("img")).toHaveAttribute("src", /^\/api\/photos\//);
      await expect(rex).toContainText("Never scanned");
      await expect(rex.getByRole("link", { name: "Poster for Rex" })).toBeVisible();
      await expect(rex.getByRole("link", { name: "Print label for Rex" })).toBeVisible();
      await expect(rows.filter({ hasText: second }).getByRole("link", { name: /^I lost it/ })).toHaveCount(0);
      await page.setViewportSize({ width: 1280, height: 800 });
      await expectRenderedScreenshot(page, testInfo, "tag-list-1280");
      await rex.getByRole("link", { name: "Lost mode for Rex" }).click();
      await expect(page).toHaveURL(/#lost-mode$/);
      await expect(page.getByRole("region", { name: "Lost mode is on" })).toBeVisible();

      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto("/dashboard/tags");
      await expectNoHorizontalScroll(page, 390);
      await expectRenderedScreenshot(page, testInfo, "tag-list-390");
      await page.setViewportSize({ width: 1280, height: 720 });
    });

    await test.step("the overview sums the tags up by status and points at the lost one", async () => {
      await page.goto("/dashboard");
      const summary = page.getByRole("region", { name: "Your tags" });
      const byStatus = summary.getByRole("list", { name: "Tags by status" });
      await expect(byStatus.getByRole("link")).toHaveCount(2);
      await expect(byStatus.getByRole("link", { name: "1 Lost" })).toHaveAttribute("href", "/dashboard/tags?status=LOST");
      await expect(byStatus.getByRole("link", { name: /^2 (Setting up|Active)$/ })).toBeVisible();
      await expect(summary.getByRole("list", { name: "Needs your attention" })).toContainText("1 tag is marked lost or stolen");
      await byStatus.getByRole("link", { name: "1 Lost" }).click();
      await expect(page).toHaveURL(/\/dashboard\/tags\?status=LOST$/);
      await expect(page.getByRole("list", { name: "Tags" }).getByRole("listitem")).toHaveCount(1);
      await page.goto("/dashboard");
      const missing = page.getByRole("region", { name: "Missing right now" });
      await expect(missing.getByRole("listitem")).toHaveCount(1);
      await expect(missing).toContainText("Rex");
      await missing.getByRole("link", { name: "Open lost mode for Rex" }).click();
      await expect(page).toHaveURL(/\/dashboard\/tags\/[0-9a-f-]{36}#lost-mode$/);
      await expect(page.getByRole("region", { name: "Lost mode is on" })).toBeVisible();
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto("/dashboard");
      await expectRenderedScreenshot(page, testInfo, "dashboard-overview-1280");
      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      await expectNoHorizontalScroll(page, 390);
      await expectRenderedScreenshot(page, testInfo, "dashboard-overview-390");
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.goto("/dashboard/tags");
    });

    await test.step("release a tag after confirming", async () => {
      const rows = page.getByRole("list", { name: "Tags" }).getByRole("listitem");
      await rows.filter({ hasText: second }).getByRole("link").first().click();
      await page.getByText(/^More: /).click();
      const release = page.getByRole("form", { name: "Release this tag" });
      const submit = release.getByRole("button", { name: "Release tag" });
      await waitForHydration(submit);
      await submit.click();
      await expect(release.getByRole("checkbox")).toHaveAccessibleDescription(/Tick the box/);
      await release.getByRole("checkbox").check();
      await submit.click();
      await expect(page).toHaveURL(/\/dashboard\/tags\?notice=released$/);
      await expect(page.getByRole("status").filter({ hasText: "The tag was released." })).toBeVisible();
      await expect(rows).toHaveCount(2);
      // Another owner's (or a released) tag reads as missing.
      await page.goto(tagUrl.replace(/[0-9a-f]{12}$/, "000000000000"));
      await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    });
  });
});
