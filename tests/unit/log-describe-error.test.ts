import { describe, expect, it } from "vitest";
import { DrizzleQueryError } from "drizzle-orm/errors";
import { describeError } from "@/lib/log";

describe("describeError", () => {
  it("keeps a failed query's statement and driver cause but never its parameters", () => {
    const cause = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    const error = new DrizzleQueryError('select "id" from "sessions" where "token_hash" = $1', ["secret-session-hash", "someone@example.com"], cause);
    const described = describeError(error);
    const text = JSON.stringify(described);
    expect(text).not.toContain("secret-session-hash");
    expect(text).not.toContain("someone@example.com");
    expect(described.errorMessage).toBe('Failed query: select "id" from "sessions" where "token_hash" = $1');
    expect(described.cause).toEqual({ errorName: "Error", errorCode: "ECONNREFUSED", errorMessage: "connect ECONNREFUSED 127.0.0.1:5432" });
    expect(String(described.stack)).toMatch(/^Error: Failed query: select .*\n\s+at /);
  });

  it("describes an ordinary error with its code, and a non-error as text", () => {
    expect(describeError(Object.assign(new TypeError("bad"), { code: "E_BAD" }))).toMatchObject({ errorName: "TypeError", errorMessage: "bad", errorCode: "E_BAD" });
    expect(describeError("plain")).toEqual({ error: "plain" });
  });
});
