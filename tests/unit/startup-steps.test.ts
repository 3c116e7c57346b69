import { afterEach, describe, expect, it, vi } from "vitest";
import { log } from "@/lib/log";
import { runStartupSteps } from "@/lib/startup-steps";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("runStartupSteps", () => {
  it("runs every step in order and reports none failed", async () => {
    const ran: string[] = [];
    const failed = await runStartupSteps(["a", "b", "c"].map((name) => ({ name, run: async () => void ran.push(name) })));
    expect(ran).toEqual(["a", "b", "c"]);
    expect(failed).toEqual([]);
  });

  it("goes on past a failed step and retries it alone, every interval, until it passes", async () => {
    vi.useFakeTimers();
    const errors = vi.spyOn(log, "error").mockImplementation(() => {});
    const info = vi.spyOn(log, "info").mockImplementation(() => {});
    let seedAttempts = 0;
    const ran: string[] = [];
    const steps = [
      {
        name: "database setup",
        run: async () => {
          seedAttempts += 1;
          ran.push(`seed ${seedAttempts}`);
          if (seedAttempts < 3) throw Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
        },
      },
      { name: "job workers", run: async () => void ran.push("jobs") },
    ];

    expect(await runStartupSteps(steps, 1_000)).toEqual(["database setup"]);
    expect(ran).toEqual(["seed 1", "jobs"]);
    expect(errors).toHaveBeenCalledWith("startup step failed", expect.objectContaining({ step: "database setup", retryInMs: 1_000 }));

    await vi.advanceTimersByTimeAsync(999);
    expect(seedAttempts).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(ran).toEqual(["seed 1", "jobs", "seed 2"]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(ran).toEqual(["seed 1", "jobs", "seed 2", "seed 3"]);
    expect(info).toHaveBeenCalledWith("startup step done on a later try", { step: "database setup" });

    // Passed: no more attempts, and the step that passed the first time never ran again.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(ran).toEqual(["seed 1", "jobs", "seed 2", "seed 3"]);
  });
});
