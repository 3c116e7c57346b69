import { describe, expect, it, vi } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import { createFormatter, createTranslator } from "next-intl";
import en from "@/messages/en.json";
import type { PublicScanView } from "@/lib/services/scans/schemas";

// The card is a server component reading the request's language: English from the app's own messages.
vi.mock("next-intl/server", () => ({
  getTranslations: async (namespace: string) => createTranslator({ locale: "en", messages: en, namespace: namespace as never }),
  getFormatter: async () => createFormatter({ locale: "en" }),
  getLocale: async () => "en",
}));

const { FinderTagCard } = await import("@/components/finder/tag-card");

const base: PublicScanView = {
  tagId: "5b8c8f0e-2f55-4a0d-9d3b-2f4f9a3e6c11",
  encryptedId: "abc",
  itemName: "Rex",
  description: "A long description ".repeat(40),
  ownerName: "Ada",
  status: "LOST",
  lostMessage: "Please call through the page.",
  reward: null,
  rewardCurrency: null,
  tagType: "PET",
  photos: [],
  contactEnabled: true,
  emergencyAvailable: true,
  details: { tagType: "PET", petName: "Rex", species: "Dog", breed: "Beagle", color: "Brown", size: "Small", distinctiveMarks: "White patch over the left eye", needsMedication: true },
  relay: null,
};

async function render(view: PublicScanView, actions?: React.ReactNode): Promise<string> {
  return renderToStaticMarkup(await FinderTagCard({ view, actions }));
}

describe("the finder's tag card", () => {
  it("lists what identifies a pet, with needs medication when the view carries it", async () => {
    const html = await render(base);
    for (const text of ["How to recognise it", "Species", "Dog", "Breed", "Beagle", "Size", "Small", "Distinctive marks", "White patch over the left eye", "Needs medication"]) expect(html).toContain(text);
    const without = await render({ ...base, details: { ...base.details!, needsMedication: null } as PublicScanView["details"] });
    expect(without).not.toContain("Needs medication");
  });

  it("shows a vehicle's plate only when the view has it, and nothing for a view without details (PRIVATE)", async () => {
    const car: PublicScanView = { ...base, tagType: "VEHICLE", details: { tagType: "VEHICLE", make: "Volvo", model: "V70", year: 2004, color: "Blue", licensePlate: null } };
    const hidden = await render(car);
    expect(hidden).toContain("Volvo");
    expect(hidden).not.toContain("Licence plate");
    expect(await render({ ...car, details: { tagType: "VEHICLE", make: "Volvo", model: "V70", year: 2004, color: "Blue", licensePlate: "AB12 CDE" } })).toContain("AB12 CDE");
    expect(await render({ ...base, details: null })).not.toContain("How to recognise it");
  });

  it("puts the page's actions right under the item's name, before the reward, the owner's note, the details and the description", async () => {
    const html = await render({ ...base, reward: 50, rewardCurrency: "EUR" }, <a href="#finder-contact">Message the owner</a>);
    const at = (text: string) => html.indexOf(text);
    expect(at("Message the owner")).toBeGreaterThan(at("Belongs to Ada"));
    for (const later of ["Reward offered", "Please call through the page.", "How to recognise it", "A long description"]) expect(at("Message the owner")).toBeLessThan(at(later));
  });
});
