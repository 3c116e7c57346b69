import { describe, expect, it } from "vitest";
import { formatDateTime, formDate } from "@/components/dashboard/dates";
import { canonicalTimeZone, endOfLocalDay, localDate, usableTimeZone } from "@/lib/i18n/time-zones";

describe("formatDateTime", () => {
  it("prints the moment on the zone's wall clock with the zone's short name", () => {
    expect(formatDateTime("2026-03-12T14:05:00.000Z", "UTC")).toBe("12 Mar 2026, 14:05 UTC");
    expect(formatDateTime("2026-03-12T14:05:00.000Z", "Europe/Berlin")).toBe("12 Mar 2026, 15:05 CET");
    expect(formatDateTime("2026-03-12T14:05:00.000Z", "Asia/Tokyo")).toBe("12 Mar 2026, 23:05 GMT+9");
    expect(formatDateTime("2026-03-12T14:05:00.000Z", "Asia/Kolkata")).toBe("12 Mar 2026, 19:35 GMT+5:30");
  });

  it("moves to the next day when the zone is already past midnight, and writes 00:xx, not 24:xx", () => {
    expect(formatDateTime("2026-03-12T23:05:00.000Z", "Europe/Berlin")).toBe("13 Mar 2026, 00:05 CET");
  });

  it("follows daylight saving time across the change (Berlin, 29 March 2026 at 01:00 UTC)", () => {
    expect(formatDateTime("2026-03-29T00:59:00.000Z", "Europe/Berlin")).toBe("29 Mar 2026, 01:59 CET");
    expect(formatDateTime("2026-03-29T01:00:00.000Z", "Europe/Berlin")).toBe("29 Mar 2026, 03:00 CEST");
    // New York changed on 8 March 2026: the same UTC time reads an hour apart before and after.
    expect(formatDateTime("2026-03-07T15:00:00.000Z", "America/New_York")).toBe("7 Mar 2026, 10:00 GMT-5");
    expect(formatDateTime("2026-03-09T15:00:00.000Z", "America/New_York")).toBe("9 Mar 2026, 11:00 GMT-4");
  });

  it("falls back to UTC for a zone Intl does not know, an offset or a hostile string", () => {
    for (const zone of ["Mars/Olympus_Mons", "+01:00", "", "Europe/Berlin; drop table", "../../etc/passwd", "x".repeat(500)]) {
      expect(formatDateTime("2026-03-12T14:05:00.000Z", zone)).toBe("12 Mar 2026, 14:05 UTC");
    }
  });

  it("prints a dash for no time or an unreadable one", () => {
    expect(formatDateTime(null, "Europe/Berlin")).toBe("—");
    expect(formatDateTime(undefined, "Europe/Berlin")).toBe("—");
    expect(formatDateTime("", "Europe/Berlin")).toBe("—");
    expect(formatDateTime("not a date", "Europe/Berlin")).toBe("—");
  });

  it("has a long form for the certificate", () => {
    expect(formatDateTime("2026-03-12T14:05:00.000Z", "Europe/Berlin", { long: true })).toBe("12 March 2026 at 15:05 CET");
  });
});

describe("formDate", () => {
  it("prints the day the moment falls on in the zone", () => {
    expect(formDate("2026-03-12T23:30:00.000Z", "UTC")).toBe("12 Mar 2026");
    expect(formDate("2026-03-12T23:30:00.000Z", "Asia/Tokyo")).toBe("13 Mar 2026");
    expect(formDate("2026-03-12T03:30:00.000Z", "America/Los_Angeles")).toBe("11 Mar 2026");
    expect(formDate("2026-03-12T23:30:00.000Z", "Asia/Tokyo", { long: true })).toBe("13 March 2026");
  });

  it("prints a dash for no date and UTC's day for an unknown zone", () => {
    expect(formDate(null, "UTC")).toBe("—");
    expect(formDate("2026-03-12T23:30:00.000Z", "Nowhere/Special")).toBe("12 Mar 2026");
  });
});

describe("time zone names", () => {
  it("canonicalises known zones and refuses the rest", () => {
    expect(canonicalTimeZone("america/new_york")).toBe("America/New_York");
    expect(canonicalTimeZone("UTC")).toBe("UTC");
    expect(canonicalTimeZone("Mars/Olympus_Mons")).toBeNull();
    expect(canonicalTimeZone("+01:00")).toBeNull();
    expect(canonicalTimeZone("Europe/Berlin\n")).toBeNull();
    expect(canonicalTimeZone(`Europe/${"a".repeat(200)}`)).toBeNull();
    expect(usableTimeZone(null)).toBe("UTC");
    expect(usableTimeZone("Asia/Tokyo")).toBe("Asia/Tokyo");
  });
});

describe("local days", () => {
  it("names the calendar day in the zone", () => {
    expect(localDate(new Date("2026-03-12T20:00:00.000Z"), "Asia/Tokyo")).toBe("2026-03-13");
    expect(localDate(new Date("2026-03-12T20:00:00.000Z"), "UTC")).toBe("2026-03-12");
    expect(localDate(new Date("2026-03-12T02:00:00.000Z"), "America/New_York")).toBe("2026-03-11");
  });

  it("ends a day at 23:59:59.999 on the zone's clock, DST days included", () => {
    expect(endOfLocalDay("2026-03-12", "UTC").toISOString()).toBe("2026-03-12T23:59:59.999Z");
    expect(endOfLocalDay("2026-03-12", "Asia/Tokyo").toISOString()).toBe("2026-03-12T14:59:59.999Z");
    expect(endOfLocalDay("2026-03-12", "Asia/Kolkata").toISOString()).toBe("2026-03-12T18:29:59.999Z");
    // Berlin springs forward on 29 March 2026 and falls back on 25 October 2026: that evening is CEST, then CET.
    expect(endOfLocalDay("2026-03-28", "Europe/Berlin").toISOString()).toBe("2026-03-28T22:59:59.999Z");
    expect(endOfLocalDay("2026-03-29", "Europe/Berlin").toISOString()).toBe("2026-03-29T21:59:59.999Z");
    expect(endOfLocalDay("2026-10-25", "Europe/Berlin").toISOString()).toBe("2026-10-25T22:59:59.999Z");
    // New York, behind UTC: the day ends on the next UTC day.
    expect(endOfLocalDay("2026-03-08", "America/New_York").toISOString()).toBe("2026-03-09T03:59:59.999Z");
    expect(endOfLocalDay("2026-03-12", "Not/A_Zone").toISOString()).toBe("2026-03-12T23:59:59.999Z");
  });
});
