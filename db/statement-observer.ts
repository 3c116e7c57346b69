/**
 * Sees every statement the app's database handles send, for tests that count what a request costs
 * (tests/integration/scan-hot-path.test.ts): drizzle's statements (db/availability.ts for PostgreSQL,
 * lib/telemetry/pglite.ts for PGlite) and the BEGIN and COMMIT (or ROLLBACK) of their transactions, which
 * the drivers send themselves. Off unless a test sets an observer: one property read per statement.
 */
export type StatementObserver = (text: string) => void;

const store = globalThis as { __tagServiceStatementObserver?: StatementObserver };

/** Sets (or, with undefined, removes) the one observer. */
export function observeStatements(observer: StatementObserver | undefined): void {
  store.__tagServiceStatementObserver = observer;
}

/** Called by the database adapters as a statement is sent. */
export function noteStatement(text: string): void {
  store.__tagServiceStatementObserver?.(text);
}
