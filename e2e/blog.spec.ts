import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, expectRenderedScreenshot, test, waitForHydration } from "./support/fixtures";
import { expectNoHorizontalScroll, signInWithForm } from "./support/accounts";
import { PHONE } from "./support/finder";
import { e2eAdmin, e2eBaseUrl } from "./support/server-env";

const DESKTOP = { width: 1280, height: 800 };

const runId = () => `${Date.now().toString(36)}${randomBytes(2).toString("hex")}`;

/** A post body with everything the renderer must show, and everything it must neutralise. */
const CONTENT = [
  "## Why it matters",
  "",
  "- **Bold** first point",
  "- Second point with [the API docs](/docs)",
  "",
  "[a trap](javascript:alert(1)) and [another](JaVaScRiPt:alert(2)) and [data](data:text/html,hi)",
  "",
  "<script>window.__pwned = true</script>",
  "",
  '<img src="x" onerror="window.__pwned = true">',
  "",
  "![A lost-mode drawing](/blog/lost-mode.svg)",
  "",
  "![insecure](http://images.example.com/x.png)",
].join("\n");

async function fillPostEditor(page: Page, fields: { title: string; excerpt: string; content: string; tags?: string; cover?: string; published: boolean }) {
  const form = page.getByRole("form", { name: "New post" });
  const create = form.getByRole("button", { name: "Create the post" });
  await waitForHydration(create);
  await form.getByLabel("Title").fill(fields.title);
  await form.getByLabel("Excerpt").fill(fields.excerpt);
  await form.getByLabel("Content").fill(fields.content);
  if (fields.cover) await form.getByLabel("Cover image").fill(fields.cover);
  if (fields.tags) await form.getByLabel("Tags").fill(fields.tags);
  const published = form.getByRole("checkbox", { name: /Published/ });
  if (fields.published) await published.check();
  else await published.uncheck();
  return { form, create };
}

/** An XML document parsed by the browser: the parser error, if any, and the items' titles. */
async function parseFeed(page: Page, xml: string) {
  return page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, "application/xml");
    return {
      error: doc.querySelector("parsererror")?.textContent ?? null,
      root: doc.documentElement.nodeName,
      titles: [...doc.querySelectorAll("item > title")].map((node) => node.textContent ?? ""),
      links: [...doc.querySelectorAll("item > link")].map((node) => node.textContent ?? ""),
    };
  }, xml);
}

test.describe("blog", () => {
  test("an admin writes a post with a live preview and publishes it; a visitor reads it, a draft stays hidden", async ({ page, browser }, testInfo) => {
    test.setTimeout(180_000);
    const id = runId();
    const title = `Lost mode, explained ${id}`;
    const draftTitle = `Draft about family sharing ${id}`;
    await page.setViewportSize(DESKTOP);
    await signInWithForm(page, e2eAdmin);

    let slug = "";
    await test.step("the admin writes and publishes a post, watching the preview", async () => {
      await page.goto("/admin/blog");
      await expect(page.getByRole("heading", { level: 1, name: "Blog posts" })).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Blog" })).toHaveAttribute("aria-current", "page");
      await page.getByRole("link", { name: "New post" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "New post" })).toBeVisible();
      const { form, create } = await fillPostEditor(page, { title, excerpt: "What changes when you mark a tag as lost.", content: CONTENT, tags: "lost mode, e2e", cover: "/blog/lost-mode.svg", published: true });

      const preview = page.getByTestId("post-preview");
      await expect(preview.getByRole("heading", { level: 2, name: "Why it matters" })).toBeVisible();
      await expect(preview.getByRole("link", { name: "the API docs" })).toHaveAttribute("href", "/docs");
      await expect(preview.getByRole("img", { name: "A lost-mode drawing" })).toHaveAttribute("src", "/blog/lost-mode.svg");
      await expect(preview.locator("script, [onerror], a[href^='javascript' i], a[href^='data' i], img[src^='http:']")).toHaveCount(0);
      // The preview follows the typing.
      await form.getByLabel("Content").press("End");
      await form.getByLabel("Content").pressSequentially("\n\n### Typed just now");
      await expect(preview.getByRole("heading", { level: 3, name: "Typed just now" })).toBeVisible();
      await expectRenderedScreenshot(page, testInfo, "admin-blog-editor");

      await create.click();
      await expect(page).toHaveURL(/\/admin\/blog\/[0-9a-f-]{36}\?notice=created$/);
      await expect(page.getByText("The post is created and published.")).toBeVisible();
      slug = await page.getByLabel("Slug").inputValue();
      expect(slug).toBe(`lost-mode-explained-${id}`);
    });

    await test.step("a second post is saved as a draft; a taken slug is refused beside its field", async () => {
      await page.goto("/admin/blog/new");
      const { form, create } = await fillPostEditor(page, { title: draftTitle, excerpt: "Not ready yet.", content: "## Soon\n\n- More to come", published: false });
      await form.getByLabel("Slug").fill(slug);
      await create.click();
      await expect(form.getByLabel("Slug")).toHaveAttribute("aria-invalid", "true");
      await expect(form.getByLabel("Slug")).toHaveAccessibleDescription(/Another post already has this slug\./);
      await expect(form.getByLabel("Title")).toHaveValue(draftTitle);
      await form.getByLabel("Slug").fill("");
      await create.click();
      await expect(page.getByText("The post is created as a draft.")).toBeVisible();
      await page.goto("/admin/blog");
      const row = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: draftTitle, exact: true }) });
      await expect(row.locator('[data-status="DRAFT"]')).toHaveText(/Draft$/);
      await expect(page.getByRole("listitem").filter({ has: page.getByRole("link", { name: title, exact: true }) }).locator('[data-status="PUBLISHED"]')).toHaveText(/Published$/);
      await expectRenderedScreenshot(page, testInfo, "admin-blog-list");
    });

    const visitor = await browser.newContext({ baseURL: e2eBaseUrl, viewport: DESKTOP });
    const anonymous = await visitor.newPage();
    try {
      await test.step("an anonymous visitor finds the post on /blog, but not the draft", async () => {
        await anonymous.goto("/blog");
        await expect(anonymous.getByRole("heading", { level: 1, name: "Blog" })).toBeVisible();
        await expect(anonymous.locator('link[rel="alternate"][type="application/rss+xml"]')).toHaveAttribute("href", /\/blog\/rss\.xml$/);
        await expect(anonymous.getByRole("link", { name: title, exact: true })).toBeVisible();
        await expect(anonymous.getByText(draftTitle)).toHaveCount(0);
        await expectRenderedScreenshot(anonymous, testInfo, "blog-list");
      });

      await test.step("the post page renders the Markdown safely, with article metadata", async () => {
        await anonymous.getByRole("link", { name: title, exact: true }).click();
        await expect(anonymous).toHaveURL(`${e2eBaseUrl}/blog/${slug}`);
        await expect(anonymous.getByRole("heading", { level: 1, name: title })).toBeVisible();
        const article = anonymous.getByRole("article");
        await expect(article.getByRole("heading", { level: 2, name: "Why it matters" })).toBeVisible();
        await expect(article.getByRole("heading", { level: 3, name: "Typed just now" })).toBeVisible();
        await expect(article.getByRole("list", { name: "Tags" }).getByRole("listitem")).toHaveText(["lost mode", "e2e"]);
        await expect(article.locator("script, [onerror], a[href^='javascript' i], a[href^='data' i], img[src^='http:']")).toHaveCount(0);
        // Raw HTML in the source is left out altogether.
        await expect(article).not.toContainText("__pwned");
        expect(await anonymous.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();
        await expect(article.getByRole("img", { name: "A lost-mode drawing" })).toBeVisible();

        const meta = (property: string) => anonymous.locator(`meta[property="${property}"]`);
        await expect(meta("og:type")).toHaveAttribute("content", "article");
        await expect(meta("article:published_time")).toHaveAttribute("content", /^\d{4}-\d{2}-\d{2}T/);
        await expect(meta("article:author")).toHaveAttribute("content", "Platform Admin");
        await expect(meta("article:tag")).toHaveCount(2);
        await expect(anonymous.locator('meta[name="description"]')).toHaveAttribute("content", "What changes when you mark a tag as lost.");
        await expect(anonymous.locator('link[rel="canonical"]')).toHaveAttribute("href", `${e2eBaseUrl}/blog/${slug}`);
        await expectRenderedScreenshot(anonymous, testInfo, "blog-post");

        await anonymous.setViewportSize(PHONE);
        await anonymous.reload();
        await expect(anonymous.getByRole("heading", { level: 1, name: title })).toBeVisible();
        await expectNoHorizontalScroll(anonymous, PHONE.width);
        await expectRenderedScreenshot(anonymous, testInfo, "blog-post-390");
      });

      await test.step("the draft's address is a 404; the RSS feed carries the post and not the draft", async () => {
        const draftSlug = `draft-about-family-sharing-${id}`;
        const response = await anonymous.goto(`/blog/${draftSlug}`);
        expect(response?.status()).toBe(404);

        const feed = await anonymous.request.get("/blog/rss.xml");
        expect(feed.status()).toBe(200);
        expect(feed.headers()["content-type"]).toBe("application/rss+xml; charset=utf-8");
        const parsed = await parseFeed(anonymous, await feed.text());
        expect(parsed.error).toBeNull();
        expect(parsed.root).toBe("rss");
        expect(parsed.titles).toContain(title);
        expect(parsed.titles).not.toContain(draftTitle);
        expect(parsed.links).toContain(`${e2eBaseUrl}/blog/${slug}`);
      });
    } finally {
      await visitor.close();
    }

    await test.step("the admin deletes the draft after confirming", async () => {
      await page.goto("/admin/blog");
      await page.getByRole("link", { name: draftTitle, exact: true }).click();
      await page.getByText("Delete this post…").click();
      await page.getByRole("button", { name: "Delete the post permanently" }).click();
      await expect(page).toHaveURL(/\/admin\/blog\?notice=deleted$/);
      await expect(page.getByText("The post was deleted.")).toBeVisible();
      await expect(page.getByRole("link", { name: draftTitle, exact: true })).toHaveCount(0);
    });
  });
});

test.describe("careers", () => {
  test("an admin opens a position in the editor; visitors see it on /careers and its page, not the closed one", async ({ page, browser }, testInfo) => {
    test.setTimeout(180_000);
    const id = runId();
    const title = `Senior Full-stack Engineer ${id}`;
    const closedTitle = `Warehouse Assistant ${id}`;
    await page.setViewportSize(DESKTOP);
    await signInWithForm(page, e2eAdmin);

    const create = async (fields: { title: string; department: string; open: boolean }) => {
      await page.goto("/admin/careers/new");
      const form = page.getByRole("form", { name: "New position" });
      const button = form.getByRole("button", { name: "Create the position" });
      await waitForHydration(button);
      await form.getByLabel("Title").fill(fields.title);
      await form.getByLabel("Department").fill(fields.department);
      await form.getByLabel("Location").fill("Remote (Europe)");
      await form.getByLabel("Type").selectOption("FULL_TIME");
      await form.getByLabel("Description").fill("You will build the pages **finders** see.\n\n## The team\n\n- Four engineers\n- One designer");
      await form.getByLabel("Requirements").fill("5+ years of TypeScript\nStrong SQL");
      await form.getByLabel("Benefits").fill("Four-day week\nLearning budget");
      await form.getByLabel("Where to apply").fill("mailto:jobs@tagservice.example");
      const open = form.getByRole("checkbox", { name: /Open/ });
      if (fields.open) await open.check();
      else await open.uncheck();
      return { form, button };
    };

    let positionId = "";
    let closedId = "";
    await test.step("the admin creates an open and a closed position", async () => {
      const { form, button } = await create({ title, department: `Engineering ${id}`, open: true });
      await expect(page.getByTestId("position-preview").getByRole("heading", { level: 2, name: "The team" })).toBeVisible();
      await form.getByLabel("Where to apply").fill("http://jobs.example.com");
      await button.click();
      await expect(form.getByLabel("Where to apply")).toHaveAttribute("aria-invalid", "true");
      await expect(form.getByLabel("Requirements")).toHaveValue("5+ years of TypeScript\nStrong SQL");
      await form.getByLabel("Where to apply").fill("mailto:jobs@tagservice.example");
      await button.click();
      await expect(page.getByText("The position is created and open.")).toBeVisible();
      positionId = page.url().match(/\/admin\/careers\/([0-9a-f-]{36})/)![1]!;
      await expectRenderedScreenshot(page, testInfo, "admin-position-editor");

      const closed = await create({ title: closedTitle, department: `Operations ${id}`, open: false });
      await closed.button.click();
      await expect(page.getByText("The position is created, closed.")).toBeVisible();
      closedId = page.url().match(/\/admin\/careers\/([0-9a-f-]{36})/)![1]!;
      await page.goto("/admin/careers");
      await expect(page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Careers" })).toHaveAttribute("aria-current", "page");
      await expect(page.getByRole("listitem").filter({ has: page.getByRole("link", { name: closedTitle, exact: true }) }).locator('[data-status="CLOSED"]')).toHaveText(/Closed$/);
    });

    const visitor = await browser.newContext({ baseURL: e2eBaseUrl, viewport: DESKTOP });
    const anonymous = await visitor.newPage();
    try {
      await test.step("the careers page lists the open position under its department", async () => {
        await anonymous.goto("/careers");
        await expect(anonymous.getByRole("heading", { level: 1, name: "Careers" })).toBeVisible();
        const department = anonymous.getByRole("region", { name: `Engineering ${id}` });
        await expect(department.getByRole("link", { name: title })).toBeVisible();
        await expect(department.getByText("Remote (Europe) · Full-time")).toBeVisible();
        await expect(anonymous.getByText(closedTitle)).toHaveCount(0);
        await expectRenderedScreenshot(anonymous, testInfo, "careers");
      });

      await test.step("the position page shows the description, requirements, benefits and the Apply link", async () => {
        await anonymous.getByRole("link", { name: title }).click();
        await expect(anonymous).toHaveURL(`${e2eBaseUrl}/careers/${positionId}`);
        await expect(anonymous.getByRole("heading", { level: 1, name: title })).toBeVisible();
        await expect(anonymous.getByRole("heading", { level: 2, name: "The team" })).toBeVisible();
        await expect(anonymous.getByRole("region", { name: "What we are looking for" }).getByRole("listitem")).toHaveText(["5+ years of TypeScript", "Strong SQL"]);
        await expect(anonymous.getByRole("region", { name: "What we offer" }).getByRole("listitem")).toHaveText(["Four-day week", "Learning budget"]);
        await expect(anonymous.getByRole("link", { name: /Apply for this position/ })).toHaveAttribute("href", "mailto:jobs@tagservice.example");
        await expectRenderedScreenshot(anonymous, testInfo, "career-position");
        await anonymous.setViewportSize(PHONE);
        await expectNoHorizontalScroll(anonymous, PHONE.width);
        await expectRenderedScreenshot(anonymous, testInfo, "career-position-390");
      });

      await test.step("a closed position's page is a 404", async () => {
        expect((await anonymous.goto(`/careers/${closedId}`))?.status()).toBe(404);
        expect((await anonymous.goto("/careers/not-a-uuid"))?.status()).toBe(404);
      });
    } finally {
      await visitor.close();
    }
  });
});
