import { describe, expect, it } from "vitest";
import { planFindings, type PlanNode } from "../support/query-plans";

// The rules of tests/integration/query-plans.test.ts on hand-made plans.
const large = new Map([["scans", 200_000]]);
const node = (type: string, extra: Partial<PlanNode> = {}, plans?: PlanNode[]): PlanNode => ({ "Node Type": type, ...extra, ...(plans ? { Plans: plans } : {}) });

describe("planFindings", () => {
  it("reports a sequential scan of a large table, even under a Limit, and not of a small one", () => {
    expect(planFindings(node("Limit", {}, [node("Seq Scan", { "Relation Name": "scans", "Plan Rows": 20 })]), large, 5_000)).toEqual([
      { table: "scans", kind: "sequential scan", problem: "Seq Scan on scans" },
    ]);
    expect(planFindings(node("Seq Scan", { "Relation Name": "products", "Plan Rows": 50 }), large, 5_000)).toEqual([]);
  });

  it("reports an index read of many rows unless a Limit stops it early with nothing blocking in between", () => {
    const many = () => node("Index Scan", { "Relation Name": "scans", "Index Name": "scans_tag_scanned_idx", "Plan Rows": 60_000 });
    expect(planFindings(node("Aggregate", {}, [many()]), large, 5_000)).toEqual([
      { table: "scans", kind: "unbounded read", problem: "Index Scan on scans reads ~60000 rows through scans_tag_scanned_idx" },
    ]);
    expect(planFindings(node("Limit", {}, [many()]), large, 5_000)).toEqual([]);
    expect(planFindings(node("Aggregate", {}, [node("Limit", {}, [many()])]), large, 5_000)).toEqual([]);
    expect(planFindings(node("Limit", {}, [node("Sort", {}, [many()])]), large, 5_000)).toHaveLength(1);
    expect(planFindings(node("Index Scan", { "Relation Name": "scans", "Plan Rows": 20 }), large, 5_000)).toEqual([]);
  });
});
