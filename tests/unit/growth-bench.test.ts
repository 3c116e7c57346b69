import { describe, expect, it } from "vitest";
import { growthSizes, growthTable, type GrowthResult, type SizeResult, type Timing } from "../../bench/growth";
import { volumesAt } from "../../bench/growth-seed";

// The growth bench's arguments and its table (bench/growth.ts); the seed is tested in tests/integration/growth-seed.test.ts.

const timing = (key: string, p50: number, p95: number, extra: Partial<Timing> = {}): Timing => ({ key, title: key, p50, p95, calls: 20, failures: [], ...extra });

const size = (percent: number, timings: Timing[]): SizeResult => ({
  percent,
  database: `growth_bench_${percent}`,
  volumes: volumesAt(percent),
  seedSteps: [],
  seedMs: 0,
  laterMigrations: [],
  laterMigrationsMs: 0,
  vacuumMs: 0,
  databaseBytes: 0,
  tableBytes: {},
  timings,
  loadAverage: [0, 0, 0],
});

describe("growth bench", () => {
  it("takes --sizes as percentages, smallest first, 1, 10 and 100 by default", () => {
    expect(growthSizes([])).toEqual([1, 10, 100]);
    expect(growthSizes(["--sizes=100,0.1,10,10"])).toEqual([0.1, 10, 100]);
    expect(() => growthSizes(["--sizes=0"])).toThrow(/percentages/);
    expect(() => growthSizes(["--sizes=150"])).toThrow(/percentages/);
    expect(() => growthSizes(["--sizes=a"])).toThrow(/percentages/);
  });

  it("prints each read's p50 / p95 per size and the growth of its p50, in bold above 2×, with failed answers and notes", () => {
    const result: GrowthResult = {
      date: "2026-11-27T10:00:00.000Z",
      calls: 20,
      cursorSupported: true,
      explained: [],
      sizes: [
        size(1, [timing("stats", 10, 12), timing("tags", 4, 5), timing("cursor", 3, 4, { note: "page 100" })]),
        size(100, [timing("stats", 350, 420, { failures: ["503", "503"] }), timing("tags", 6, 9), timing("cursor", 3.3, 4, { note: "page 5,000" })]),
      ],
    };
    const lines = growthTable(result).split("\n");
    expect(lines[0]).toBe("| read | 1% p50 / p95 ms | full size p50 / p95 ms | growth (p50) |");
    expect(lines).toContain("| stats | 10 / 12 | 350 / 420 (2× 503) | **35.0×** |");
    expect(lines).toContain("| tags | 4 / 5 | 6 / 9 | 1.5× |");
    expect(lines).toContain("| cursor | 3 / 4 (page 100) | 3.3 / 4 (page 5,000) | 1.1× |");
  });
});
