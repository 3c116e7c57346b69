import { randomUUID } from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_NAMED_STATEMENT_PARAMETERS } from "@/db/availability";
import { connectPostgres, schema, type DatabaseHandle } from "@/db/client";
import { databaseUrl, usingPostgres } from "../support/database";
import { testDatabase } from "../support/integration-setup";

/**
 * Every statement with parameters goes out as a named prepared statement (db/availability.ts;
 * docs/decisions/0053-named-statements.md): parsed once per connection, then run by name in one round trip.
 * A pool of one connection, so what pg_prepared_statements shows is that session's.
 */

interface Prepared {
  statement: string;
  runs: number;
}

let handle: DatabaseHandle;

beforeAll(() => {
  if (usingPostgres()) handle = connectPostgres(databaseUrl(testDatabase().name), { max: 1 });
});

afterAll(async () => {
  await handle?.close();
});

/** The session's named statements that mention `marker` (read without parameters: the simple protocol, not named itself). */
async function prepared(marker: string): Promise<Prepared[]> {
  const rows = (await handle.db.execute(sql.raw("select statement, (generic_plans + custom_plans)::int as runs from pg_prepared_statements"))) as unknown as Prepared[];
  return rows.filter((row) => row.statement.includes(marker));
}

describe.runIf(usingPostgres())("named statements", () => {
  it("prepares a statement with parameters once on a connection and runs it again by name", async () => {
    const email = `named-${randomUUID()}@example.com`;
    for (let i = 0; i < 3; i++) {
      const rows = await handle.db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, email));
      expect(rows).toEqual([]);
    }
    const statements = await prepared(`"users"."email" = $1`);
    expect(statements).toHaveLength(1);
    expect(statements[0]!.runs).toBe(3);
  });

  it("does the same inside a transaction", async () => {
    const marker = `tx-${randomUUID()}`;
    await handle.db.transaction(async (tx) => {
      for (let i = 0; i < 2; i++) await tx.execute(sql`select ${marker}::text as marker, ${i}::int as round`);
    });
    const statements = await prepared("as marker, $2::int as round");
    expect(statements).toHaveLength(1);
    expect(statements[0]!.runs).toBe(2);
  });

  it("leaves a statement with more parameters than the limit unnamed, so batch sizes do not pile up", async () => {
    const ids = Array.from({ length: MAX_NAMED_STATEMENT_PARAMETERS + 1 }, () => randomUUID());
    expect(await handle.db.select({ id: schema.tags.id }).from(schema.tags).where(inArray(schema.tags.id, ids))).toEqual([]);
    expect(await prepared(`$${MAX_NAMED_STATEMENT_PARAMETERS + 1})`)).toEqual([]);
    // At the limit it is named.
    expect(await handle.db.select({ id: schema.tags.id }).from(schema.tags).where(inArray(schema.tags.id, ids.slice(0, MAX_NAMED_STATEMENT_PARAMETERS)))).toEqual([]);
    expect(await prepared(`$${MAX_NAMED_STATEMENT_PARAMETERS})`)).toHaveLength(1);
  });

  it("answers what the unnamed statement answers: the parameters' types learnt from the server on the first run, kept for the next", async () => {
    const query = sql`select ${"2026-11-27T12:34:56.789Z"}::timestamptz as at, ${42}::int + 1 as answer, ${"{a,b}"}::text[] as list, ${JSON.stringify({ k: "v" })}::jsonb as doc, ${null}::uuid as nothing`;
    const { sql: text, params } = new PgDialect().sqlToQuery(query);
    if (handle.kind !== "postgres") throw new Error("PostgreSQL only");
    const unnamed = await handle.sql.unsafe(text, params as never[], { prepare: false });
    expect(unnamed[0]).toMatchObject({ answer: 43, list: ["a", "b"], doc: { k: "v" }, nothing: null });
    for (let i = 0; i < 2; i++) {
      const named = (await handle.db.execute(query)) as unknown as unknown[];
      expect([...named]).toEqual([...unnamed]);
    }
    expect(await prepared("::timestamptz as at")).toHaveLength(1);
  });
});
