import { randomBytes } from "node:crypto";
import { expect, test } from "./support/fixtures";
import { expectNoHorizontalScroll, newAccount, signInWithForm } from "./support/accounts";
import { apiData, bearerApi } from "./support/finder";
import { createProduct } from "./support/shop";

const PHONE = { width: 390, height: 844 };

interface OrderRecord {
  id: string;
  items: { tagIds: string[] }[];
}

test.describe("a cancelled, paid order's refund", () => {
  test.use({ viewport: PHONE });

  test("the order page and the cancel notice say which tags were withdrawn and which stay, then that the refund is done", async ({ page, playwright }) => {
    test.setTimeout(180_000);
    const name = `Two QR tags ${randomBytes(3).toString("hex")}`;
    const product = await createProduct(playwright, { name, price: 12, tagPack: 2 });
    const buyer = newAccount("refund");
    const { accessToken } = await bearerApi(playwright, async (api) =>
      apiData<{ accessToken: string }>(
        await api.post("/api/v1/auth/register", { data: { email: buyer.email, password: buyer.password, firstName: buyer.firstName, lastName: buyer.lastName } }),
        201,
      ),
    );
    const auth = { Authorization: `Bearer ${accessToken}` };
    const order = await bearerApi(playwright, async (api) => apiData<OrderRecord>(await api.post("/api/v1/orders", { data: { items: [{ productId: product.id, quantity: 1 }] }, headers: auth }), 201));
    const { checkoutUrl } = await bearerApi(playwright, async (api) => apiData<{ checkoutUrl: string }>(await api.post(`/api/v1/orders/${order.id}/checkout`, { headers: auth }), 200));

    await test.step("pay on the provider's page; the order is confirmed with two tags", async () => {
      await signInWithForm(page, buyer);
      await page.goto(new URL(checkoutUrl).pathname);
      await page.getByRole("button", { name: "Pay $12.00" }).click();
      await expect(page).toHaveURL(new RegExp(`/dashboard/orders/${order.id}\\?checkout=success`));
      await expect(page.getByRole("region", { name: "Your new tags" }).getByRole("link")).toHaveCount(2, { timeout: 45_000 });
    });

    await test.step("one of the two tags is set up (its profile completed)", async () => {
      const paid = await bearerApi(playwright, async (api) => apiData<OrderRecord>(await api.get(`/api/v1/orders/${order.id}`, { headers: auth }), 200));
      const tagId = paid.items[0]!.tagIds[0]!;
      await bearerApi(playwright, async (api) =>
        apiData(
          await api.patch(`/api/v1/profiles/${tagId}`, {
            data: { itemName: "House keys", description: "A blue key ring.", ownerName: "Ada", contactEmail: buyer.email, contactPhone: "+34600111222" },
            headers: auth,
          }),
          200,
        ),
      );
    });

    await test.step("cancel: the panel says set-up tags stay; afterwards the refund panel names what was withdrawn and what stays", async () => {
      await page.goto(`/dashboard/orders/${order.id}`);
      const cancelPanel = page.getByRole("region", { name: "Cancel the order" });
      await expect(cancelPanel).toContainText("tags you already set up stay yours");
      await cancelPanel.getByText("Cancel order", { exact: true }).click();
      await cancelPanel.getByRole("button", { name: "Yes, cancel the order" }).click();
      await expect(page).toHaveURL(/notice=cancelled-refund/);
      await expect(page.getByRole("status").filter({ hasText: "The order was cancelled and a refund was started." })).toBeVisible();
      const refund = page.getByRole("region", { name: "Refund" });
      await expect(refund.getByTestId("refund-tags")).toHaveText(
        "1 tag from this order that was not set up yet was withdrawn from your account. 1 tag you had already set up stays in your account and keeps working.",
      );
      await expect(page.getByRole("region", { name: "Tags that stay yours" }).getByRole("link")).toHaveCount(1);
      await expectNoHorizontalScroll(page, PHONE.width);
    });

    await test.step("once the refund job has run, the page says the money was refunded", async () => {
      await expect(async () => {
        await page.goto(`/dashboard/orders/${order.id}`);
        await expect(page.getByRole("region", { name: "Refund" })).toContainText("We refunded $12.00 to your payment method.", { timeout: 1_000 });
      }).toPass({ timeout: 60_000 });
      await expect(page.getByRole("region", { name: "History" })).toContainText("Refunded");
    });
  });
});
