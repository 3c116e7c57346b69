import { AsyncLocalStorage } from "node:async_hooks";
import type { Sql, TransactionSql } from "postgres";
import { countBreakerOpened, countBreakerRefusal } from "@/lib/metrics/registry";
import { traceStatement } from "@/lib/telemetry/tracing";
import { noteStatement } from "./statement-observer";

/**
 * Deadlines and a circuit breaker in front of the PostgreSQL pool, so a database outage of any length is
 * answered quickly and nothing waits in postgres.js's unbounded queue:
 *
 * - Every query and transaction runs against a deadline: the caller's budget (an API request has
 *   REQUEST_DATABASE_BUDGET_MS in all, set by `withDatabaseBudget`), else DEFAULT_OPERATION_DEADLINE_MS of
 *   its own. A query still waiting for a connection at its deadline is taken out of the pool's queue (it
 *   never runs); a transaction that gets its connection after its caller gave up rolls back before any
 *   statement of ours, and one that finishes its work after that rolls back instead of committing.
 * - A failure that means "the database is not there" (refused, reset, closed, connect timeout) opens
 *   the breaker: every new query fails at once with DATABASE_DOWN (503 upstream) instead of queueing, while
 *   one probe every PROBE_INTERVAL_MS asks the pool for `select 1`; the first probe that answers closes
 *   it, so service resumes within a probe interval of the database's return and the pool never sees the
 *   backlog. Transitions are logged once each, with the cause and without any query or parameter.
 */

/** What one API request may spend on the database in all (docs/decisions/0032-database-outage.md: 503 within 5 s). */
export const REQUEST_DATABASE_BUDGET_MS = 4_000;
/** The deadline of a query or transaction run outside any budget (pages, scripts' single statements). */
export const DEFAULT_OPERATION_DEADLINE_MS = 4_000;
/** Start-up and script work (seeding writes the demo content in a few transactions). */
export const MAINTENANCE_BUDGET_MS = 60_000;
/**
 * PostgreSQL's own limit on a statement, a little above the budget that waits for it: past the budget the
 * caller has its answer (503), and the server then cancels the statement instead of running it for nobody.
 * Every app connection starts with STATEMENT_TIMEOUT_MS (db/client.ts), for the request budget; a
 * transaction under a longer budget (jobs, maintenance, migrations) raises it for itself with SET LOCAL.
 * docs/decisions/0047-trigram-search-and-statement-timeout.md.
 */
export const STATEMENT_TIMEOUT_MARGIN_MS = 1_000;
export const STATEMENT_TIMEOUT_MS = REQUEST_DATABASE_BUDGET_MS + STATEMENT_TIMEOUT_MARGIN_MS;
export const PROBE_INTERVAL_MS = 250;
export const PROBE_TIMEOUT_MS = 1_000;
/** While the database stays down, how often a summary line is logged. */
export const OUTAGE_LOG_INTERVAL_MS = 10_000;

// postgres.js / node network codes, our own, and PostgreSQL SQLSTATEs that mean "the database is not there".
const unavailableCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "DATABASE_DOWN",
  "DATABASE_DEADLINE",
  "REQUEST_ABANDONED",
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "53300",
]);

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** True when the error (or any error in its cause chain) says the database cannot be reached. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return causeHasCode(error, unavailableCodes);
}

/** Whether the error or one of its causes (drizzle wraps driver errors; a failed connect may be an AggregateError) carries one of `codes`. */
function causeHasCode(error: unknown, codes: ReadonlySet<string>): boolean {
  for (let current = error, depth = 0; current && depth < 6; depth++) {
    const code = errorCode(current);
    if (code && codes.has(code)) return true;
    if (current instanceof AggregateError && current.errors.some((inner) => causeHasCode(inner, codes))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * PostgreSQL's answers that a transaction met another at the same moment and was rolled back, which the same
 * request sent again would most likely not meet: deadlock_detected, serialization_failure, lock_not_available.
 */
const transientConflictCodes = new Set(["40P01", "40001", "55P03"]);

/** True when the error (or one of its causes, as drizzle wraps driver errors) is a transient conflict. */
export function isTransientConflict(error: unknown): boolean {
  return causeHasCode(error, transientConflictCodes);
}

/** Why the database could not be used, as our code reports it (never a query or its parameters). */
export class DatabaseUnavailableError extends Error {
  constructor(
    readonly code: "DATABASE_DOWN" | "DATABASE_DEADLINE" | "REQUEST_ABANDONED",
    message: string,
  ) {
    super(message);
    this.name = "DatabaseUnavailableError";
  }
}

/** The cause of an outage in one line: the innermost driver or network error's code and message. */
export function outageCause(error: unknown): string {
  let innermost: unknown = error;
  for (let current = error, depth = 0; current && depth < 6; depth++) {
    if (current instanceof AggregateError && current.errors.length) current = current.errors[0];
    innermost = current;
    current = (current as { cause?: unknown }).cause;
  }
  const code = errorCode(innermost);
  // Drizzle's wrapper carries the SQL and its parameters in its message; the driver error below it does not.
  const message = innermost instanceof Error ? innermost.message : String(innermost);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

interface Budget {
  deadline: number;
  signal?: AbortSignal;
}

const budgets = new AsyncLocalStorage<Budget>();

/**
 * Runs `work` with `ms` of database time in all: its queries and transactions fail with DATABASE_DEADLINE
 * past it, and with REQUEST_ABANDONED once `signal` aborts (the client went away), without running.
 */
export function withDatabaseBudget<T>(ms: number, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  return budgets.run({ deadline: Date.now() + ms, signal }, work);
}

function currentBudget(): Budget {
  return budgets.getStore() ?? { deadline: Date.now() + DEFAULT_OPERATION_DEADLINE_MS };
}

function refusalOf(budget: Budget): DatabaseUnavailableError | undefined {
  if (budget.signal?.aborted) return new DatabaseUnavailableError("REQUEST_ABANDONED", "the request was abandoned before the database answered");
  if (Date.now() >= budget.deadline) return deadlineError();
  return undefined;
}

function deadlineError(): DatabaseUnavailableError {
  return new DatabaseUnavailableError("DATABASE_DEADLINE", "the database did not answer before the request's deadline");
}

export type AvailabilityLog = (level: "info" | "warn", message: string, fields: Record<string, unknown>) => void;

interface Outage {
  since: number;
  cause: string;
  refused: number;
  lastLogged: number;
}

/** The breaker's state, for health and tests. */
export interface AvailabilityState {
  available: boolean;
  downSinceMs?: number;
  cause?: string;
}

/**
 * The pool's use by the app's own queries and transactions (the metrics' db_pool_* gauges): postgres.js
 * exposes no pool statistics, so the guard counts what passes through it. A query is waiting until a
 * connection takes it (postgres.js sets its `state` then) and counted until it settles, even past its
 * caller's deadline; a transaction is waiting until its callback runs. pg-boss's own polling and the
 * LISTEN connection use the bare pool and are not counted.
 */
export interface PoolUsage {
  inUse: number;
  waiting: number;
}

export class DatabaseAvailability {
  private outage: Outage | undefined;
  private probeTimer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private readonly pooledQueries = new Set<PoolQuery>();
  private transactionsWaiting = 0;
  private transactionsRunning = 0;

  constructor(
    private readonly probe: () => Promise<void>,
    private readonly log: AvailabilityLog,
  ) {}

  get state(): AvailabilityState {
    return this.outage ? { available: false, downSinceMs: this.outage.since, cause: this.outage.cause } : { available: true };
  }

  /** What the app's queries and transactions hold or wait for in the pool now. */
  get poolUsage(): PoolUsage {
    let inUse = this.transactionsRunning;
    let waiting = this.transactionsWaiting;
    for (const query of this.pooledQueries) {
      if (query.state) inUse += 1;
      else waiting += 1;
    }
    return { inUse, waiting };
  }

  /** Counts a pooled query (already started) until it settles. */
  trackQuery(query: PoolQuery): void {
    this.pooledQueries.add(query);
    const settled = () => void this.pooledQueries.delete(query);
    query.then(settled, settled);
  }

  /** Counts a transaction: waiting until `running()` (its callback runs), then in use until `ended()`. */
  trackTransaction(): { running(): void; ended(): void } {
    this.transactionsWaiting += 1;
    let phase: "waiting" | "running" | "ended" = "waiting";
    return {
      running: () => {
        if (phase !== "waiting") return;
        phase = "running";
        this.transactionsWaiting -= 1;
        this.transactionsRunning += 1;
      },
      ended: () => {
        if (phase === "running") this.transactionsRunning -= 1;
        else if (phase === "waiting") this.transactionsWaiting -= 1;
        phase = "ended";
      },
    };
  }

  /** Throws DATABASE_DOWN at once while the breaker is open. */
  admit(): void {
    const outage = this.outage;
    if (!outage) return;
    outage.refused += 1;
    countBreakerRefusal();
    const now = Date.now();
    if (now - outage.lastLogged >= OUTAGE_LOG_INTERVAL_MS) {
      outage.lastLogged = now;
      this.log("warn", "database still unavailable", { cause: outage.cause, downForMs: now - outage.since, refusedQueries: outage.refused });
    }
    throw new DatabaseUnavailableError("DATABASE_DOWN", `the database is unavailable (${outage.cause})`);
  }

  /** Opens the breaker when the error says the database is not there; other errors change nothing. */
  failed(error: unknown): void {
    if (this.outage || this.closed || !isDatabaseUnavailable(error)) return;
    const code = errorCode(error);
    // Only a failed connection says the database is gone. A request out of time (a slow query, or a
    // machine short of CPU) or abandoned by its client fails alone: opening the breaker for it would turn
    // one slow request into a burst of 503s for everyone.
    if (code === "DATABASE_DEADLINE" || code === "REQUEST_ABANDONED" || code === "DATABASE_DOWN") return;
    const now = Date.now();
    this.outage = { since: now, cause: outageCause(error), refused: 0, lastLogged: now };
    countBreakerOpened();
    this.log("warn", "database unavailable", { cause: this.outage.cause });
    this.scheduleProbe();
  }

  /** Stops probing (the pool is closing). */
  close(): void {
    this.closed = true;
    clearTimeout(this.probeTimer);
  }

  private scheduleProbe(): void {
    if (this.closed) return;
    this.probeTimer = setTimeout(() => void this.runProbe(), PROBE_INTERVAL_MS);
    this.probeTimer.unref?.();
  }

  private async runProbe(): Promise<void> {
    const outage = this.outage;
    if (!outage || this.closed) return;
    try {
      await this.probe();
    } catch (error) {
      outage.cause = outageCause(error);
      this.scheduleProbe();
      return;
    }
    this.outage = undefined;
    this.log("info", "database available again", { downForMs: Date.now() - outage.since, refusedQueries: outage.refused, cause: outage.cause });
  }
}

/**
 * Settles with the query, or rejects at the budget's deadline or abort. A query that has not reached a
 * connection yet is cancelled (postgres.js drops it from its queue, so it never runs); one already sent
 * is left to finish or fail with its connection (cancelling it would need a new connection to a database
 * that may be gone).
 */
/** What our code needs of a postgres.js query: it is lazy (runs when awaited), and can leave the queue. */
interface PoolQuery extends PromiseLike<unknown> {
  /** Set once the query is handed to a connection. */
  readonly state?: unknown;
  cancel(): unknown;
  values(): PoolQuery;
  raw(): PoolQuery;
  simple(): PoolQuery;
}

function underDeadline<T>(query: PoolQuery, budget: Budget): Promise<T> {
  return settleWithin(query as PromiseLike<T>, budget, () => {
    if (!query.state) void query.cancel();
  });
}

/**
 * Settles with `work`, or rejects at the budget's deadline or abort, calling `giveUp` once then so the
 * work can be taken back (a queued query cancelled, a transaction told to roll back). A later outcome
 * of `work` is ignored (and never an unhandled rejection).
 */
function settleWithin<T>(work: PromiseLike<T>, budget: Budget, giveUp: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish = () => {
      settled = true;
      clearTimeout(timer);
      budget.signal?.removeEventListener("abort", onAbort);
    };
    const stop = (error: DatabaseUnavailableError) => {
      if (settled) return;
      finish();
      giveUp();
      reject(error);
    };
    const onAbort = () => stop(refusalOf(budget) ?? deadlineError());
    const timer = setTimeout(() => stop(deadlineError()), Math.max(0, budget.deadline - Date.now()));
    budget.signal?.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        if (settled) return;
        finish();
        resolve(value);
      },
      (error: unknown) => {
        if (settled) return;
        finish();
        reject(error);
      },
    );
  });
}

type Modifier = "values" | "raw" | "simple";

/** The lazy query object `sql.unsafe` returns, with the modifiers drizzle and our adapters use. */
interface GuardedQuery<T> extends PromiseLike<T> {
  values(): GuardedQuery<T>;
  raw(): GuardedQuery<T>;
  simple(): GuardedQuery<T>;
  catch(onRejected: (reason: unknown) => unknown): Promise<unknown>;
  finally(onFinally: () => void): Promise<T>;
}

/**
 * `text` is the statement as drizzle sends it, with $n placeholders: with tracing on, the statement's span
 * records it (lib/telemetry/tracing.ts), never its parameters.
 */
function guardedQuery<T>(text: string, create: () => PoolQuery, availability: DatabaseAvailability, pooled: boolean): GuardedQuery<T> {
  const modifiers: Modifier[] = [];
  let running: Promise<T> | undefined;
  const run = () =>
    (running ??= traceStatement(text, "postgresql", async () => {
      noteStatement(text);
      const budget = currentBudget();
      const refusal = refusalOf(budget);
      if (refusal) throw refusal;
      // Inside a transaction the connection is already ours: the breaker guards taking one from the pool.
      if (pooled) availability.admit();
      let query = create();
      for (const modifier of modifiers) query = query[modifier]();
      try {
        if (pooled) availability.trackQuery(query);
        return await underDeadline<T>(query, budget);
      } catch (error) {
        availability.failed(error);
        throw error;
      }
    }));
  const lazy: GuardedQuery<T> = {
    values: () => (modifiers.push("values"), lazy),
    raw: () => (modifiers.push("raw"), lazy),
    simple: () => (modifiers.push("simple"), lazy),
    then: (onFulfilled, onRejected) => run().then(onFulfilled, onRejected),
    catch: (onRejected) => run().catch(onRejected),
    finally: (onFinally) => run().finally(onFinally),
  };
  return lazy;
}

/** Statements with more parameters than this (bulk inserts) stay unnamed: each batch size would be a statement of its own. */
export const MAX_NAMED_STATEMENT_PARAMETERS = 100;

/**
 * A statement with parameters goes out as a named prepared statement, which postgres.js keeps per connection:
 * drizzle asks for an unnamed one unless a query was `.prepare()`d, and postgres.js sends an unnamed statement
 * with parameters in two round trips (Parse and Describe, to learn the parameters' types, then Bind and
 * Execute), every time. Named, that happens once per connection; later runs are one round trip and
 * PostgreSQL neither parses nor (once it settles on a generic plan) plans them again
 * (docs/decisions/0053-named-statements.md).
 */
function namedStatement<A extends unknown[]>(args: A): A {
  const [text, parameters, options] = args;
  if (!Array.isArray(parameters) || parameters.length === 0 || parameters.length > MAX_NAMED_STATEMENT_PARAMETERS) return args;
  return [text, parameters, { ...(options as object | undefined), prepare: true }, ...args.slice(3)] as unknown as A;
}

type TransactionCallback = (sql: TransactionSql) => unknown;

function statementText(query: unknown): string {
  return typeof query === "string" ? query : String(query);
}

/** A transaction's (or savepoint's) sql with guarded queries and guarded nested savepoints. */
function guardTransaction(tx: TransactionSql, availability: DatabaseAvailability): TransactionSql {
  return new Proxy(tx, {
    get(target, property, receiver) {
      if (property === "unsafe") {
        return (...args: Parameters<TransactionSql["unsafe"]>) => guardedQuery(statementText(args[0]), () => target.unsafe(...namedStatement(args)) as unknown as PoolQuery, availability, false);
      }
      if (property === "savepoint") {
        return (...args: unknown[]) => {
          const callback = args.pop() as TransactionCallback;
          const wrapped = (inner: TransactionSql) => callback(guardTransaction(inner, availability));
          return (target.savepoint as (...a: unknown[]) => Promise<unknown>)(...args, wrapped);
        };
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

/**
 * A transaction under the caller's budget (or a budget of its own): refused at once while the breaker
 * is open, rolled back if it only gets its connection after the deadline, and rolled back rather than
 * committed if its work ends after the caller was answered.
 */
async function guardedBegin(sql: Sql, availability: DatabaseAvailability, args: unknown[]): Promise<unknown> {
  const budget = currentBudget();
  const refusal = refusalOf(budget);
  if (refusal) throw refusal;
  availability.admit();
  const callback = args.pop() as TransactionCallback;
  let gaveUp = false;
  const tracked = availability.trackTransaction();
  const transaction = (sql.begin as (...a: unknown[]) => Promise<unknown>)(...args, async (tx: TransactionSql) =>
    budgets.run(budget, async () => {
      noteStatement("BEGIN");
      tracked.running();
      if (gaveUp) throw deadlineError();
      // A longer budget than the connection's statement_timeout was made for: this transaction's own limit.
      const timeoutMs = Math.ceil(budget.deadline - Date.now()) + STATEMENT_TIMEOUT_MARGIN_MS;
      if (timeoutMs > STATEMENT_TIMEOUT_MS) noteStatement("select set_config('statement_timeout', $1, true)");
      if (timeoutMs > STATEMENT_TIMEOUT_MS) await tx.unsafe("select set_config('statement_timeout', $1, true)", [String(timeoutMs)]);
      const result = await callback(guardTransaction(tx, availability));
      if (gaveUp) throw deadlineError();
      return result;
    }),
  );
  transaction.then(tracked.ended, tracked.ended);
  // postgres.js ends it itself: COMMIT when the callback settled, ROLLBACK when it threw.
  transaction.then(
    () => noteStatement("COMMIT"),
    () => noteStatement("ROLLBACK"),
  );
  try {
    return await settleWithin(transaction, budget, () => {
      gaveUp = true;
    });
  } catch (error) {
    availability.failed(error);
    throw error;
  }
}

/**
 * The pool as drizzle should see it: `unsafe` and `begin` go through the budget and the breaker; the
 * rest (options, parsers, end) is the pool itself. The probe uses the pool directly.
 */
export function guardPool(sql: Sql, log: AvailabilityLog): { client: Sql; availability: DatabaseAvailability } {
  const availability = new DatabaseAvailability(async () => {
    const probe = sql.unsafe("select 1") as unknown as PoolQuery;
    await underDeadline(probe, { deadline: Date.now() + PROBE_TIMEOUT_MS });
  }, log);
  const client = new Proxy(sql, {
    get(target, property, receiver) {
      if (property === "unsafe") {
        return (...args: Parameters<Sql["unsafe"]>) => guardedQuery(statementText(args[0]), () => target.unsafe(...namedStatement(args)) as unknown as PoolQuery, availability, true);
      }
      if (property === "begin") return (...args: unknown[]) => guardedBegin(target, availability, args);
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  return { client, availability };
}
