import { describe, expect, it } from "vitest";
import PgBoss from "pg-boss";
import { isTransactionScript, normalizeParameters, withScriptStatementTimeout } from "@/lib/jobs/adapters";
import { defineJob } from "@/lib/jobs/define";

describe("normalizeParameters", () => {
  it("turns undefined into null and serialises plain objects, leaving everything else as it is", () => {
    const when = new Date("2030-01-01T00:00:00Z");
    const bytes = new Uint8Array([1, 2]);
    const ids = ["0b7c2c8e-0000-4000-8000-000000000000"];
    expect(normalizeParameters([undefined, null, "text", 3, true, { a: 1, nested: { b: [1] } }, ids, when, bytes])).toEqual([
      null,
      null,
      "text",
      3,
      true,
      '{"a":1,"nested":{"b":[1]}}',
      ids,
      when,
      bytes,
    ]);
  });

  it("passes strings that already hold JSON through unchanged", () => {
    expect(normalizeParameters(['{"already":"json"}'])).toEqual(['{"already":"json"}']);
  });
});

describe("isTransactionScript", () => {
  it("recognises pg-boss's locked scripts: construction and maintenance", () => {
    expect(isTransactionScript(PgBoss.getConstructionPlans("pgboss"))).toBe(true);
    expect(isTransactionScript("\n    BEGIN;\n    SET LOCAL lock_timeout = '30s';\n    COMMIT;\n")).toBe(true);
  });

  it("does not mistake a plpgsql BEGIN or a plain query for one", () => {
    expect(isTransactionScript("CREATE FUNCTION f() RETURNS void AS $$ BEGIN\n PERFORM 1; END $$ LANGUAGE plpgsql")).toBe(false);
    expect(isTransactionScript("SELECT name FROM pgboss.queue")).toBe(false);
  });
});

describe("defineJob", () => {
  const handler = async (data: { id: string }) => void data;

  it("accepts a well-formed job and keeps its data type", () => {
    const job = defineJob({ name: "thing.do", retryLimit: 3, retryDelay: 10, retryBackoff: true, handler });
    expect(job.name).toBe("thing.do");
  });

  it("rejects names pg-boss or our logs would trip over, and invalid retry settings", () => {
    expect(() => defineJob({ name: "bad name", retryLimit: 1, retryDelay: 0, retryBackoff: false, handler })).toThrow(/Invalid job name/);
    expect(() => defineJob({ name: "x", retryLimit: -1, retryDelay: 0, retryBackoff: false, handler })).toThrow(/retryLimit/);
    expect(() => defineJob({ name: "x", retryLimit: 1, retryDelay: 1.5, retryBackoff: false, handler })).toThrow(/retryDelay/);
  });
});

describe("withScriptStatementTimeout", () => {
  it("sets the timeout first inside the script's transaction, once", () => {
    const script = "\n    BEGIN;\n    SET LOCAL lock_timeout = '30s';\n    SELECT 1;\n    COMMIT;\n";
    expect(withScriptStatementTimeout(script, 900_000)).toBe("\n    BEGIN;\nSET LOCAL statement_timeout = 900000;\n    SET LOCAL lock_timeout = '30s';\n    SELECT 1;\n    COMMIT;\n");
    const construction = withScriptStatementTimeout(PgBoss.getConstructionPlans("pgboss"), 900_000);
    expect(construction.match(/SET LOCAL statement_timeout = 900000;/g)).toHaveLength(1);
    expect(construction.indexOf("SET LOCAL statement_timeout")).toBeGreaterThan(construction.search(/BEGIN\s*;/i));
  });

  it("leaves a script without a transaction as it is", () => {
    expect(withScriptStatementTimeout("SELECT name FROM pgboss.queue", 900_000)).toBe("SELECT name FROM pgboss.queue");
  });
});
