import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import type { Logger } from "drizzle-orm";
import { schema, setDatabase, type Database, type DatabaseHandle } from "@/db/client";

/**
 * What the query-plan test needs: every statement the app's drizzle sends, with its parameters (a drizzle
 * logger on a handle over the test database's own connections, installed as the process-wide handle so route
 * handlers use it), and each one's plan from EXPLAIN (FORMAT JSON) with those parameters.
 */

export interface CapturedStatement {
  sql: string;
  params: unknown[];
}

export class CapturingLogger implements Logger {
  statements: CapturedStatement[] = [];
  logQuery(query: string, params: unknown[]): void {
    this.statements.push({ sql: query, params });
  }
  take(): CapturedStatement[] {
    const taken = this.statements;
    this.statements = [];
    return taken;
  }
}

/** The same handle, its drizzle logging every statement to `logger`. */
export function capturingHandle(handle: DatabaseHandle, logger: CapturingLogger): DatabaseHandle {
  const options = { schema, casing: "snake_case" as const, logger };
  const db = (handle.kind === "postgres" ? drizzlePostgres(handle.sql, options) : drizzlePglite(handle.pglite, options)) as unknown as Database;
  const captured = { ...handle, db } as DatabaseHandle;
  setDatabase(captured);
  return captured;
}

/** Runs a statement with positional parameters on the handle's own connection (no drizzle, not captured). */
export async function rawQuery<T = Record<string, unknown>>(handle: DatabaseHandle, text: string, params: unknown[] = []): Promise<T[]> {
  if (handle.kind === "postgres") return (await handle.sql.unsafe(text, params as never[])) as unknown as T[];
  return (await handle.pglite.query<T>(text, params)).rows;
}

/** Runs a script of several statements without parameters, in one transaction without a statement timeout. */
export async function rawScript(handle: DatabaseHandle, text: string): Promise<void> {
  if (handle.kind === "postgres") {
    await handle.sql.begin(async (tx) => {
      await tx.unsafe("SET LOCAL statement_timeout = 0");
      await tx.unsafe(text).simple();
    });
  } else {
    await handle.pglite.transaction((tx) => tx.exec(text).then(() => undefined));
  }
}

export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Plan Rows"?: number;
  Plans?: PlanNode[];
  [key: string]: unknown;
}

/** Statements EXPLAIN can plan (reads and writes; a transaction's control statements are not logged by drizzle). */
export function isExplainable(text: string): boolean {
  return /^\s*(\(?\s*select|with|insert|update|delete)\b/i.test(text);
}

/**
 * The plan PostgreSQL chooses for the statement with these parameter values (a custom plan, not run), with
 * sequential scans switched off: a test database is small enough that reading a table whole may rightly be
 * the cheapest plan, where at production sizes it would not be, as long as an index can serve the query.
 * A sequential scan left in such a plan means no index can.
 */
export async function explain(handle: DatabaseHandle, statement: CapturedStatement, options: { genericPlan?: boolean } = {}): Promise<PlanNode> {
  // The generic plan: the one a named prepared statement (db/availability.ts names every statement with parameters) may settle on after
  // five runs, planned without the parameters' values, as EXPLAIN of a PREPAREd statement shows it.
  const name = `explained_${Math.random().toString(36).slice(2)}`;
  const prepare = options.genericPlan ? [`PREPARE ${name} AS ${statement.sql}`, "SET LOCAL plan_cache_mode = force_generic_plan"] : [];
  // EXECUTE's arguments as literals, of no type until they meet the prepared statement's parameters.
  const literal = (value: unknown) =>
    typeof value === "number" || typeof value === "boolean"
      ? String(value)
      : value === null || value === undefined
        ? "NULL"
        : `'${(value instanceof Date ? value.toISOString() : typeof value === "object" ? JSON.stringify(value) : String(value)).replace(/'/g, "''")}'`;
  const args = statement.params.map(literal).join(", ");
  const text = options.genericPlan ? `EXPLAIN (FORMAT JSON) EXECUTE ${name}${args ? `(${args})` : ""}` : `EXPLAIN (FORMAT JSON) ${statement.sql}`;
  const params = options.genericPlan ? [] : statement.params;
  let value: unknown;
  if (handle.kind === "postgres") {
    value = await handle.sql.begin(async (tx) => {
      await tx.unsafe("SET LOCAL enable_seqscan = off");
      for (const step of prepare) await tx.unsafe(step);
      const [row] = await tx.unsafe(text, params as never[]);
      if (options.genericPlan) await tx.unsafe(`DEALLOCATE ${name}`);
      return (row as Record<string, unknown>)["QUERY PLAN"];
    });
  } else {
    value = await handle.pglite.transaction(async (tx) => {
      await tx.exec("SET LOCAL enable_seqscan = off");
      for (const step of prepare) await tx.exec(step);
      const { rows } = await tx.query<Record<string, unknown>>(text, params);
      if (options.genericPlan) await tx.exec(`DEALLOCATE ${name}`);
      return rows[0]?.["QUERY PLAN"];
    });
  }
  const parsed = (typeof value === "string" ? JSON.parse(value) : value) as Array<{ Plan: PlanNode }>;
  return parsed[0]!.Plan;
}

/** Nodes that consume all their input before giving a row: a Limit above one does not bound what is read below it. */
const BLOCKING_NODES = new Set(["Sort", "Aggregate", "Hash", "Materialize", "SetOp", "WindowAgg", "Unique", "Group"]);
const SCAN_NODES = new Set(["Seq Scan", "Index Scan", "Index Only Scan", "Bitmap Heap Scan"]);

export interface PlanFinding {
  table: string;
  /** `sequential scan` or `unbounded read`: what the test's list of known findings names. */
  kind: "sequential scan" | "unbounded read";
  /** The node in words, with its estimate. */
  problem: string;
}

/**
 * What a plan reads of the large tables that grows with them: a sequential scan (no index serves the
 * query), or a scan expected to return `manyRows` or more that no Limit stops early (a whole table's or
 * a whole user's rows counted, grouped or sorted on every call).
 */
export function planFindings(plan: PlanNode, large: Map<string, number>, manyRows: number): PlanFinding[] {
  const findings: PlanFinding[] = [];
  const visit = (node: PlanNode, bounded: boolean) => {
    const type = node["Node Type"];
    const table = node["Relation Name"];
    if (table && large.has(table) && SCAN_NODES.has(type)) {
      const rows = node["Plan Rows"] ?? 0;
      if (type === "Seq Scan") findings.push({ table, kind: "sequential scan", problem: `Seq Scan on ${table}` });
      else if (!bounded && rows >= manyRows) {
        findings.push({ table, kind: "unbounded read", problem: `${type} on ${table} reads ~${rows} rows${node["Index Name"] ? ` through ${node["Index Name"]}` : ""}` });
      }
    }
    const childBounded = type === "Limit" ? true : BLOCKING_NODES.has(type) ? false : bounded;
    for (const child of node.Plans ?? []) visit(child, childBounded);
  };
  visit(plan, false);
  return findings;
}

export function planNodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(planNodes)];
}

/** The tables of the public schema with at least `minRows` rows by the planner's statistics (run ANALYZE first). */
export async function largeTables(handle: DatabaseHandle, minRows: number): Promise<Map<string, number>> {
  const rows = await rawQuery<{ relname: string; reltuples: number | string }>(
    handle,
    "select c.relname, c.reltuples from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind in ('r', 'p') and c.reltuples >= $1",
    [minRows],
  );
  return new Map(rows.map((row) => [row.relname, Number(row.reltuples)]));
}

/** A one-line form of a plan for a failure message: node types with their relation or index. */
export function planSummary(plan: PlanNode): string {
  const describe = (node: PlanNode): string => {
    const target = node["Relation Name"] ?? node["Index Name"];
    const inner = (node.Plans ?? []).map(describe).join(", ");
    return `${node["Node Type"]}${target ? ` on ${target}` : ""}${inner ? ` (${inner})` : ""}`;
  };
  return describe(plan);
}
