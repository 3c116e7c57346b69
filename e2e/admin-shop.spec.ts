import { createHmac, randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, expectRenderedScreenshot, test, waitForHydration } from "./support/fixtures";
import { expectNoHorizontalScroll, newAccount, signInWithForm } from "./support/accounts";
import { apiData, bearerApi, PHONE } from "./support/finder";
import { e2eAdmin, e2eSecrets } from "./support/server-env";

const DESKTOP = { width: 1280, height: 800 };

/** Both sizes of a page as it stands: 1280×800 and 390×844, each checked for rendering and by axe. */
async function screenshotBoth(page: Page, testInfo: Parameters<typeof expectRenderedScreenshot>[1], name: string) {
  await page.setViewportSize(DESKTOP);
  await expectRenderedScreenshot(page, testInfo, `${name}-1280`);
  await page.setViewportSize(PHONE);
  await expectNoHorizontalScroll(page, PHONE.width);
  await expectRenderedScreenshot(page, testInfo, `${name}-390`);
  await page.setViewportSize(DESKTOP);
}

/** Opens the "New product" panel (open already when the catalogue is empty). */
async function openNewProduct(page: Page) {
  const panel = page.locator("details").filter({ has: page.locator("summary", { hasText: /^New product$/ }) });
  if (!(await panel.evaluate((element) => (element as HTMLDetailsElement).open))) await panel.getByText("New product", { exact: true }).click();
}

/** What a provider sends: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`. */
function signed(body: string): string {
  const t = Math.floor(Date.now() / 1000);
  return `t=${t},v1=${createHmac("sha256", e2eSecrets.PAYMENT_WEBHOOK_SECRET).update(`${t}.${body}`, "utf8").digest("hex")}`;
}

test.describe("admin shop pages", () => {
  test("a product made in the editor is bought and paid; the admin ships it and the buyer gets the tracking number; a failed webhook event is replayed", async ({ page, browser, playwright }, testInfo) => {
    test.setTimeout(240_000);
    const runId = `${Date.now().toString(36)}${randomBytes(2).toString("hex")}`;
    const productName = `E2E collar tag ${runId}`;
    const slug = `e2e-collar-tag-${runId}`;
    await page.setViewportSize(DESKTOP);
    await signInWithForm(page, e2eAdmin);

    await test.step("the admin creates a product in the editor", async () => {
      await page.goto("/admin/products");
      await expect(page.getByRole("heading", { level: 1, name: "Products" })).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Products" })).toHaveAttribute("aria-current", "page");
      await openNewProduct(page);
      const form = page.getByRole("form", { name: "New product" });
      const create = form.getByRole("button", { name: "Create the product" });
      await waitForHydration(create);
      await form.getByLabel("Name", { exact: true }).fill(productName);
      await form.getByLabel("Description").fill("A tough QR tag for a collar.");
      await form.getByLabel("Price", { exact: true }).fill("12.50");
      await form.getByLabel("Stock").fill("20");
      await form.getByLabel("Tags per unit").fill("1");
      await form.getByLabel("Tag type").selectOption("PET");
      await form.getByRole("checkbox", { name: "pet-collar-tag.svg" }).check();
      await form.getByLabel("Variant 1 name").fill("Green");
      await form.getByLabel("Variant 1 price").fill("12.50");
      await create.click();
      await expect(page).toHaveURL(/notice=created/);
      await expect(page.getByRole("status").filter({ hasText: `“${productName}” is created.` })).toBeVisible();
      const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: productName }) });
      await expect(card.getByText(`/${slug}`)).toBeVisible();
      await expect(card.getByText("$12.50 · 1 variant")).toBeVisible();
    });

    await test.step("a second product with the same slug is refused beside the slug field", async () => {
      await openNewProduct(page);
      const form = page.getByRole("form", { name: "New product" });
      const create = form.getByRole("button", { name: "Create the product" });
      await waitForHydration(create);
      await form.getByLabel("Name", { exact: true }).fill("Another collar tag");
      await form.getByLabel("Slug").fill(slug);
      await form.getByLabel("Price", { exact: true }).fill("5");
      await create.click();
      await expect(form.getByLabel("Slug")).toHaveAttribute("aria-invalid", "true");
      await expect(form.getByLabel("Slug")).toHaveAccessibleDescription(/Another product already has this slug\./);
      await expect(form.getByLabel("Name", { exact: true })).toHaveValue("Another collar tag");
      await screenshotBoth(page, testInfo, "admin-products");
    });

    const buyer = newAccount("buyer");
    const { orderId, buyerId } = await test.step("a buyer orders it and pays through the test provider", async () => {
      const registered = await bearerApi(playwright, async (api) =>
        apiData<{ user: { id: string }; accessToken: string }>(
          await api.post("/api/v1/auth/register", { data: { email: buyer.email, password: buyer.password, firstName: buyer.firstName, lastName: buyer.lastName } }),
          201,
        ),
      );
      const auth = { Authorization: `Bearer ${registered.accessToken}` };
      return bearerApi(playwright, async (api) => {
        const product = await apiData<{ id: string; price: number }>(await api.get(`/api/v1/orders/products/${slug}`), 200);
        const order = await apiData<{ id: string; total: number }>(
          await api.post("/api/v1/orders", {
            headers: auth,
            data: { items: [{ productId: product.id, quantity: 2 }], shippingAddress: { line1: "1 Main St", city: "Springfield", state: "IL", postalCode: "62701", country: "US" } },
          }),
          201,
        );
        expect(order.total).toBe(25);
        const checkout = await apiData<{ checkoutUrl: string }>(await api.post(`/api/v1/orders/${order.id}/checkout`, { headers: auth }), 200);
        const payer = await browser.newContext();
        try {
          const pay = await payer.newPage();
          await pay.goto(checkout.checkoutUrl);
          await pay.getByRole("button", { name: /^Pay / }).click();
          await expect(pay).not.toHaveURL(checkout.checkoutUrl);
        } finally {
          await payer.close();
        }
        await expect
          .poll(async () => (await apiData<{ status: string }>(await api.get(`/api/v1/orders/${order.id}`, { headers: auth }), 200)).status, { timeout: 30_000 })
          .toBe("CONFIRMED");
        return { orderId: order.id, buyerId: registered.user.id };
      });
    });
    const reference = orderId.slice(0, 8).toUpperCase();
    const tracking = `1Z${runId.toUpperCase()}`;

    await test.step("the admin filters by Confirmed; an empty tracking number is refused beside the field; shipping e-mails the buyer", async () => {
      await page.goto("/admin/orders");
      await page.getByLabel("Status").selectOption("CONFIRMED");
      await page.getByRole("button", { name: "Filter" }).click();
      await expect(page).toHaveURL(/status=CONFIRMED/);
      const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: `Order ${reference}` }) });
      await expect(card.getByText(buyer.email, { exact: true })).toBeVisible();
      await expect(card.getByTestId("order-total")).toHaveText("$25.00");
      await expect(card.locator('[data-status="CONFIRMED"]')).toBeVisible();
      await expect(card.locator('[data-status="COMPLETED"]')).toBeVisible();
      await card.getByText("Details and actions").click();
      await expect(card.getByText("2 × " + productName)).toBeVisible();
      await expect(card.getByText("Springfield")).toBeVisible();
      await expect(card.getByRole("button", { name: "Mark delivered" })).toHaveCount(0);
      const ship = card.getByRole("form", { name: `Ship order ${reference}` });
      const shipButton = ship.getByRole("button", { name: "Mark shipped" });
      await waitForHydration(shipButton);
      await shipButton.click();
      await expect(ship.getByLabel("Tracking number")).toHaveAttribute("aria-invalid", "true");
      await expect(ship.getByLabel("Tracking number")).toHaveAccessibleDescription(/A tracking number is required/);
      await screenshotBoth(page, testInfo, "admin-orders");
      await ship.getByLabel("Tracking number").fill(tracking);
      await ship.getByLabel("Carrier").fill("UPS");
      await shipButton.click();
      await expect(page.getByRole("status").filter({ hasText: `Order ${reference} is marked Shipped` })).toBeVisible();
      await expect(page).toHaveURL(/status=CONFIRMED/);

      await expect
        .poll(
          async () => {
            const response = await page.request.get(`/api/dev/mailbox?to=${encodeURIComponent(buyer.email)}`);
            const body = (await response.json()) as { data: { subject: string; text: string }[] };
            return body.data.some((message) => message.subject.includes(`Order ${reference} has shipped`) && message.text.includes(tracking));
          },
          { timeout: 30_000, message: "the shipping e-mail with the tracking number" },
        )
        .toBe(true);
    });

    const eventId = `evt_e2e_${runId}`;
    await test.step("a subscription event whose price has no tier fails at once and is listed under Failed", async () => {
      const body = JSON.stringify({
        id: eventId,
        type: "customer.subscription.created",
        created: Math.floor(Date.now() / 1000),
        data: { object: { id: `sub_e2e_${runId}`, customer: `cus_e2e_${runId}`, status: "active", metadata: { userId: buyerId }, items: { data: [{ price: { id: "price_e2e", metadata: {} } }] } } },
      });
      const response = await page.request.post("/api/v1/webhooks/payment", { data: body, headers: { "Content-Type": "application/json", "Payment-Signature": signed(body) } });
      expect(response.status(), await response.text()).toBe(200);

      const card = page.getByRole("listitem").filter({ hasText: eventId });
      await expect(async () => {
        await page.goto("/admin/payment-events");
        await expect(card).toBeVisible({ timeout: 1_000 });
      }).toPass({ timeout: 30_000 });
      await expect(page.getByLabel("Status")).toHaveValue("FAILED");
      await expect(card.getByTestId("event-error")).toContainText("has no PRO or PREMIUM price");
      await expect(card.getByTestId("event-attempts")).toHaveText("1");
      await card.getByText("Payload").click();
      await expect(card.getByRole("region", { name: `Payload of event ${eventId}` })).toContainText('"type": "customer.subscription.created"');
      await screenshotBoth(page, testInfo, "admin-payment-events");
    });

    await test.step("Replay queues it again and the outcome shows: failed again, on its second attempt", async () => {
      const card = page.getByRole("listitem").filter({ hasText: eventId });
      const replay = card.getByRole("button", { name: "Replay" });
      await waitForHydration(replay);
      await replay.click();
      await expect(page).toHaveURL(/notice=replayed/);
      await expect(page.getByRole("status").filter({ hasText: `Event ${eventId} is queued again after 1 attempt` })).toBeVisible();
      await expect(async () => {
        await page.goto("/admin/payment-events?status=FAILED");
        await expect(card.getByTestId("event-attempts")).toHaveText("2", { timeout: 1_000 });
      }).toPass({ timeout: 30_000 });
      await expect(card.getByTestId("event-error")).toContainText("has no PRO or PREMIUM price");
    });
  });
});
