import type { PGlite, Transaction } from "@electric-sql/pglite";
import { noteStatement } from "@/db/statement-observer";
import { traceStatement } from "./tracing";

/**
 * The embedded database's client as drizzle should see it: `query` (drizzle's only statement call) in a
 * statement span, in and out of transactions, as db/availability.ts does for PostgreSQL's pool. Everything
 * else is the instance itself, its methods bound to it. pg-boss keeps the bare instance, so its polling
 * makes no spans here either. Without tracing, traceStatement only calls through.
 */
export function traceEmbeddedStatements<T extends PGlite | Transaction>(client: T): T {
  return new Proxy(client, {
    get(target, property) {
      if (property === "query") {
        const query = target.query.bind(target) as (text: string, ...rest: unknown[]) => Promise<unknown>;
        return (text: string, ...rest: unknown[]) => {
          noteStatement(text);
          return traceStatement(text, "pglite", () => query(text, ...rest));
        };
      }
      if (property === "transaction" && "transaction" in target) {
        const begin = (target as PGlite).transaction.bind(target);
        // PGlite sends the BEGIN and COMMIT (or ROLLBACK) itself: noted for db/statement-observer.ts.
        return async <R>(callback: (tx: Transaction) => Promise<R>) => {
          noteStatement("BEGIN");
          try {
            const result = await begin((tx) => callback(traceEmbeddedStatements(tx)));
            noteStatement("COMMIT");
            return result;
          } catch (error) {
            noteStatement("ROLLBACK");
            throw error;
          }
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
