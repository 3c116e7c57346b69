import { describe, expect, it, vi } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import { createTranslator } from "next-intl";
import de from "@/messages/de.json";
import en from "@/messages/en.json";

// The card is a server component reading the request's language; the test switches it between calls.
let language: { locale: string; messages: typeof en } = { locale: "en", messages: en };
vi.mock("next-intl/server", () => ({
  getTranslations: async (namespace: string) => createTranslator({ locale: language.locale, messages: language.messages, namespace: namespace as never }),
  getLocale: async () => language.locale,
}));

const { FinderRelayCard, relaySmsHref, relayTelHref } = await import("@/components/finder/relay-card");

const relay = { number: "+15005550006", pin: "482913" };

describe("the finder page's relay card", () => {
  it("dials the PIN after two pauses, prefills a text with the PIN, and says how in words", async () => {
    expect(relayTelHref(relay)).toBe("tel:+15005550006,,482913");
    expect(relaySmsHref(relay)).toBe("sms:+15005550006?&body=482913%20");
    language = { locale: "en", messages: en };
    const html = renderToStaticMarkup(await FinderRelayCard({ relay }));
    expect(html).toContain('href="tel:+15005550006,,482913"');
    expect(html).toContain('href="sms:+15005550006?&amp;body=482913%20"');
    expect(html).toContain("Call or text the owner");
    expect(html).toContain("To call: dial +15005550006 and type the PIN 482913 when asked");
    expect(html).toContain("To text: send “482913 your message” to +15005550006");
  });

  it("speaks the finder's language", async () => {
    language = { locale: "de", messages: de as unknown as typeof en };
    const html = renderToStaticMarkup(await FinderRelayCard({ relay }));
    expect(html).toContain("Den Besitzer anrufen");
    expect(html).toContain("Wählen Sie +15005550006 und geben Sie die PIN 482913 ein");
    expect(html).not.toContain("Call the owner");
  });
});
