import { describe, expect, it } from "vitest";
import { niceCeiling } from "@/components/admin/charts";
import { analyticsRange } from "@/lib/services/admin/analytics";
import { containsPattern } from "@/lib/services/admin/users";

describe("containsPattern", () => {
  it("escapes LIKE's wildcards and its escape character, so a search matches its text literally", () => {
    expect(containsPattern("ada")).toBe("%ada%");
    expect(containsPattern("a_b%c")).toBe("%a\\_b\\%c%");
    expect(containsPattern("back\\slash")).toBe("%back\\\\slash%");
  });
});

describe("niceCeiling", () => {
  it("rounds an axis up to 1, 2 or 5 times a power of ten", () => {
    expect([0, 0.3, 1, 3, 7, 10, 11, 240, 999.5].map(niceCeiling)).toEqual([1, 0.5, 1, 5, 10, 10, 20, 500, 1000]);
  });
});

describe("analyticsRange", () => {
  const now = new Date("2026-03-15T22:00:00Z");
  it("defaults to the 30 UTC days up to today, or 30 from `from`, never past today", () => {
    expect(analyticsRange({}, now)).toEqual({ from: "2026-02-14", to: "2026-03-15", days: 30 });
    expect(analyticsRange({ to: "2026-01-31" }, now)).toEqual({ from: "2026-01-02", to: "2026-01-31", days: 30 });
    expect(analyticsRange({ from: "2026-01-01" }, now)).toEqual({ from: "2026-01-01", to: "2026-01-30", days: 30 });
    expect(analyticsRange({ from: "2026-03-10" }, now)).toEqual({ from: "2026-03-10", to: "2026-03-15", days: 6 });
  });
  it("refuses `from` after `to` and more than 366 days", () => {
    expect(() => analyticsRange({ from: "2026-03-02", to: "2026-03-01" }, now)).toThrow(/after/);
    expect(() => analyticsRange({ from: "2024-01-01", to: "2025-01-01" }, now)).toThrow(/366/);
    expect(analyticsRange({ from: "2024-01-01", to: "2024-12-31" }, now).days).toBe(366);
  });
});
