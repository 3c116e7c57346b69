import { describe, expect, it } from "vitest";
import { isFinderPath, negotiateLocale, pageKind } from "@/lib/i18n/locales";

describe("negotiateLocale", () => {
  it.each([
    [null, "en"],
    ["", "en"],
    ["es", "es"],
    ["es-MX,es;q=0.9,en;q=0.8", "es"],
    ["fr-CA", "fr"],
    ["de-DE,de;q=0.9", "de"],
    ["ja,de;q=0.5", "de"],
    ["en;q=0.4,fr;q=0.8", "fr"],
    ["pt-BR,pt;q=0.9", "en"],
    ["*", "en"],
    ["de;q=0,es;q=0.1", "es"],
    ["es;q=abc,fr", "fr"],
    ["EN-gb", "en"],
  ])("%s → %s", (header, expected) => {
    expect(negotiateLocale(header)).toBe(expected);
  });

  it("keeps the order sent for equal qualities", () => {
    expect(negotiateLocale("fr,de")).toBe("fr");
    expect(negotiateLocale("de,fr")).toBe("de");
  });

  it("picks the supported language with the highest weight, a region counting for its language", () => {
    expect(negotiateLocale("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5")).toBe("fr");
    expect(negotiateLocale("DE-at")).toBe("de");
    expect(negotiateLocale("pt-BR, pt;q=0.9, es;q=0.3")).toBe("es");
  });

  it("falls back to English for none, unsupported, refused (q=0) or malformed values", () => {
    for (const value of [null, undefined, "", "pt-BR, ja", "fr;q=0, it", ";;;", "q=1", "fr;q=abc", "*"]) expect(negotiateLocale(value), String(value)).toBe("en");
  });

  it("survives a hostile header", () => {
    expect(negotiateLocale(`${"x;q=1,".repeat(10_000)}es`)).toBe("en");
    expect(negotiateLocale(";;;,,,q=;")).toBe("en");
  });
});

describe("isFinderPath", () => {
  it("names the finder's pages only", () => {
    expect(isFinderPath("/t/abc")).toBe(true);
    expect(isFinderPath("/t/abc/emergency")).toBe(true);
    expect(isFinderPath("/thread/tok")).toBe(true);
    expect(isFinderPath("/found")).toBe(true);
    expect(isFinderPath("/thread")).toBe(true);
    expect(isFinderPath("/lost/5b8c8f0e-2f55-4a0d-9d3b-2f4f9a3e6c11")).toBe(true);
    expect(isFinderPath("/")).toBe(false);
    expect(isFinderPath("/dashboard")).toBe(false);
    expect(isFinderPath("/tags")).toBe(false);
  });
});

describe("pageKind", () => {
  it.each([
    ["/dashboard", "dashboard"],
    ["/dashboard/tags/123/poster", "dashboard"],
    ["/dashboard-tips", "site"],
    ["/dashboards", "site"],
    ["/t/abc", "finder"],
    ["/found", "finder"],
    ["/", "site"],
    ["/certificates/abc", "site"],
    ["/admin", "site"],
  ] as const)("%s is a %s page", (path, kind) => {
    expect(pageKind(path)).toBe(kind);
  });
});
