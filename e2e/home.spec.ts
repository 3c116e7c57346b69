import { expect, expectRenderedScreenshot, test, waitForHydration } from "./support/fixtures";

const navLabels = ["Home", "Shop", "Found a tag?", "Blog", "API docs", "Sign in"];

function nonceOf(policy: string | undefined): string {
  const match = policy?.match(/'nonce-([^']+)'/);
  if (!match?.[1]) throw new Error(`no nonce in Content-Security-Policy: ${policy}`);
  return match[1];
}

test.describe("home page", () => {
  test("explains the service, with navigation and a working skip link", async ({ page }, testInfo) => {
    await page.goto("/");
    await expect(page).toHaveTitle(/Tag Service/);
    await expect(page.getByRole("heading", { level: 1, name: "Bring lost things home" })).toBeVisible();

    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link")).toHaveText(navLabels);
    await expect(nav.getByRole("link", { name: "Home" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("button", { name: "Menu" })).toBeHidden();

    for (const heading of ["How it works", "For everything you carry", "Emergency information for first responders", "Private by design"]) {
      await expect(page.getByRole("heading", { level: 2, name: heading })).toBeVisible();
    }
    for (const item of ["Pets", "Bags and luggage", "Bikes", "Cars and keys", "Phones and laptops"]) {
      await expect(page.getByRole("heading", { level: 3, name: item })).toBeVisible();
    }
    await expect(page.getByRole("link", { name: "Get your tags" })).toHaveAttribute("href", "/shop");
    await expect(page.getByRole("link", { name: "Shop tags" }).first()).toHaveAttribute("href", "/shop");
    await expect(page.getByRole("link", { name: "Create a free account" }).first()).toHaveAttribute("href", "/register");
    await expect(page.getByRole("link", { name: "Found a tag? Type its code" }).first()).toHaveAttribute("href", "/found");
    await expect(page.getByRole("contentinfo")).toBeVisible();

    // The first Tab reaches the skip link, which becomes visible and moves focus to the content.
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press("Enter");
    await expect(page.locator("main#main")).toBeFocused();

    await expectRenderedScreenshot(page, testInfo, "home-desktop");
  });

  test.describe("on a phone", () => {
    test.use({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });

    test("the menu opens, closes and navigates with the keyboard alone", async ({ page }, testInfo) => {
      await page.goto("/");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      const menuButton = page.getByRole("button", { name: "Menu" });
      await waitForHydration(menuButton);
      // Nothing is wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

      await page.keyboard.press("Tab");
      await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
      await page.keyboard.press("Tab");
      await expect(page.getByRole("link", { name: "Tag Service home" })).toBeFocused();
      await page.keyboard.press("Tab");
      await expect(page.getByRole("link", { name: "Cart, empty" })).toBeFocused();
      await page.keyboard.press("Tab");
      await expect(menuButton).toBeFocused();
      await expect(menuButton).toHaveAttribute("aria-expanded", "false");
      await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);

      await page.keyboard.press("Enter");
      await expect(menuButton).toHaveAttribute("aria-expanded", "true");
      const menu = page.getByRole("navigation", { name: "Main" });
      await expect(menu.getByRole("link")).toHaveText(navLabels);
      await expectRenderedScreenshot(page, testInfo, "home-phone-menu-open", { fullPage: false });

      // Tab moves into the menu; Escape closes it and gives focus back to the button.
      await page.keyboard.press("Tab");
      await expect(menu.getByRole("link", { name: "Home" })).toBeFocused();
      await page.keyboard.press("Escape");
      await expect(menuButton).toHaveAttribute("aria-expanded", "false");
      await expect(menuButton).toBeFocused();

      // Space opens it too; choosing a link navigates and closes the menu.
      await page.keyboard.press("Space");
      await expect(menuButton).toHaveAttribute("aria-expanded", "true");
      for (let i = 0; i < navLabels.indexOf("API docs") + 1; i++) await page.keyboard.press("Tab");
      await expect(menu.getByRole("link", { name: "API docs" })).toBeFocused();
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(/\/docs$/);
      await expect(page.getByRole("heading", { level: 1, name: "API documentation" })).toBeVisible();
      await expect(menuButton).toHaveAttribute("aria-expanded", "false");
      await expect(page.locator(".swagger-ui .opblock").first()).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await expectRenderedScreenshot(page, testInfo, "docs-phone", { fullPage: false, accessibilityExclude: [".swagger-ui"] });
    });

    test("the home page renders at 375 px", async ({ page }, testInfo) => {
      await page.goto("/");
      await expect(page.getByRole("heading", { level: 1, name: "Bring lost things home" })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await expectRenderedScreenshot(page, testInfo, "home-phone");
    });
  });
});

test("/docs renders the OpenAPI document with Swagger UI from our own assets", async ({ page, request }, testInfo) => {
  const specResponse = await request.get("/api/v1/openapi.json");
  expect(specResponse.status()).toBe(200);
  const spec = (await specResponse.json()) as { info: { title: string }; paths: Record<string, Record<string, unknown>> };
  const firstPath = Object.keys(spec.paths)[0];
  expect(firstPath, "the OpenAPI document has paths").toBeTruthy();

  const foreignRequests: string[] = [];
  page.on("request", (req) => {
    if (!req.url().startsWith(testInfo.project.use.baseURL ?? "") && !req.url().startsWith("data:")) foreignRequests.push(req.url());
  });

  await page.goto("/docs");
  await expect(page.getByRole("heading", { level: 1, name: "API documentation" })).toBeVisible();
  await expect(page.locator(".swagger-ui .info .title")).toContainText(spec.info.title);
  const operations = page.locator(".swagger-ui .opblock");
  await expect(operations.first()).toBeVisible();
  expect(await operations.count()).toBeGreaterThan(0);
  await expect(page.locator(".swagger-ui .opblock-summary-path").filter({ hasText: firstPath! }).first()).toBeVisible();
  expect(foreignRequests, "no request leaves the app's origin").toEqual([]);

  // Swagger UI's own markup fails axe (its colours, nested controls, an unlabelled select); our page around it must not.
  await expectRenderedScreenshot(page, testInfo, "docs-desktop", { fullPage: false, accessibilityExclude: [".swagger-ui"] });
  await operations.first().scrollIntoViewIfNeeded();
  await expectRenderedScreenshot(page, testInfo, "docs-desktop-operations", { fullPage: false, accessibilityExclude: [".swagger-ui"] });
});

test("an unknown page answers 404 with the not-found page", async ({ page }, testInfo) => {
  const response = await page.goto("/this-page-does-not-exist");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to the home page" })).toHaveAttribute("href", "/");
  await expectRenderedScreenshot(page, testInfo, "not-found", { fullPage: false });
});

test.describe("security headers", () => {
  test("pages get a nonce-based CSP that matches every script, and the plain headers", async ({ request }) => {
    const response = await request.get("/");
    expect(response.status()).toBe(200);
    const headers = response.headers();

    const policy = headers["content-security-policy"];
    expect(policy).toBeDefined();
    const nonce = nonceOf(policy);
    expect(policy).toContain(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("default-src 'self'");
    expect(policy).not.toContain("unsafe-eval");
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);

    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["permissions-policy"]).toContain("camera=()");
    expect(headers["strict-transport-security"]).toMatch(/max-age=\d+/);
    expect(headers["x-powered-by"]).toBeUndefined();

    // Every script in the document carries this response's nonce.
    const html = await response.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);

    // A fresh nonce per response.
    const again = await request.get("/");
    expect(nonceOf(again.headers()["content-security-policy"])).not.toBe(nonce);
  });

  test("API responses get the plain headers and a static policy, without the page machinery", async ({ request }) => {
    const response = await request.get("/api/health");
    const headers = response.headers();
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["content-security-policy"]).toContain("default-src 'none'");
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["content-security-policy"]).not.toContain("nonce-");
    expect(headers["x-powered-by"]).toBeUndefined();
  });

  test("Swagger UI assets: allow-listed files only, cached for a year", async ({ request }) => {
    const html = await (await request.get("/docs")).text();
    const version = html.match(/\/docs\/assets\/([^/"]+)\/swagger-ui\.css/)?.[1];
    expect(version, "the docs page links its stylesheet").toBeTruthy();

    const css = await request.get(`/docs/assets/${version}/swagger-ui.css`);
    expect(css.status()).toBe(200);
    expect(css.headers()["content-type"]).toContain("text/css");
    expect(css.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(css.headers()["x-content-type-options"]).toBe("nosniff");

    const js = await request.get(`/docs/assets/${version}/swagger-ui-bundle.js`, { headers: { "if-none-match": css.headers()["etag"] ?? "" } });
    expect(js.status()).toBe(200);
    expect(js.headers()["content-type"]).toContain("text/javascript");

    const etag = js.headers()["etag"];
    expect(etag).toBeTruthy();
    const revalidated = await request.get(`/docs/assets/${version}/swagger-ui-bundle.js`, { headers: { "if-none-match": etag! } });
    expect(revalidated.status()).toBe(304);

    for (const path of [
      `/docs/assets/${version}/package.json`,
      `/docs/assets/${version}/index.html`,
      `/docs/assets/${version}/..%2Fpackage.json`,
      `/docs/assets/${version}/swagger-ui-standalone-preset.js`,
      "/docs/assets/0.0.0/swagger-ui.css",
    ]) {
      expect((await request.get(path)).status(), path).toBe(404);
    }
  });
});
