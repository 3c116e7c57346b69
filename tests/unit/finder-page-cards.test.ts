import { describe, expect, it } from "vitest";
import { html as markup } from "@/lib/finder-page/html";
import { wordsFor } from "@/lib/finder-page/messages";
import { relayCard, relaySmsHref, relayTelHref, tagCard } from "@/lib/finder-page/tag-page";
import type { PublicScanView } from "@/lib/services/scans/schemas";

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

const render = (view: PublicScanView, actions?: ReturnType<typeof markup>) => tagCard(wordsFor("en"), view, { actions }).__html;

describe("the finder's tag card", () => {
  it("lists what identifies a pet, with needs medication when the view carries it", () => {
    const html = render(base);
    for (const text of ["How to recognise it", "Species", "Dog", "Breed", "Beagle", "Size", "Small", "Distinctive marks", "White patch over the left eye", "Needs medication"]) expect(html).toContain(text);
    const without = render({ ...base, details: { ...base.details!, needsMedication: null } as PublicScanView["details"] });
    expect(without).not.toContain("Needs medication");
  });

  it("shows a vehicle's plate only when the view has it, and nothing for a view without details (PRIVATE)", () => {
    const car: PublicScanView = { ...base, tagType: "VEHICLE", details: { tagType: "VEHICLE", make: "Volvo", model: "V70", year: 2004, color: "Blue", licensePlate: null } };
    const hidden = render(car);
    expect(hidden).toContain("Volvo");
    expect(hidden).not.toContain("Licence plate");
    expect(render({ ...car, details: { tagType: "VEHICLE", make: "Volvo", model: "V70", year: 2004, color: "Blue", licensePlate: "AB12 CDE" } })).toContain("AB12 CDE");
    expect(render({ ...base, details: null })).not.toContain("How to recognise it");
  });

  it("puts the page's actions right under the item's name, before the reward, the owner's note, the details and the description", () => {
    const html = render({ ...base, reward: 50, rewardCurrency: "EUR" }, markup`<a href="#finder-contact">Message the owner</a>`);
    const at = (text: string) => html.indexOf(text);
    expect(at("Message the owner")).toBeGreaterThan(at("Belongs to Ada"));
    for (const later of ["Reward offered", "Please call through the page.", "How to recognise it", "A long description"]) expect(at("Message the owner")).toBeLessThan(at(later));
  });

  it("escapes whatever the owner wrote: a name, a note or a description is never markup", () => {
    const html = render({ ...base, itemName: '<img src=x onerror="alert(1)">', description: "</p><script>alert(2)</script>", lostMessage: "a & b \" ' <b>" });
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(html).toContain("a &amp; b &quot; &#39; &lt;b&gt;");
  });

  it("is the preview's card in the dashboard: a lower heading and no live region", () => {
    const preview = tagCard(wordsFor("en"), base, { preview: true }).__html;
    expect(preview).toContain('<h3 id="finder-preview-item"');
    expect(preview).not.toContain('role="status"');
    expect(render(base)).toContain('<h1 id="finder-item"');
  });
});

const relay = { number: "+15005550006", pin: "482913" };

describe("the finder page's relay card", () => {
  it("dials the PIN after two pauses, prefills a text with the PIN, and says how in words", () => {
    expect(relayTelHref(relay)).toBe("tel:+15005550006,,482913");
    expect(relaySmsHref(relay)).toBe("sms:+15005550006?&body=482913%20");
    const html = relayCard(wordsFor("en"), relay).__html;
    expect(html).toContain('href="tel:+15005550006,,482913"');
    expect(html).toContain('href="sms:+15005550006?&amp;body=482913%20"');
    expect(html).toContain("Call or text the owner");
    expect(html).toContain("To call: dial +15005550006 and type the PIN 482913 when asked");
    expect(html).toContain("To text: send “482913 your message” to +15005550006");
  });

  it("speaks the finder's language", () => {
    const html = relayCard(wordsFor("de"), relay).__html;
    expect(html).toContain("Den Besitzer anrufen");
    expect(html).toContain("Wählen Sie +15005550006 und geben Sie die PIN 482913 ein");
    expect(html).not.toContain("Call the owner");
  });
});
