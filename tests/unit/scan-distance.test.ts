import { describe, expect, it } from "vitest";
import { CLONE_RULES, greatCircleKm, isImpossibleTravel } from "@/lib/services/scans/distance";

const LONDON = { latitude: 51.5074, longitude: -0.1278 };
const PARIS = { latitude: 48.8566, longitude: 2.3522 };
const NEW_YORK = { latitude: 40.7128, longitude: -74.006 };
const LOS_ANGELES = { latitude: 34.0522, longitude: -118.2437 };
const SYDNEY = { latitude: -33.8688, longitude: 151.2093 };
const TOKYO = { latitude: 35.6762, longitude: 139.6503 };

const MINUTE = 60_000;

describe("greatCircleKm", () => {
  it.each([
    ["London–Paris", LONDON, PARIS, 344],
    ["New York–Los Angeles", NEW_YORK, LOS_ANGELES, 3936],
    ["Sydney–Tokyo", SYDNEY, TOKYO, 7823],
  ])("%s is about %i km", (_pair, a, b, km) => {
    expect(greatCircleKm(a, b)).toBeGreaterThan(km * 0.995);
    expect(greatCircleKm(a, b)).toBeLessThan(km * 1.005);
  });

  it("is symmetric, zero for one place, and half the circumference for antipodes", () => {
    expect(greatCircleKm(LONDON, PARIS)).toBeCloseTo(greatCircleKm(PARIS, LONDON), 9);
    expect(greatCircleKm(PARIS, PARIS)).toBe(0);
    expect(greatCircleKm({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 180 })).toBeCloseTo(Math.PI * 6371.0088, 3);
    // across the date line: two points 1° of longitude apart on the equator
    expect(greatCircleKm({ latitude: 0, longitude: 179.5 }, { latitude: 0, longitude: -179.5 })).toBeCloseTo(111.2, 1);
  });
});

describe("isImpossibleTravel (clone detection, docs/decisions/0018: ≥ 100 km within 5 minutes at over 1000 km/h)", () => {
  it("flags 101 km within 4:59 and not 99 km, nor 101 km at 5:01", () => {
    expect(isImpossibleTravel(101, 4 * MINUTE + 59_000)).toBe(true);
    expect(isImpossibleTravel(99, 4 * MINUTE + 59_000)).toBe(false);
    expect(isImpossibleTravel(99, 1_000)).toBe(false);
    expect(isImpossibleTravel(101, 5 * MINUTE + 1_000)).toBe(false);
  });

  it("takes exactly 100 km and exactly 5 minutes as inside the rule", () => {
    expect(isImpossibleTravel(100, 5 * MINUTE)).toBe(true);
    expect(isImpossibleTravel(99.999, 0)).toBe(false);
  });

  it("flags simultaneous scans far apart, and London–Paris two minutes apart", () => {
    expect(isImpossibleTravel(3936, 0)).toBe(true);
    expect(isImpossibleTravel(greatCircleKm(LONDON, PARIS), 2 * MINUTE)).toBe(true);
  });

  it("applies the speed rule when the window is longer than the distance needs", () => {
    const rules = { ...CLONE_RULES, windowMs: 60 * MINUTE };
    // 200 km in 15 minutes is 800 km/h: a plane could; in 11 minutes it is 1091 km/h: nothing can.
    expect(isImpossibleTravel(200, 15 * MINUTE, rules)).toBe(false);
    expect(isImpossibleTravel(200, 11 * MINUTE, rules)).toBe(true);
  });

  it("never flags a distance that is not a number", () => {
    expect(isImpossibleTravel(Number.NaN, 0)).toBe(false);
  });
});
