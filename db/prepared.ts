import type { Executor } from "./client";

/**
 * A hot query's prepared statement, made once per executor: drizzle builds its SQL once instead of on every
 * request, and it goes out as a named statement, so PostgreSQL parses and plans it once per connection
 * (postgres.js keeps it per connection; PGlite takes the same call). A prepared query is bound to the session
 * it was made on, so a transaction gets its own, dropped with it. Values go in as `sql.placeholder(name)`;
 * a timestamp as an ISO string (the postgres.js driver sends timestamps as given).
 */
export function preparedFor<T>(cache: WeakMap<Executor, T>, db: Executor, prepare: (db: Executor) => T): T {
  let prepared = cache.get(db);
  if (!prepared) {
    prepared = prepare(db);
    cache.set(db, prepared);
  }
  return prepared;
}
