import { describe, expect, it } from "vitest";
import { createSendPace, SendPaceTimeoutError } from "@/lib/email/send-pace";

/** A clock that only moves when the pace sleeps, and a counter that refuses until a given time. */
function fakeWorld(windowsRefused: number, windowMs = 1_000) {
  let nowMs = 10_250;
  const sleeps: number[] = [];
  const asked: number[] = [];
  return {
    sleeps,
    asked,
    now: () => nowMs,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      nowMs += ms;
    },
    takeSlot: async () => {
      asked.push(nowMs);
      const windowEnd = Math.floor(nowMs / windowMs) * windowMs + windowMs;
      return { allowed: asked.length > windowsRefused, reset: Math.ceil(windowEnd / 1000) };
    },
  };
}

describe("the e-mail send pace", () => {
  it("sends at once while the window has room", async () => {
    const world = fakeWorld(0);
    await createSendPace(world)();
    expect(world.asked).toHaveLength(1);
    expect(world.sleeps).toEqual([]);
  });

  it("refused, sleeps until the window ends (plus under 50 ms of jitter) and asks again", async () => {
    const world = fakeWorld(2);
    await createSendPace(world)();
    expect(world.asked).toHaveLength(3);
    // Refused at 10.25 s (window ends at 11 s), then again in the next window (ends at 12 s).
    expect(world.sleeps[0]).toBeGreaterThanOrEqual(750);
    expect(world.sleeps[0]).toBeLessThan(800);
    expect(world.asked[1]).toBeGreaterThanOrEqual(11_000);
    expect(world.asked[2]).toBeGreaterThanOrEqual(12_000);
  });

  it("gives up with SendPaceTimeoutError rather than wait past maxWaitMs", async () => {
    const world = fakeWorld(Number.POSITIVE_INFINITY);
    const error = await createSendPace({ ...world, maxWaitMs: 5_000 })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SendPaceTimeoutError);
    const slept = world.sleeps.reduce((sum, ms) => sum + ms, 0);
    expect(slept).toBeLessThanOrEqual(5_000);
    expect(slept).toBeGreaterThan(3_000);
  });

  it("never spins: a window already over still waits a few milliseconds before asking again", async () => {
    const world = fakeWorld(1);
    await createSendPace({ ...world, takeSlot: async () => ({ ...(await world.takeSlot()), reset: 0 }) })();
    expect(world.sleeps[0]).toBeGreaterThanOrEqual(5);
  });
});
