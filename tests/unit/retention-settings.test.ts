import { describe, expect, it } from "vitest";
import { buildEnv, EnvironmentError } from "@/lib/env";
import { daysBefore, monthsBefore, retentionSettings } from "@/lib/services/retention/settings";

describe("retention settings", () => {
  it("default to the periods the privacy page promises", () => {
    expect(retentionSettings(buildEnv({ NODE_ENV: "development" }))).toEqual({
      finderTracesDays: 30,
      scansMonths: 13,
      closedMessagesMonths: 12,
      readNotificationsMonths: 6,
      operationalDays: 30,
      paymentEventsDays: 90,
      jobsDays: 7,
      schedule: "17 3 * * *",
    });
  });

  it("read the environment, and `off` turns the schedule off", () => {
    const settings = retentionSettings(buildEnv({ NODE_ENV: "development", RETENTION_FINDER_TRACES_DAYS: "7", RETENTION_SCANS_MONTHS: "24", RETENTION_SCHEDULE: "off" }));
    expect(settings).toMatchObject({ finderTracesDays: 7, scansMonths: 24, schedule: null });
  });

  it.each([
    ["RETENTION_FINDER_TRACES_DAYS", "0"],
    ["RETENTION_FINDER_TRACES_DAYS", "366"],
    ["RETENTION_SCANS_MONTHS", "1.5"],
    ["RETENTION_READ_NOTIFICATIONS_MONTHS", "-1"],
    ["RETENTION_PAYMENT_EVENTS_DAYS", "3"],
    ["RETENTION_SCHEDULE", "daily"],
  ])("refuse %s=%s", (name, value) => {
    expect(() => buildEnv({ NODE_ENV: "development", [name]: value })).toThrow(EnvironmentError);
  });
});

describe("retention cutoffs", () => {
  it("count months on the calendar, in UTC, ending on a shorter month's last day", () => {
    expect(monthsBefore(new Date("2026-03-31T03:17:00Z"), 1).toISOString()).toBe("2026-02-28T03:17:00.000Z");
    expect(monthsBefore(new Date("2026-11-27T03:17:00Z"), 13).toISOString()).toBe("2025-10-27T03:17:00.000Z");
    expect(monthsBefore(new Date("2028-02-29T00:00:00Z"), 12).toISOString()).toBe("2027-02-28T00:00:00.000Z");
  });

  it("count days as 24 hours", () => {
    expect(daysBefore(new Date("2026-11-27T03:17:00Z"), 30).toISOString()).toBe("2026-10-28T03:17:00.000Z");
  });
});
