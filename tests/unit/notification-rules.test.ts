import { describe, expect, it } from "vitest";
import { notificationType } from "@/db/schema";
import { channelEnabled, defaultPreferences, deliverAfter, isUrgent, type NotificationType, type Preferences } from "@/lib/services/notifications/rules";

const USER = "5b8c8f0e-2f55-4a0d-9d3b-2f4f9a3e6c11";

/** The preference switch each type answers to; null: always delivered. */
const GROUP: Record<NotificationType, "TagScanned" | "MessageReceived" | "StatusChange" | "LostPetNearby" | null> = {
  TAG_SCANNED: "TagScanned",
  MESSAGE_RECEIVED: "MessageReceived",
  CALL_RECEIVED: "MessageReceived",
  CALL_MISSED: "MessageReceived",
  TAG_STATUS_CHANGED: "StatusChange",
  TAG_CLONE_DETECTED: "StatusChange",
  FINDER_LOCATION_SHARED: "StatusChange",
  EMERGENCY_ACCESSED: "StatusChange",
  REWARD_UPDATED: "StatusChange",
  TRANSFER_RECEIVED: "StatusChange",
  LOST_PET_NEARBY: "LostPetNearby",
  FOUND_PET_MATCH: null,
  ORDER_UPDATED: null,
  PAYMENT_FAILED: null,
  SUBSCRIPTION_UPDATED: null,
  SECURITY: null,
};

const allOff = (): Preferences => ({
  ...defaultPreferences(USER),
  emailTagScanned: false,
  emailMessageReceived: false,
  emailStatusChange: false,
  emailMarketing: false,
  pushTagScanned: false,
  pushMessageReceived: false,
  pushStatusChange: false,
  emailLostPetNearby: false,
  pushLostPetNearby: false,
});

const quiet = (start: string | null, end: string | null, timeZone = "UTC"): Preferences => ({ ...defaultPreferences(USER), quietHoursStart: start, quietHoursEnd: end, timeZone });

describe("channelEnabled", () => {
  it("covers every notification type of the database enum", () => {
    expect(Object.keys(GROUP).sort()).toEqual([...notificationType.enumValues].sort());
    expect(notificationType.enumValues).toHaveLength(16);
  });

  it("sends everything on both channels with the default preferences", () => {
    for (const type of notificationType.enumValues) {
      expect(channelEnabled(defaultPreferences(USER), type, "email"), type).toBe(true);
      expect(channelEnabled(defaultPreferences(USER), type, "push"), type).toBe(true);
    }
  });

  it.each(notificationType.enumValues.map((type) => [type] as const))("%s follows its own switch per channel, or always goes", (type) => {
    const group = GROUP[type];
    for (const channel of ["email", "push"] as const) {
      const off = allOff();
      expect(channelEnabled(off, type, channel), `${type} ${channel} with everything off`).toBe(group === null);
      if (group === null) continue;
      const key = `${channel}${group}` as keyof Preferences;
      const onlyThis = { ...off, [key]: true } as Preferences;
      expect(channelEnabled(onlyThis, type, channel), `${type} ${channel} with ${key} on`).toBe(true);
      const other = channel === "email" ? "push" : "email";
      expect(channelEnabled(onlyThis, type, other), `${type} ${other} with only ${key} on`).toBe(false);
    }
  });

  it("never lets the marketing switch gate a notification", () => {
    const marketingOnly = { ...allOff(), emailMarketing: true };
    expect(notificationType.enumValues.filter((type) => channelEnabled(marketingOnly, type, "email")).sort()).toEqual(["FOUND_PET_MATCH", "ORDER_UPDATED", "PAYMENT_FAILED", "SECURITY", "SUBSCRIPTION_UPDATED"]);
  });
});

describe("isUrgent", () => {
  it("treats scans of LOST and STOLEN tags as urgent", () => {
    expect(isUrgent("TAG_SCANNED", { tagStatus: "LOST" })).toBe(true);
    expect(isUrgent("TAG_SCANNED", { tagStatus: "STOLEN" })).toBe(true);
  });

  it("does not hurry other scans", () => {
    expect(isUrgent("TAG_SCANNED", { tagStatus: "ACTIVE" })).toBe(false);
    expect(isUrgent("TAG_SCANNED", { tagStatus: "FOUND" })).toBe(false);
    expect(isUrgent("TAG_SCANNED", {})).toBe(false);
  });

  it("treats emergency access, clone detection and a shelter's match for a lost pet as urgent whatever the data", () => {
    expect(isUrgent("EMERGENCY_ACCESSED", {})).toBe(true);
    expect(isUrgent("TAG_CLONE_DETECTED", {})).toBe(true);
    expect(isUrgent("FOUND_PET_MATCH", {})).toBe(true);
  });

  it("does not treat the other types as urgent, even with a LOST tag status in their data", () => {
    const others = notificationType.enumValues.filter((type) => !["TAG_SCANNED", "EMERGENCY_ACCESSED", "TAG_CLONE_DETECTED", "FOUND_PET_MATCH"].includes(type));
    expect(others).toHaveLength(12);
    for (const type of others) expect(isUrgent(type, { tagStatus: "LOST" }), type).toBe(false);
  });
});

describe("deliverAfter", () => {
  const at = (iso: string) => new Date(iso);

  it("delivers at once without quiet hours, or with only half of them set, or an empty window", () => {
    const now = at("2026-03-10T23:30:00.000Z");
    expect(deliverAfter(defaultPreferences(USER), now, false)).toBeNull();
    expect(deliverAfter(quiet("22:00", null), now, false)).toBeNull();
    expect(deliverAfter(quiet(null, "07:00"), now, false)).toBeNull();
    expect(deliverAfter(quiet("22:00", "22:00"), now, false)).toBeNull();
  });

  it("delivers at once outside a daytime window", () => {
    const prefs = quiet("09:00", "17:00");
    expect(deliverAfter(prefs, at("2026-03-10T08:59:59.000Z"), false)).toBeNull();
    expect(deliverAfter(prefs, at("2026-03-10T17:00:00.000Z"), false)).toBeNull();
    expect(deliverAfter(prefs, at("2026-03-10T20:00:00.000Z"), false)).toBeNull();
  });

  it("holds until the end of a daytime window when inside it (start inclusive)", () => {
    const prefs = quiet("09:00", "17:00");
    expect(deliverAfter(prefs, at("2026-03-10T09:00:00.000Z"), false)?.toISOString()).toBe("2026-03-10T17:00:00.000Z");
    expect(deliverAfter(prefs, at("2026-03-10T12:34:56.789Z"), false)?.toISOString()).toBe("2026-03-10T17:00:00.000Z");
    expect(deliverAfter(prefs, at("2026-03-10T16:59:30.000Z"), false)?.toISOString()).toBe("2026-03-10T17:00:00.000Z");
  });

  it("wraps midnight: held before and after midnight, released outside", () => {
    const prefs = quiet("22:00", "07:00");
    expect(deliverAfter(prefs, at("2026-03-10T23:30:15.000Z"), false)?.toISOString()).toBe("2026-03-11T07:00:00.000Z");
    expect(deliverAfter(prefs, at("2026-03-10T22:00:00.000Z"), false)?.toISOString()).toBe("2026-03-11T07:00:00.000Z");
    expect(deliverAfter(prefs, at("2026-03-11T03:15:00.000Z"), false)?.toISOString()).toBe("2026-03-11T07:00:00.000Z");
    expect(deliverAfter(prefs, at("2026-03-11T07:00:00.000Z"), false)).toBeNull();
    expect(deliverAfter(prefs, at("2026-03-10T21:59:00.000Z"), false)).toBeNull();
    expect(deliverAfter(prefs, at("2026-03-10T12:00:00.000Z"), false)).toBeNull();
  });

  it("reads the window in the user's time zone (winter and summer offsets)", () => {
    const berlin = quiet("22:00", "07:00", "Europe/Berlin");
    // 21:30Z is 22:30 in Berlin in January (UTC+1): held until 07:00 Berlin = 06:00Z.
    expect(deliverAfter(berlin, at("2026-01-15T21:30:00.000Z"), false)?.toISOString()).toBe("2026-01-16T06:00:00.000Z");
    // 20:30Z is 22:30 in Berlin in July (UTC+2): held until 07:00 Berlin = 05:00Z.
    expect(deliverAfter(berlin, at("2026-07-15T20:30:00.000Z"), false)?.toISOString()).toBe("2026-07-16T05:00:00.000Z");
    // 20:30Z in January is 21:30 in Berlin: outside.
    expect(deliverAfter(berlin, at("2026-01-15T20:30:00.000Z"), false)).toBeNull();
  });

  it("treats the same instant differently in different zones", () => {
    const now = at("2026-01-15T03:00:00.000Z");
    expect(deliverAfter(quiet("22:00", "07:00", "UTC"), now, false)?.toISOString()).toBe("2026-01-15T07:00:00.000Z");
    // 03:00Z is 22:00 the evening before in New York (UTC-5): held until 07:00 New York = 12:00Z.
    expect(deliverAfter(quiet("22:00", "07:00", "America/New_York"), now, false)?.toISOString()).toBe("2026-01-15T12:00:00.000Z");
    // 03:00Z is 12:00 in Tokyo (UTC+9): outside.
    expect(deliverAfter(quiet("22:00", "07:00", "Asia/Tokyo"), now, false)).toBeNull();
  });

  it("works in zones with a half-hour offset", () => {
    // 17:00Z is 22:30 in Kolkata (UTC+5:30); 07:00 there is 01:30Z.
    expect(deliverAfter(quiet("22:00", "07:00", "Asia/Kolkata"), at("2026-05-01T17:00:00.000Z"), false)?.toISOString()).toBe("2026-05-02T01:30:00.000Z");
  });

  it("never holds an urgent notification", () => {
    const prefs = quiet("00:00", "23:59");
    expect(deliverAfter(prefs, at("2026-03-10T12:00:00.000Z"), false)).not.toBeNull();
    expect(deliverAfter(prefs, at("2026-03-10T12:00:00.000Z"), true)).toBeNull();
  });
});
