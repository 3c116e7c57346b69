import { describe, expect, it } from "vitest";
import { lastDigitsOf, normalizePhoneNumber } from "@/lib/services/relay/phone-number";
import { randomPin } from "@/lib/services/relay/pin";
import { relayQuietHoursInput, updateRelayInput } from "@/lib/services/relay/schemas";

describe("normalizePhoneNumber", () => {
  it("writes numbers in E.164 whatever their spacing and punctuation", () => {
    expect(normalizePhoneNumber("+1 (415) 555-2671")).toBe("+14155552671");
    expect(normalizePhoneNumber("  +49 151 23456789 ")).toBe("+4915123456789");
    expect(normalizePhoneNumber("+44 7911 123456")).toBe("+447911123456");
    expect(normalizePhoneNumber("+15005550006")).toBe("+15005550006");
  });

  it("reads a national number with its country", () => {
    expect(normalizePhoneNumber("0151 23456789", "DE")).toBe("+4915123456789");
    expect(normalizePhoneNumber("(415) 555-2671", "us")).toBe("+14155552671");
  });

  it("refuses what is not a valid number", () => {
    for (const input of ["", "12345", "0151 23456789", "+49 1", "+1 415 555 267", "+999 123456789", "call me", "+1".padEnd(50, "5")]) {
      expect(normalizePhoneNumber(input), input).toBeNull();
    }
  });

  it("shows only the last 2 digits", () => {
    expect(lastDigitsOf("+4915123456789")).toBe("89");
  });
});

describe("relay inputs", () => {
  it("draws PINs of 6 digits, leading zeros kept", () => {
    const pins = Array.from({ length: 2000 }, randomPin);
    for (const pin of pins) expect(pin).toMatch(/^\d{6}$/);
    expect(new Set(pins).size).toBeGreaterThan(1990);
  });

  it("takes quiet hours as 24-hour HH:MM that differ", () => {
    expect(relayQuietHoursInput.safeParse({ from: "22:00", to: "07:00" }).success).toBe(true);
    expect(relayQuietHoursInput.safeParse({ from: "24:00", to: "07:00" }).success).toBe(false);
    expect(relayQuietHoursInput.safeParse({ from: "7:00", to: "22:00" }).success).toBe(false);
    expect(relayQuietHoursInput.safeParse({ from: "22:00", to: "22:00" }).success).toBe(false);
    expect(updateRelayInput.safeParse({ enabled: true, quietHours: null }).success).toBe(true);
    expect(updateRelayInput.safeParse({ enabled: "yes" }).success).toBe(false);
  });
});
