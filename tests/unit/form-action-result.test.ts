import { afterEach, describe, expect, it, vi } from "vitest";
import { errorState } from "@/lib/forms/action-result";
import { log } from "@/lib/log";

/** A driver error as drizzle hands it on: the SQLSTATE on the cause. */
const wrapped = (code: string) => new Error("Failed query: update …", { cause: Object.assign(new Error("driver"), { code }) });

describe("a form action's failure", () => {
  afterEach(() => vi.restoreAllMocks());

  it("shows a transaction rolled back for a deadlock as the API's 503 does: try again, logged as a warning", () => {
    const warn = vi.spyOn(log, "warn").mockImplementation(() => {});
    const error = vi.spyOn(log, "error").mockImplementation(() => {});
    const state = errorState(wrapped("40P01"), { name: "Rex" });
    expect(state).toMatchObject({ status: "error", values: { name: "Rex" } });
    expect(state.message).toMatch(/try again/i);
    expect(state.message).not.toMatch(/on our side/);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(error).not.toHaveBeenCalled();
  });

  it("keeps anything unexpected a generic failure, logged as an error", () => {
    const error = vi.spyOn(log, "error").mockImplementation(() => {});
    const state = errorState(wrapped("23505"));
    expect(state.message).toBe("Something went wrong on our side. Please try again in a moment.");
    expect(error).toHaveBeenCalledTimes(1);
  });
});
