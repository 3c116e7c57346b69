import { expect, expectRenderedScreenshot, test } from "./support/fixtures";
import { e2eBaseUrl } from "./support/server-env";
import { apiData, bearerApi } from "./support/finder";
import { adminAccessToken, createProduct } from "./support/shop";

test.describe("privacy, robots and sitemap", () => {
  test("the privacy page says what is stored about owners and finders, on a phone too", async ({ page }, testInfo) => {
    await page.goto("/privacy");
    await expect(page).toHaveTitle(/Privacy/);
    await expect(page.getByRole("heading", { level: 1, name: "Privacy" })).toBeVisible();
    for (const heading of ["What we store about you as a tag owner", "What a finder's visit leaves behind", "What a tag's public page shows", "Cookies and browser storage"]) {
      await expect(page.getByRole("heading", { level: 2, name: heading })).toBeVisible();
    }
    await expect(page.getByText("The finder's IP address is never stored.", { exact: false })).toBeVisible();
    // The table of contents leads to each section.
    await page.getByRole("navigation", { name: "On this page" }).getByRole("link", { name: "What a finder's visit leaves behind" }).click();
    await expect(page).toHaveURL(/#finders$/);
    await expectRenderedScreenshot(page, testInfo, "privacy-desktop");

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/privacy");
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, "no sideways scrolling on a phone").toBeLessThanOrEqual(390);
    await expectRenderedScreenshot(page, testInfo, "privacy-phone");
  });

  test("robots.txt keeps crawlers out of private areas and names the sitemap, which lists the public pages", async ({ request, playwright }) => {
    const product = await createProduct(playwright, { name: `Sitemap tag ${Date.now()}`, price: 9 });
    const token = await adminAccessToken(playwright);
    const headers = { Authorization: `Bearer ${token}` };
    const [post, draft, position] = await bearerApi(playwright, async (api) => [
      await apiData<{ slug: string }>(await api.post("/api/v1/blog", { headers, data: { title: `Sitemap post ${Date.now()}`, excerpt: "In the sitemap.", content: "Listed.", published: true } }), 201),
      await apiData<{ slug: string }>(await api.post("/api/v1/blog", { headers, data: { title: `Sitemap draft ${Date.now()}`, excerpt: "Not listed.", content: "Hidden." } }), 201),
      await apiData<{ id: string }>(
        await api.post("/api/v1/careers", {
          headers,
          data: { title: "Sitemap engineer", department: "Engineering", location: "Remote", type: "FULL_TIME", description: "Listed.", requirements: [], benefits: [], applyUrl: "mailto:jobs@example.com" },
        }),
        201,
      ),
    ]);
    const robots = await request.get("/robots.txt");
    expect(robots.status()).toBe(200);
    const rules = await robots.text();
    for (const path of ["/dashboard", "/admin", "/api/"]) expect(rules).toContain(`Disallow: ${path}`);
    const sitemapLine = rules.split("\n").find((line) => line.startsWith("Sitemap:"));
    expect(sitemapLine).toBeTruthy();

    const sitemap = await request.get("/sitemap.xml");
    expect(sitemap.status()).toBe(200);
    expect(sitemap.headers()["content-type"]).toContain("xml");
    const xml = await sitemap.text();
    const locations = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!));
    const paths = locations.map((location) => location.pathname);
    for (const path of ["/", "/shop", "/privacy", "/found"]) expect(paths).toContain(path);
    expect(paths).toContain(`/shop/${product.slug}`);
    expect(paths).toContain(`/blog/${post.slug}`);
    expect(paths).toContain(`/careers/${position.id}`);
    expect(paths, "a draft is not listed").not.toContain(`/blog/${draft.slug}`);
    for (const path of ["/blog", "/careers", "/contact"]) expect(paths).toContain(path);
    expect(paths.some((path) => path.startsWith("/dashboard") || path.startsWith("/admin") || path.startsWith("/t/"))).toBe(false);
    // Every page the sitemap lists answers.
    for (const location of locations) {
      const response = await request.get(new URL(location.pathname, e2eBaseUrl).toString());
      expect(response.status(), location.toString()).toBe(200);
    }
  });
});
