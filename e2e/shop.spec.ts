import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, expectRenderedScreenshot, test, waitForHydration } from "./support/fixtures";
import { expectNoHorizontalScroll, newAccount, registerByApi, signInWithForm, type TestAccount } from "./support/accounts";
import { createProduct, type Product } from "./support/shop";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const CART_KEY = "tag-service:cart:v1";

/** From the catalogue to the product's page, then into the cart with `quantity`. */
async function addToCart(page: Page, product: Product, quantity = 1) {
  await page.goto("/shop");
  await page.getByRole("link", { name: product.name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/shop/${product.slug}$`));
  await expect(page.getByRole("heading", { level: 1, name: product.name })).toBeVisible();
  const add = page.getByRole("button", { name: "Add to cart" });
  await waitForHydration(add);
  if (quantity !== 1) await page.getByLabel("Quantity").fill(String(quantity));
  await add.click();
  await expect(page.getByRole("status").filter({ hasText: `Added ${quantity} to your cart.` })).toBeVisible();
}

async function fillAddress(page: Page) {
  const form = page.getByRole("group", { name: "Shipping address" });
  await form.getByLabel("Recipient's name").fill("Sam Buyer");
  await form.getByLabel("Address", { exact: true }).fill("1 Main Street");
  await form.getByLabel("City").fill("Springfield");
  await form.getByLabel("Postal code").fill("62701");
  await form.getByLabel("Country").selectOption("US");
}

test.describe("the shop", () => {
  test.use({ viewport: PHONE });

  test("a new buyer puts a 5-pack in the cart, reloads, signs in, pays on the provider's page and finds five tags to set up", async ({ page, playwright, request }, testInfo) => {
    test.setTimeout(180_000);
    const name = `Five QR tags ${randomBytes(3).toString("hex")}`;
    await createProduct(playwright, { name, price: 39 });
    const buyer: TestAccount = newAccount("shop");
    await registerByApi(request, buyer);

    await test.step("the catalogue and the product page, signed out", async () => {
      await page.goto("/");
      await page.getByRole("link", { name: "Get your tags" }).click();
      await expect(page).toHaveURL(/\/shop$/);
      await expect(page.getByRole("heading", { level: 1, name: "Shop" })).toBeVisible();
      const card = page.getByRole("list", { name: "Products" }).getByRole("listitem").filter({ hasText: name });
      await expect(card).toContainText("$39.00");
      await expect(card).toContainText("5 tags");
      await expect(card).toContainText("In stock");
      await expectNoHorizontalScroll(page, PHONE.width);
      await expectRenderedScreenshot(page, testInfo, "shop-catalogue");

      await card.getByRole("link", { name }).click();
      await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
      await expect(page.getByRole("region", { name: "What you get" })).toContainText("5 tags");
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", name);
      await expectNoHorizontalScroll(page, PHONE.width);
      await expectRenderedScreenshot(page, testInfo, "shop-product");
    });

    await test.step("add to cart; the header counts it, and a reload keeps it", async () => {
      const add = page.getByRole("button", { name: "Add to cart" });
      await waitForHydration(add);
      await add.click();
      await expect(page.getByRole("status").filter({ hasText: "Added 1 to your cart." })).toBeVisible();
      await expect(page.getByRole("link", { name: "Cart, 1 item" })).toBeVisible();
      await page.reload();
      await expect(page.getByRole("link", { name: "Cart, 1 item" })).toBeVisible();
    });

    await test.step("the cart: the line and the estimate; checkout asks to sign in and comes back", async () => {
      await page.getByRole("link", { name: "Cart, 1 item" }).click();
      await expect(page).toHaveURL(/\/shop\/cart$/);
      const line = page.getByRole("list", { name: "Items in your cart" }).getByRole("listitem");
      await expect(line).toHaveCount(1);
      await expect(line).toContainText(name);
      await expect(page.getByTestId("cart-estimate")).toHaveText("$39.00");
      await page.getByRole("link", { name: "Sign in to check out" }).click();
      await expect(page).toHaveURL(/\/login\?next=%2Fshop%2Fcart$/);
      const signIn = page.getByRole("button", { name: "Sign in" });
      await waitForHydration(signIn);
      await page.getByLabel("E-mail address").fill(buyer.email);
      await page.getByLabel("Password", { exact: true }).fill(buyer.password);
      await signIn.click();
      await expect(page).toHaveURL(/\/shop\/cart$/);
      await expect(page.getByRole("list", { name: "Items in your cart" }).getByRole("listitem")).toContainText(name);
      await fillAddress(page);
      await expectNoHorizontalScroll(page, PHONE.width);
      await expectRenderedScreenshot(page, testInfo, "shop-cart");
    });

    let orderUrl = "";
    await test.step("place the order: the provider's page shows the server's total; Pay", async () => {
      const place = page.getByRole("button", { name: "Place order and pay" });
      await waitForHydration(place);
      await place.click();
      await expect(page).toHaveURL(/\/checkout\/test\/cs_test_[A-Za-z0-9]+$/);
      await expect(page.getByRole("heading", { level: 1, name: "Pay $39.00" })).toBeVisible();
      expect(await page.evaluate((key) => localStorage.getItem(key), CART_KEY), "the cart empties once the order is placed").toBeNull();
      await expectRenderedScreenshot(page, testInfo, "test-provider-page");
      await page.getByRole("button", { name: "Pay $39.00" }).click();
      await expect(page).toHaveURL(/\/dashboard\/orders\/[0-9a-f-]{36}\?checkout=success/);
      orderUrl = page.url().replace(/\?.*$/, "");
    });

    await test.step("the order page confirms it once the webhook has been processed", async () => {
      await expect(page.getByRole("status").filter({ hasText: "Payment received — your order is confirmed" })).toBeVisible({ timeout: 45_000 });
      await expect(page.getByRole("heading", { level: 1, name: /^Order [0-9A-F]{8}$/ })).toBeVisible();
      await expect(page.locator('[data-status="CONFIRMED"]')).toBeVisible();
      await expect(page.locator('[data-status="COMPLETED"]')).toBeVisible();
      await expect(page.getByTestId("order-total")).toHaveText("$39.00");
      await expect(page.getByRole("region", { name: "Your new tags" }).getByRole("link")).toHaveCount(5);
      await expect(page.getByRole("link", { name: "Invoice" })).toHaveAttribute("href", `${new URL(orderUrl).pathname.replace("/dashboard", "/api/v1")}/invoice`);
      await expect(page.getByRole("button", { name: "Pay now" })).toHaveCount(0);
      await expectNoHorizontalScroll(page, PHONE.width);
      await expectRenderedScreenshot(page, testInfo, "order-confirmed");
    });

    await test.step("the invoice opens with its stylesheet applied (its policy allows its own <style>)", async () => {
      const refused: string[] = [];
      page.on("console", (message) => {
        if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
      });
      await page.getByRole("link", { name: "Invoice" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Invoice" })).toBeVisible();
      // The stylesheet sets the page's grey background and the white sheet on it; unstyled, both are transparent.
      await expect(page.locator("body")).toHaveCSS("background-color", "rgb(243, 244, 246)");
      await expect(page.locator("main")).toHaveCSS("background-color", "rgb(255, 255, 255)");
      expect(refused).toEqual([]);
      await page.goBack();
    });

    await test.step("the orders list and the five new tags, setting up", async () => {
      await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Orders" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Orders" })).toBeVisible();
      await expect(page.getByRole("list", { name: "Your orders" }).getByRole("listitem")).toHaveCount(1);
      await expect(page.getByRole("list", { name: "Your orders" })).toContainText("$39.00");
      await page.goto("/dashboard/tags");
      const tags = page.getByRole("list", { name: "Tags" });
      await expect(tags.locator('[data-status="PENDING_SETUP"]')).toHaveCount(5);
      for (const badge of await tags.locator('[data-status="PENDING_SETUP"]').all()) await expect(badge).toHaveText(/Setting up$/);
    });
  });

  test("not enough stock is shown beside the line; a declined payment says so clearly and offers to pay again", async ({ page, playwright, request }, testInfo) => {
    test.setTimeout(180_000);
    const name = `Luggage tag ${randomBytes(3).toString("hex")}`;
    const product = await createProduct(playwright, { name, price: 12.5, stock: 2, tagPack: 1, images: ["/products/luggage-tag.svg"], variants: [{ name: "Black", price: 12.5 }] });
    const buyer = newAccount("shop-decline");
    await registerByApi(request, buyer);
    await signInWithForm(page, buyer);

    await addToCart(page, product, 3);
    await page.goto("/shop/cart");
    await expect(page.getByTestId("cart-estimate")).toHaveText("$37.50");

    await test.step("on a desktop: the cart beside the checkout", async () => {
      await page.setViewportSize(DESKTOP);
      await fillAddress(page);
      await expectRenderedScreenshot(page, testInfo, "shop-cart-desktop");
    });

    await test.step("three ordered, two free: the message sits beside the line; two go through", async () => {
      const place = page.getByRole("button", { name: "Place order and pay" });
      await waitForHydration(place);
      await place.click();
      const line = page.getByRole("list", { name: "Items in your cart" }).getByRole("listitem");
      await expect(line.getByRole("alert")).toHaveText(`Not enough stock of ${name}: 2 available, 3 ordered.`);
      await expect(page.getByRole("alert").filter({ hasText: "Some items are not available in the quantity you chose." })).toBeVisible();
      await line.getByLabel(/^Quantity/).fill("2");
      await expect(line.getByRole("alert")).toHaveCount(0);
      await expect(page.getByLabel("Country")).toHaveValue("US");
      await expect(page.getByTestId("cart-estimate")).toHaveText("$25.00");
      await place.click();
      await expect(page).toHaveURL(/\/checkout\/test\/cs_test_/);
    });

    await test.step("the provider's page on a desktop, then Decline", async () => {
      await expect(page.getByRole("heading", { level: 1, name: "Pay $25.00" })).toBeVisible();
      await expectRenderedScreenshot(page, testInfo, "test-provider-desktop");
      await page.setViewportSize(PHONE);
      await page.getByRole("button", { name: "Decline (card declined)" }).click();
      await expect(page).toHaveURL(/\/dashboard\/orders\/[0-9a-f-]{36}\?checkout=cancelled/);
    });

    await test.step("the order says the card was declined, and Pay again opens the same checkout", async () => {
      const failure = page.getByRole("alert").filter({ hasText: "Your payment did not go through." });
      await expect(failure).toBeVisible({ timeout: 30_000 });
      await expect(failure).toContainText("Your card was declined.");
      await expect(page.locator('[data-status="FAILED"]')).toBeVisible();
      await expectNoHorizontalScroll(page, PHONE.width);
      await expectRenderedScreenshot(page, testInfo, "order-declined");
      await failure.getByRole("button", { name: "Pay again" }).click();
      await expect(page).toHaveURL(/\/checkout\/test\/cs_test_/);
      await expect(page.getByRole("button", { name: "Pay $25.00" })).toBeVisible();
    });
  });

  test("signed out, Create an account from the cart signs the buyer up and comes back to the checkout", async ({ page, playwright }) => {
    const name = `Sign-up tags ${randomBytes(3).toString("hex")}`;
    const product = await createProduct(playwright, { name, price: 9 });
    await addToCart(page, product);
    await page.goto("/shop/cart");
    // The cart's own link (rendered once the cart is read from storage), not the site footer's.
    await page.getByRole("main").getByRole("link", { name: "Create an account" }).click();
    await expect(page).toHaveURL(/\/register\?next=%2Fshop%2Fcart$/);
    await expect(page.getByRole("heading", { level: 1, name: "Create an account" })).toBeVisible();
    const buyer = newAccount("shop-signup");
    const submit = page.getByRole("button", { name: "Create account" });
    await waitForHydration(submit);
    await page.getByLabel("First name").fill(buyer.firstName);
    await page.getByLabel("Last name").fill(buyer.lastName);
    await page.getByLabel("E-mail address").fill(buyer.email);
    await page.getByLabel("Password").fill(buyer.password);
    await submit.click();
    // It used to land on the dashboard, the cart and its checkout a search away.
    await expect(page).toHaveURL(/\/shop\/cart$/);
    await expect(page.getByRole("list", { name: "Items in your cart" }).getByRole("listitem").filter({ hasText: name })).toBeVisible();
    await expect(page.getByRole("button", { name: "Place order and pay" })).toBeVisible();
  });

  test("a product without a picture shows the designed placeholder on its card, not an empty block", async ({ page, playwright }) => {
    const bare = await createProduct(playwright, { name: `No picture ${randomBytes(3).toString("hex")}`, price: 5, images: [] });
    const pictured = await createProduct(playwright, { name: `Pictured ${randomBytes(3).toString("hex")}`, price: 5 });
    await page.goto("/shop");
    const cards = page.getByRole("list", { name: "Products" }).getByRole("listitem");
    const bareCard = cards.filter({ hasText: bare.name });
    await expect(bareCard.getByTestId("product-placeholder")).toBeVisible();
    await expect(bareCard.getByTestId("product-placeholder").locator("svg")).toBeVisible();
    await expect(cards.filter({ hasText: pictured.name }).getByTestId("product-placeholder")).toHaveCount(0);
  });

  test("the address has a recipient, prints the country's name on the order, and is offered again for the next order", async ({ page, playwright, request }) => {
    test.setTimeout(120_000);
    const product = await createProduct(playwright, { name: `Address tags ${randomBytes(3).toString("hex")}`, price: 4 });
    const buyer = newAccount("shop-address");
    await registerByApi(request, buyer);
    await signInWithForm(page, buyer);
    await addToCart(page, product);
    await page.goto("/shop/cart");
    const form = page.getByRole("group", { name: "Shipping address" });
    const place = page.getByRole("button", { name: "Place order and pay" });
    await waitForHydration(place);
    // The recipient is asked for on the site (the API keeps it optional).
    await form.getByLabel("Address", { exact: true }).fill("Hauptstraße 5");
    await form.getByLabel("City").fill("Berlin");
    await form.getByLabel("Postal code").fill("10115");
    await form.getByLabel("Country").selectOption("DE");
    await place.click();
    // The browser holds the order back: the recipient is a required field.
    await expect(form.getByLabel("Recipient's name")).toHaveAttribute("required", "");
    expect(await form.getByLabel("Recipient's name").evaluate((input) => (input as HTMLInputElement).validity.valueMissing)).toBe(true);
    await expect(page).toHaveURL(/\/shop\/cart$/);
    await form.getByLabel("Recipient's name").fill("Maria Garcia");
    await place.click();
    await expect(page).toHaveURL(/\/checkout\/test\/cs_test_/);
    await page.getByRole("button", { name: "Decline (card declined)" }).click();
    await expect(page).toHaveURL(/\/dashboard\/orders\/[0-9a-f-]{36}\?checkout=cancelled/);
    const address = page.getByRole("region", { name: "Shipping address" }).locator("address");
    await expect(address).toContainText("Maria Garcia");
    await expect(address).toContainText("Germany");
    await expect(address).not.toContainText(/\bDE\b/);

    // The next order starts from this address.
    await addToCart(page, product);
    await page.goto("/shop/cart");
    await expect(form.getByLabel("Recipient's name")).toHaveValue("Maria Garcia");
    await expect(form.getByLabel("Address", { exact: true })).toHaveValue("Hauptstraße 5");
    await expect(form.getByLabel("Postal code")).toHaveValue("10115");
    await expect(form.getByLabel("Country")).toHaveValue("DE");
  });

  test("an unknown product is the 404 page", async ({ page }) => {
    const response = await page.goto("/shop/no-such-product-here");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  });
});
