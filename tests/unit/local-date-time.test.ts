import { describe, expect, it } from "vitest";
import { instantOfLocalDateTime, localDateTimeInput } from "@/lib/i18n/time-zones";

describe("datetime-local values in a time zone", () => {
  it("shows an instant on the zone's wall clock", () => {
    expect(localDateTimeInput(new Date("2026-03-12T13:05:40Z"), "Europe/Berlin")).toBe("2026-03-12T14:05");
    expect(localDateTimeInput(new Date("2026-07-01T23:30:00Z"), "America/New_York")).toBe("2026-07-01T19:30");
    expect(localDateTimeInput(new Date("2026-07-01T23:30:00Z"), "Not/AZone")).toBe("2026-07-01T23:30");
  });

  it("reads a wall-clock time back as the instant, in winter and summer time", () => {
    expect(instantOfLocalDateTime("2026-03-12T14:05", "Europe/Berlin")?.toISOString()).toBe("2026-03-12T13:05:00.000Z");
    expect(instantOfLocalDateTime("2026-07-12T14:05", "Europe/Berlin")?.toISOString()).toBe("2026-07-12T12:05:00.000Z");
    expect(instantOfLocalDateTime("2026-07-12T14:05:30", "Asia/Tokyo")?.toISOString()).toBe("2026-07-12T05:05:30.000Z");
    expect(instantOfLocalDateTime("2026-07-12T14:05", "UTC")?.toISOString()).toBe("2026-07-12T14:05:00.000Z");
  });

  it("round-trips", () => {
    const now = new Date("2026-11-27T06:59:00Z");
    for (const zone of ["Europe/Madrid", "America/Los_Angeles", "Australia/Adelaide", "UTC"]) {
      expect(instantOfLocalDateTime(localDateTimeInput(now, zone), zone)?.toISOString()).toBe(now.toISOString());
    }
  });

  it("refuses what is not a datetime-local value", () => {
    for (const bad of ["", "yesterday", "2026-02-30T10:00", "2026-13-01T10:00", "2026-01-01T24:00", "2026-01-01 10:00", "2026-01-01T10:00Z"]) {
      expect(instantOfLocalDateTime(bad, "Europe/Berlin"), bad).toBeNull();
    }
  });
});
