import { describe, expect, it } from "vitest";
import { isInsideQuietHours } from "@/lib/services/relay/quiet-hours";

const night = { from: "22:00", to: "07:00" };
const lunch = { from: "12:00", to: "13:30" };

describe("isInsideQuietHours", () => {
  it("wraps midnight: from included, to excluded", () => {
    expect(isInsideQuietHours(new Date("2026-03-10T21:59:00Z"), night, "UTC")).toBe(false);
    expect(isInsideQuietHours(new Date("2026-03-10T22:00:00Z"), night, "UTC")).toBe(true);
    expect(isInsideQuietHours(new Date("2026-03-10T23:59:00Z"), night, "UTC")).toBe(true);
    expect(isInsideQuietHours(new Date("2026-03-11T00:00:00Z"), night, "UTC")).toBe(true);
    expect(isInsideQuietHours(new Date("2026-03-11T06:59:00Z"), night, "UTC")).toBe(true);
    expect(isInsideQuietHours(new Date("2026-03-11T07:00:00Z"), night, "UTC")).toBe(false);
    expect(isInsideQuietHours(new Date("2026-03-11T12:00:00Z"), night, "UTC")).toBe(false);
  });

  it("handles a window within one day", () => {
    expect(isInsideQuietHours(new Date("2026-03-10T11:59:00Z"), lunch, "UTC")).toBe(false);
    expect(isInsideQuietHours(new Date("2026-03-10T12:00:00Z"), lunch, "UTC")).toBe(true);
    expect(isInsideQuietHours(new Date("2026-03-10T13:29:00Z"), lunch, "UTC")).toBe(true);
    expect(isInsideQuietHours(new Date("2026-03-10T13:30:00Z"), lunch, "UTC")).toBe(false);
  });

  it("reads the clock in the owner's zone, the same instant quiet in one and not in another", () => {
    const instant = new Date("2026-03-10T21:30:00Z");
    expect(isInsideQuietHours(instant, night, "Europe/Berlin")).toBe(true); // 22:30 in Berlin (UTC+1 in March)
    expect(isInsideQuietHours(instant, night, "UTC")).toBe(false); // 21:30
    expect(isInsideQuietHours(instant, night, "America/New_York")).toBe(false); // 17:30
    expect(isInsideQuietHours(instant, night, "Asia/Tokyo")).toBe(true); // 06:30 the next morning
    expect(isInsideQuietHours(instant, night, "Asia/Kolkata")).toBe(true); // 03:00 the next morning
    // A half-hour zone: Kolkata (UTC+5:30) reaches 22:00 at 16:30 UTC.
    expect(isInsideQuietHours(new Date("2026-03-10T16:29:00Z"), night, "Asia/Kolkata")).toBe(false);
    expect(isInsideQuietHours(new Date("2026-03-10T16:30:00Z"), night, "Asia/Kolkata")).toBe(true);
  });

  it("follows daylight saving time", () => {
    // New York: 22:30 local is 02:30 UTC in winter (UTC-5) and 02:30 UTC is 22:30 in summer (UTC-4) as well as 21:30 in winter.
    expect(isInsideQuietHours(new Date("2026-01-15T03:30:00Z"), night, "America/New_York")).toBe(true); // 22:30 EST
    expect(isInsideQuietHours(new Date("2026-07-15T01:30:00Z"), night, "America/New_York")).toBe(false); // 21:30 EDT
    expect(isInsideQuietHours(new Date("2026-01-15T01:30:00Z"), night, "America/New_York")).toBe(false); // 20:30 EST
    expect(isInsideQuietHours(new Date("2026-07-15T02:30:00Z"), night, "America/New_York")).toBe(true); // 22:30 EDT
  });

  it("is never quiet without quiet hours or with an empty window", () => {
    expect(isInsideQuietHours(new Date("2026-03-10T23:00:00Z"), null, "UTC")).toBe(false);
    expect(isInsideQuietHours(new Date("2026-03-10T23:00:00Z"), { from: "23:00", to: "23:00" }, "UTC")).toBe(false);
  });
});
