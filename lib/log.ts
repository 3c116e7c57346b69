import { env } from "@/lib/env";

/** Structured one-line JSON logs on stdout/stderr; LOG_LEVEL filters. */
const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof levels, "silent">;

function write(level: Level, message: string, fields?: Record<string, unknown>) {
  if (levels[level] < levels[env.LOG_LEVEL]) return;
  const line = JSON.stringify({ level, time: new Date().toISOString(), message, ...fields });
  if (level === "error" || level === "warn") console.error(line);
  else console.log(line);
}

export const log = {
  debug: (message: string, fields?: Record<string, unknown>) => write("debug", message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
};

/**
 * An error's name, code, message, cause and stack for logs (never for response bodies). A failed query's
 * parameters never reach the log: drizzle's wrapper puts the SQL and every parameter (session ids,
 * e-mail addresses) in its message and stack, so for such an error only the statement's text (placeholders,
 * no values) and the driver's own error below it are kept.
 */
export function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: String(error) };
  const params = (error as { params?: unknown }).params;
  const query = (error as { query?: unknown }).query;
  const failedQuery = params !== undefined && typeof query === "string";
  const message = failedQuery ? `Failed query: ${query.slice(0, 500)}` : error.message;
  const frames = (error.stack ?? "").split("\n").filter((line) => line.trimStart().startsWith("at "));
  const code = (error as { code?: unknown }).code;
  const described: Record<string, unknown> = { errorName: error.name, errorMessage: message, stack: [`${error.name}: ${message}`, ...frames].join("\n") };
  if (typeof code === "string" || typeof code === "number") described.errorCode = code;
  if (error.cause !== undefined && error.cause !== error) {
    const cause = describeError(error.cause);
    described.cause = { errorName: cause.errorName, errorCode: cause.errorCode, errorMessage: cause.errorMessage ?? cause.error };
  }
  return described;
}
