import { expect, test, waitForHydration } from "./support/fixtures";
import { newAccount, signInWithForm } from "./support/accounts";
import { apiData, bearerApi } from "./support/finder";
import { e2eAdmin } from "./support/server-env";

type VinCheck = { stolen: boolean; tagged: boolean; message: string; policeReportOnFile: boolean };

/** A VIN unique to this run: 17 digits (never I, O or Q). */
function runVin(): string {
  return `${Date.now()}${Math.floor(Math.random() * 1e6)}`.padEnd(17, "7").slice(0, 17);
}

test.describe("the VIN check cannot be poisoned", () => {
  test("a VIN already claimed is refused, a stolen report needs the police reference, the admin clears it from the queue", async ({ browser, playwright }) => {
    test.setTimeout(180_000);
    const vin = runVin();
    const owner = newAccount("vin-owner");
    const other = newAccount("vin-other");

    // Through the API: the admin mints two tags; the owner claims one as a vehicle with the VIN, the other
    // account claims the second one as a vehicle without details yet.
    const { ownerTagId, otherTagId } = await bearerApi(playwright, async (api) => {
      const admin = await apiData<{ accessToken: string }>(await api.post("/api/v1/auth/login", { data: { email: e2eAdmin.email, password: e2eAdmin.password } }), 200);
      const minted = await apiData<{ code: string }[]>(await api.post("/api/v1/admin/tags/batch", { data: { count: 2 }, headers: { Authorization: `Bearer ${admin.accessToken}` } }), 201);
      const tokens: string[] = [];
      for (const account of [owner, other]) {
        const registered = await bearerApi(playwright, async (fresh) =>
          apiData<{ accessToken: string }>(await fresh.post("/api/v1/auth/register", { data: { email: account.email, password: account.password, firstName: "Ada", lastName: "Lovelace" } }), 201),
        );
        tokens.push(registered.accessToken);
      }
      const ownerAuth = { Authorization: `Bearer ${tokens[0]}` };
      const otherAuth = { Authorization: `Bearer ${tokens[1]}` };
      const ownerTag = await apiData<{ id: string }>(await api.post("/api/v1/tags/activate", { data: { code: minted[0]!.code, tagType: "VEHICLE", itemName: "Blue hatchback" }, headers: ownerAuth }), 201);
      await apiData(await api.put(`/api/v1/profiles/${ownerTag.id}/vehicle`, { data: { make: "Volkswagen", model: "Golf", vin }, headers: ownerAuth }), 200);
      const otherTag = await apiData<{ id: string }>(await api.post("/api/v1/tags/activate", { data: { code: minted[1]!.code, tagType: "VEHICLE" }, headers: otherAuth }), 201);
      return { ownerTagId: ownerTag.id, otherTagId: otherTag.id };
    });

    await test.step("another account putting the same VIN on its vehicle is refused, without being told whose it is", async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await signInWithForm(page, other);
      await page.goto(`/dashboard/tags/${otherTagId}`);
      const details = page.getByRole("form", { name: "Details" });
      const save = details.getByRole("button", { name: "Save", exact: true });
      await waitForHydration(save);
      await details.getByLabel("Name", { exact: true }).fill("My car");
      await details.getByLabel("Make").fill("Volkswagen");
      await details.getByLabel("Model", { exact: true }).fill("Golf");
      // The same VIN typed in groups and lower case is the same VIN.
      await details.getByLabel("VIN").fill(`${vin.slice(0, 5)}-${vin.slice(5, 11)} ${vin.slice(11)}`);
      await save.click();
      const alert = details.getByRole("alert");
      await expect(alert).toContainText("already registered with another vehicle tag");
      await expect(alert).not.toContainText(owner.email);
      await expect(page.locator("[data-status]").first()).toHaveAttribute("data-status", "PENDING_SETUP");
      await context.close();
    });

    await test.step("the owner reports the vehicle stolen with the police reference", async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await signInWithForm(page, owner);
      await page.goto(`/dashboard/tags/${ownerTagId}`);
      // The stolen report is the one way to STOLEN, among the status control's other moves.
      await page.getByText("Other status changes").click();
      await expect(page.getByRole("form", { name: "Report it stolen" })).toHaveCount(0);
      const form = page.getByRole("form", { name: "Report the vehicle stolen" });
      const submit = form.getByRole("button", { name: "Report it stolen" });
      await waitForHydration(submit);
      await expect(form.getByLabel("Police report reference")).toHaveAccessibleDescription(/public VIN check does not list/);
      await form.getByLabel("Police report reference").fill("MET-2026-004512");
      await form.getByLabel("Message for finders").fill("Taken from Elm Street last night.");
      await submit.click();
      await expect(page).toHaveURL(/notice=status-STOLEN/);
      await expect(page.locator("[data-status]").first()).toHaveAttribute("data-status", "STOLEN");
      await context.close();
    });

    await test.step("the public check says who reports it and that a police reference is on file, never the reference", async () => {
      const check = await bearerApi(playwright, async (api) => apiData<VinCheck>(await api.get(`/api/v1/vehicles/verify/${vin}`), 200));
      expect(check).toMatchObject({ stolen: true, tagged: true, policeReportOnFile: true });
      expect(check.message).toContain("Reported stolen by the owner of the vehicle tag registered with this VIN");
      expect(check.message).not.toContain("MET-2026-004512");
      expect(check.message).not.toMatch(/do not buy/i);
    });

    await test.step("the refused claim is in the moderators' queue; the admin clears the stolen report there", async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await signInWithForm(page, e2eAdmin);
      await page.goto("/admin/reports?status=OPEN&type=VIN_CONFLICT");
      const card = page.getByRole("list", { name: "Reports" }).getByRole("listitem").filter({ hasText: vin });
      await expect(card).toHaveCount(1);
      await expect(card).toContainText("VIN claimed twice");
      await expect(card).toContainText(owner.email);
      await expect(card).toContainText(other.email);
      const clear = card.getByRole("form", { name: "Clear the stolen report on the tag holding the VIN" });
      await clear.getByLabel(/Reason/).fill("Registration documents checked.");
      await clear.getByRole("button", { name: "Clear the stolen report" }).click();
      await expect(page.getByRole("alert").or(page.getByRole("status")).filter({ hasText: "The stolen report was cleared" })).toBeVisible();
      await context.close();

      const check = await bearerApi(playwright, async (api) => apiData<VinCheck>(await api.get(`/api/v1/vehicles/verify/${vin}`), 200));
      expect(check).toMatchObject({ stolen: false, tagged: true, policeReportOnFile: false });
    });
  });
});
