import { expect, expectRenderedScreenshot, test, waitForHydration } from "./support/fixtures";
import { expectNoHorizontalScroll, signInWithForm } from "./support/accounts";
import { apiData, bearerApi, finderContext, lostTag, PHONE } from "./support/finder";

test.describe("the finder's side", () => {
  test("scan → message → the owner's bell rings live → the owner replies in the dashboard → the finder reads the reply", async ({ browser, page, playwright }, testInfo) => {
    test.setTimeout(150_000);
    const tag = await lostTag(playwright);
    const bell = page.getByRole("link", { name: /^Notifications, \d+ unread$/ });
    await test.step("the owner has the dashboard open", async () => {
      await signInWithForm(page, tag.owner);
      const streamOpened = page.waitForResponse((response) => response.url().endsWith("/api/v1/notifications/stream") && response.status() === 200);
      await page.goto("/dashboard/messages");
      await streamOpened;
      await waitForHydration(bell);
      await expect(bell).toHaveAccessibleName("Notifications, 0 unread");
    });

    const context = await finderContext(browser);
    const finder = await context.newPage();
    try {
      await test.step("the scan page: LOST banner, who it belongs to, the note, the message form, safety advice", async () => {
        await finder.goto(`/t/${tag.encryptedId}`);
        await expect(finder.locator("html")).toHaveAttribute("lang", "en");
        await expect(finder.getByText("LOST: the owner is looking for it")).toBeVisible();
        await expect(finder.getByRole("heading", { level: 1, name: "Rex's collar" })).toBeVisible();
        await expect(finder.getByText("Belongs to Maria")).toBeVisible();
        await expect(finder.getByText("Lost near the park. Please message me!")).toBeVisible();
        await expect(finder.getByRole("heading", { name: "Stay safe" })).toBeVisible();
        await expect(finder.getByRole("textbox", { name: "Your message" })).toBeVisible();
        const html = await finder.content();
        expect(html).not.toContain(tag.owner.email);
        expect(html).not.toContain("600111222");
        expect(html).not.toContain("600 333 444");
        await expectNoHorizontalScroll(finder, PHONE.width);
        await expectRenderedScreenshot(finder, testInfo, "finder-scan-390");
      });

      await test.step("the real scan rings the owner's bell without a reload", async () => {
        await expect(bell).toHaveAccessibleName("Notifications, 1 unread");
      });

      await test.step("a message with nothing in it is refused beside the field", async () => {
        // A plain form post (the page has no framework runtime): the page comes back with the message.
        const send = finder.getByRole("button", { name: "Send message" });
        await send.click();
        await expect(finder.getByRole("textbox", { name: "Your message" })).toHaveAccessibleDescription(/Write a message/);
        await expect(finder.getByRole("textbox", { name: "Your message" })).toBeFocused();
      });

      await test.step("sending lands on the conversation, with the link to keep", async () => {
        await finder.getByRole("textbox", { name: "Your message" }).fill("I found Rex at the bakery on Main Street. He is safe with me.");
        await finder.getByRole("textbox", { name: /Your name/ }).fill("Sam");
        await finder.getByRole("textbox", { name: /Your e-mail/ }).fill(`finder-${Date.now()}@example.com`);
        await finder.getByRole("button", { name: "Send message" }).click();
        await expect(finder).toHaveURL(/\/thread\/[A-Za-z0-9_-]{43}\?sent=1&email=1$/);
        await expect(finder.getByRole("heading", { level: 1, name: "Message sent. The owner has been told." })).toBeVisible();
        const link = await finder.getByTestId("thread-link").textContent();
        expect(link).toMatch(/\/thread\/[A-Za-z0-9_-]{43}$/);
        await expect(finder.getByRole("list", { name: "Your conversation with the owner" })).toContainText("I found Rex at the bakery");
        await expect(finder.getByRole("button", { name: "E-mail me this link" })).toBeVisible();
        expect(await finder.content()).not.toContain(tag.owner.email);
        await expectNoHorizontalScroll(finder, PHONE.width);
        await expectRenderedScreenshot(finder, testInfo, "finder-thread-sent-390");
      });

      await test.step("the owner's bell rings and the inbox shows the conversation; the owner replies", async () => {
        await expect(bell).toHaveAccessibleName("Notifications, 2 unread");
        const row = page.getByRole("list", { name: "Conversations, most recent first" }).getByRole("listitem").first();
        await expect(row).toHaveAttribute("data-unread", "1");
        await row.getByRole("link", { name: /Sam/ }).click();
        const form = page.getByRole("form", { name: "Reply to the finder" });
        const send = form.getByRole("button", { name: "Send reply" });
        await waitForHydration(send);
        await form.getByLabel("Your reply").fill("Thank you so much! I can come to the bakery at 6.");
        await send.click();
        await expect(page.getByRole("status").filter({ hasText: "Your reply was sent." })).toBeVisible();
      });

      await test.step("the owner can report the finder's message from the conversation", async () => {
        await page.getByRole("link", { name: "Report this message from Sam" }).click();
        const form = page.getByRole("form", { name: "Report a problem" });
        await expect(form).toContainText("You are reporting a message from one of your conversations.");
        const send = form.getByRole("button", { name: "Send report" });
        await waitForHydration(send);
        await form.getByLabel("What kind of problem").selectOption("SCAM");
        await form.getByLabel("What happened").fill("Testing the report link from a conversation.");
        await send.click();
        await expect(form.getByRole("status").filter({ hasText: "We review every report within 24 hours." })).toBeVisible();
        await expect(page.getByRole("list", { name: "Your reports" }).getByRole("listitem")).toHaveCount(1);
      });

      await test.step("the finder sees the reply on the conversation page", async () => {
        await finder.getByRole("link", { name: "Check for replies" }).click();
        const conversation = finder.getByRole("list", { name: "Your conversation with the owner" });
        await expect(conversation).toContainText("Thank you so much! I can come to the bakery at 6.");
        await expect(conversation.getByText(/^Owner ·/)).toBeVisible();
        await expectRenderedScreenshot(finder, testInfo, "finder-thread-reply-390");
      });
    } finally {
      await context.close();
    }
  });

  test("the same contact with JavaScript disabled", async ({ browser, playwright }, testInfo) => {
    const tag = await lostTag(playwright);
    const context = await finderContext(browser, { javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`/t/${tag.encryptedId}`);
      await expect(page.getByText("Sharing your location needs JavaScript. Describe the place in your message instead.")).toBeVisible();
      await page.getByRole("textbox", { name: "Your message" }).fill("Found it by the river, no JavaScript here.");
      await page.getByRole("button", { name: "Send message" }).click();
      await expect(page).toHaveURL(/\/thread\/[A-Za-z0-9_-]{43}\?sent=1$/);
      await expect(page.getByRole("list", { name: "Your conversation with the owner" })).toContainText("Found it by the river");
      await page.getByRole("textbox", { name: "Your reply" }).fill("I can meet at the station at 5.");
      await page.getByRole("button", { name: "Send reply" }).click();
      await expect(page.getByRole("list", { name: "Your conversation with the owner" })).toContainText("I can meet at the station at 5.");
      // (No rendered-screenshot check here: it and axe run scripts in the page, which this context forbids;
      // the same pages are checked with JavaScript on above.)
      await testInfo.attach("finder-thread-nojs-390", { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
    } finally {
      await context.close();
    }
  });

  test("the scan page runs no framework: location sharing is its own small script, allowed by the page's policy, and the first load is a few kilobytes", async ({ browser, playwright }, testInfo) => {
    const tag = await lostTag(playwright);
    const context = await finderContext(browser, { geolocation: { latitude: 51.5072, longitude: -0.1276, accuracy: 20 } });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content.Security.Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    const scripts: string[] = [];
    let transferred = 0;
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(request.url());
    });
    page.on("requestfinished", async (request) => {
      transferred += (await request.sizes()).responseBodySize;
    });
    try {
      const response = await page.goto(`/t/${tag.encryptedId}`);
      expect(response!.headers()["content-encoding"]).toMatch(/^(br|gzip)$/);
      await expect(page.getByRole("heading", { level: 1, name: "Rex's collar" })).toBeVisible();
      // The script replaced the "needs JavaScript" words with the button.
      await expect(page.getByText("Sharing your location needs JavaScript.")).toBeHidden();
      const share = page.getByRole("button", { name: "Share my location" });
      await share.click();
      await expect(page.getByRole("status").filter({ hasText: "Location sent to the owner." })).toBeVisible();
      await expect(share).toBeDisabled();
      expect(scripts, "no script file is loaded").toEqual([]);
      expect(transferred, "bytes transferred for the page, its styles and icon").toBeLessThan(30_000);
      expect(violations).toEqual([]);
      await expectRenderedScreenshot(page, testInfo, "finder-scan-shared-location-390");
      // The owner sees the place in the tag's scans.
      const auth = { Authorization: `Bearer ${tag.token}` };
      const scans = await bearerApi(playwright, async (api) => apiData<{ locationShared: boolean; latitude: number | null }[]>(await api.get(`/api/v1/tags/${tag.tagId}/scans`, { headers: auth }), 200));
      expect(scans.filter((scan) => scan.locationShared).map((scan) => Math.round(scan.latitude! * 10) / 10)).toEqual([51.5]);
    } finally {
      await context.close();
    }
  });

  test("in Spanish with Accept-Language: es; a scam-like reply shows the warning", async ({ browser, playwright }, testInfo) => {
    const tag = await lostTag(playwright);
    const context = await finderContext(browser, { locale: "es-ES" });
    const page = await context.newPage();
    try {
      await page.goto(`/t/${tag.encryptedId}`);
      await expect(page.locator("html")).toHaveAttribute("lang", "es");
      await expect(page.getByText("PERDIDO: el propietario lo está buscando")).toBeVisible();
      await expect(page.getByRole("heading", { name: "Escribe al propietario" })).toBeVisible();
      await expect(page.getByText("Pertenece a Maria")).toBeVisible();
      // The owner's own words stay as written.
      await expect(page.getByText("Lost near the park. Please message me!")).toBeVisible();
      await expectRenderedScreenshot(page, testInfo, "finder-scan-es-390");
      await page.getByRole("textbox", { name: "Tu mensaje" }).fill("Lo tengo yo. Envíame una tarjeta regalo de 50 euros y te lo devuelvo.");
      await page.getByRole("button", { name: "Enviar mensaje" }).click();
      await expect(page).toHaveURL(/\/thread\//);
      await expect(page.getByRole("note").filter({ hasText: "Ten cuidado" })).toBeVisible();
      await expectRenderedScreenshot(page, testInfo, "finder-thread-es-scam-390");
    } finally {
      await context.close();
    }
  });

  test("the emergency page: medical facts first in large type, tap-to-call contacts; every read reaches the owner", async ({ browser, playwright }, testInfo) => {
    const tag = await lostTag(playwright);
    const auth = { Authorization: `Bearer ${tag.token}` };
    await bearerApi(playwright, async (api) => {
      await apiData(await api.put("/api/v1/emergency", { data: { bloodType: "AB-", allergies: ["Penicillin", "Peanuts"], medications: ["Insulin"], organDonor: true }, headers: auth }), 200);
      await apiData(await api.post("/api/v1/emergency/contacts", { data: { name: "Luis", relationship: "Brother", phone: "+34 611 222 333", email: "luis@example.org" }, headers: auth }), 201);
    });
    const context = await finderContext(browser);
    const page = await context.newPage();
    try {
      await page.goto(`/t/${tag.encryptedId}`);
      await page.getByRole("link", { name: /Medical emergency information/ }).click();
      await expect(page).toHaveURL(new RegExp(`/t/${tag.encryptedId}/emergency$`));
      await expect(page.getByRole("heading", { level: 1, name: "Emergency medical information" })).toBeVisible();
      await expect(page.getByText("AB-", { exact: true })).toBeVisible();
      await expect(page.getByText("Penicillin, Peanuts")).toBeVisible();
      const call = page.getByRole("link", { name: /Call Luis/ });
      await expect(call).toHaveAttribute("href", "tel:+34611222333");
      expect(await page.content()).not.toContain("luis@example.org");
      expect(await page.content()).not.toContain(tag.owner.email);
      await expectNoHorizontalScroll(page, PHONE.width);
      await expectRenderedScreenshot(page, testInfo, "finder-emergency-390");
      const log = await bearerApi(playwright, async (api) => apiData<{ tagId: string }[]>(await api.get("/api/v1/emergency/accesses", { headers: auth }), 200));
      expect(log.map((access) => access.tagId)).toEqual([tag.tagId]);
    } finally {
      await context.close();
    }
  });

  test("a pet's page at 390×844: what identifies it, \"Message the owner\" above the fold and before the emergency button, which is off for a pet until the owner turns it on", async ({ browser, playwright }, testInfo) => {
    const tag = await lostTag(playwright);
    const auth = { Authorization: `Bearer ${tag.token}` };
    await bearerApi(playwright, async (api) => {
      const pet = { petName: "Rex", species: "Dog", breed: "Terrier", color: "Brown", size: "Small", distinctiveMarks: "White tip on the tail", microchip: "985112345678901", needsMedication: true, showNeedsMedication: true };
      await apiData(await api.put(`/api/v1/profiles/${tag.tagId}/pet`, { data: pet, headers: auth }), 200);
      await apiData(await api.put("/api/v1/emergency", { data: { bloodType: "AB-", conditions: ["Type 1 diabetes"] }, headers: auth }), 200);
    });
    const context = await finderContext(browser);
    const page = await context.newPage();
    try {
      await page.goto(`/t/${tag.encryptedId}`);
      const identifying = page.getByTestId("finder-identifying");
      for (const text of ["Dog", "Terrier", "Small", "White tip on the tail", "Needs medication"]) await expect(identifying).toContainText(text);
      expect(await page.content()).not.toContain("985112345678901");
      // A pet tag does not offer the owner's medical information unless the owner chose to.
      await expect(page.getByRole("link", { name: /Medical emergency information/ })).toHaveCount(0);

      await bearerApi(playwright, async (api) => apiData(await api.patch(`/api/v1/profiles/${tag.tagId}`, { data: { emergencyVisible: true }, headers: auth }), 200));
      await page.goto(`/t/${tag.encryptedId}`);
      const message = page.getByRole("link", { name: /Message the owner/ });
      const emergency = page.getByRole("link", { name: /Medical emergency information/ });
      await expect(message).toBeVisible();
      await expect(emergency).toBeVisible();
      const messageBox = (await message.boundingBox())!;
      const emergencyBox = (await emergency.boundingBox())!;
      expect(messageBox.y + messageBox.height, "Message the owner ends above the fold").toBeLessThanOrEqual(844);
      expect(messageBox.y, "Message the owner comes before the emergency button").toBeLessThan(emergencyBox.y);
      await expectNoHorizontalScroll(page, PHONE.width);
      await expectRenderedScreenshot(page, testInfo, "finder-pet-message-first-390", { fullPage: false });

      await message.click();
      await expect(page.getByRole("textbox", { name: "Your message" })).toBeInViewport();

      await emergency.click();
      await expect(page.getByTestId("emergency-whose")).toHaveText("Medical information for Maria, who carries this tag.");
    } finally {
      await context.close();
    }
  });

  test("/found: the printed code typed by hand, in any case and without the dash", async ({ browser, playwright }, testInfo) => {
    const tag = await lostTag(playwright);
    const context = await finderContext(browser);
    const page = await context.newPage();
    try {
      await page.goto("/found");
      await expect(page.getByRole("heading", { level: 1, name: "Type the tag's code" })).toBeVisible();
      await expectRenderedScreenshot(page, testInfo, "finder-found-390");
      const submit = page.getByRole("button", { name: "Find the owner" });
      await waitForHydration(submit);
      await page.getByRole("textbox", { name: "Tag code" }).fill("ZZZZZ-ZZZZZ");
      await submit.click();
      await expect(page.getByRole("textbox", { name: "Tag code" })).toHaveAccessibleDescription(/No tag has this code/);
      await page.getByRole("textbox", { name: "Tag code" }).fill(tag.code.replace("-", "").toLowerCase());
      await submit.click();
      await expect(page).toHaveURL(new RegExp(`/t/${tag.encryptedId}$`));
      await expect(page.getByRole("heading", { level: 1, name: "Rex's collar" })).toBeVisible();
    } finally {
      await context.close();
    }
  });

  test("a finder's page leaves the site's header and footer out, payload included; its home link opens the site with them", async ({ browser }) => {
    const context = await finderContext(browser);
    const page = await context.newPage();
    try {
      const response = await page.goto("/found");
      const body = await response!.text();
      await expect(page.getByRole("heading", { level: 1, name: "Type the tag's code" })).toBeVisible();
      // Not rendered at all: neither in the HTML nor in the data React would hydrate it from.
      for (const siteOnly of ["/careers", "newsletter-heading"]) expect(body).not.toContain(siteOnly);

      await page.getByRole("link", { name: "Tag Service home" }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole("link", { name: "Careers" })).toBeVisible();

      // Into a finder's page from the site by a client-side link, the site's header and footer are hidden.
      const footerLink = page.getByRole("link", { name: "Found a tag? Type its code" });
      await waitForHydration(footerLink);
      await footerLink.click();
      await expect(page.getByRole("heading", { level: 1, name: "Type the tag's code" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Careers" })).toHaveCount(0);
    } finally {
      await context.close();
    }
  });

  test("an unknown scan address says so, in the finder's language, with a 404", async ({ browser }, testInfo) => {
    const context = await finderContext(browser, { locale: "fr-FR" });
    const page = await context.newPage();
    try {
      const response = await page.goto("/t/not-a-real-tag-address");
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { name: "Étiquette introuvable" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Saisir le code" })).toHaveAttribute("href", "/found");
      await expectRenderedScreenshot(page, testInfo, "finder-not-found-fr-390");
      // Broken percent-encoding names nothing either: the not-found page, not a bare 500.
      for (const path of ["/t/%E0%A4%A", "/thread/%ZZ"]) {
        const broken = await page.goto(path);
        expect(broken?.status(), path).toBe(404);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      }
      // A well-formed but unknown conversation link, in the path or in the e-mailed query form, is a 404 too
      // (it used to be a 200 page that said "not found"), in the finder's language.
      for (const path of [`/thread/${"A".repeat(43)}`, "/thread/not-a-real-token", "/thread?token=nope"]) {
        const unknown = await page.goto(path);
        expect(unknown?.status(), path).toBe(404);
        await expect(page.getByRole("heading", { name: "Conversation introuvable" }), path).toBeVisible();
      }
    } finally {
      await context.close();
    }
  });

  test("the owner signed in sees their own tag page; it is not announced to them as a finder's scan", async ({ page, playwright }) => {
    const tag = await lostTag(playwright);
    await signInWithForm(page, tag.owner);
    await page.goto(`/t/${tag.encryptedId}`);
    await expect(page.getByRole("heading", { level: 1, name: "Rex's collar" })).toBeVisible();
    const auth = { Authorization: `Bearer ${tag.token}` };
    const scans = await bearerApi(playwright, async (api) => apiData<{ scanClass: string }[]>(await api.get(`/api/v1/tags/${tag.tagId}/scans`, { headers: auth }), 200));
    expect(scans.map((scan) => scan.scanClass)).toContain("OWNER");
    const notifications = await bearerApi(playwright, async (api) => apiData<{ type: string }[]>(await api.get("/api/v1/notifications", { headers: auth }), 200));
    expect(notifications.filter((notification) => notification.type === "TAG_SCANNED")).toEqual([]);
  });
});
