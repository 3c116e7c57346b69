import { describe, expect, it } from "vitest";
import { finderLocaleFrom } from "@/lib/services/messages/locale";

describe("finderLocaleFrom", () => {
  it("picks the supported language with the highest weight, a region counting for its language", () => {
    expect(finderLocaleFrom("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5")).toBe("fr");
    expect(finderLocaleFrom("es-MX")).toBe("es");
    expect(finderLocaleFrom("DE-at")).toBe("de");
    expect(finderLocaleFrom("en;q=0.4, de;q=0.8")).toBe("de");
    expect(finderLocaleFrom("pt-BR, pt;q=0.9, es;q=0.3")).toBe("es");
    // Equal weights keep the header's order.
    expect(finderLocaleFrom("de, fr")).toBe("de");
  });

  it("falls back to English for none, unsupported, refused (q=0) or malformed values", () => {
    for (const value of [null, undefined, "", "pt-BR, ja", "fr;q=0, it", ";;;", "q=1", "fr;q=abc", "*"]) expect(finderLocaleFrom(value), String(value)).toBe("en");
    expect(finderLocaleFrom(`${"x,".repeat(10_000)}fr`)).toBe("en");
  });
});
