import { sql } from "drizzle-orm";
import { getDatabase } from "@/db/client";
import { defineJob, JOBS_SCHEMA, registerJob } from "@/lib/jobs";

/**
 * A job for tests only: records every attempt in memory and fails the first `failTimes` attempts.
 * Use a unique key per test; attempts are kept per key on globalThis (test files share a worker).
 */
export interface RecordJobData {
  key: string;
  note?: string;
  failTimes?: number;
}

export interface RecordedAttempt {
  jobId: string;
  attempt: number;
  data: RecordJobData;
}

const store = globalThis as { __testRecordJobAttempts?: Map<string, RecordedAttempt[]> };
const attempts = (store.__testRecordJobAttempts ??= new Map());

export function attemptsFor(key: string): RecordedAttempt[] {
  return attempts.get(key) ?? [];
}

export const recordJob = registerJob(
  defineJob({
    name: "test.record",
    retryLimit: 2,
    retryDelay: 0,
    retryBackoff: false,
    pollingIntervalSeconds: 0.5,
    async handler(data: RecordJobData, job) {
      const seen = attemptsFor(data.key);
      const attempt = seen.length + 1;
      attempts.set(data.key, [...seen, { jobId: job.id, attempt, data }]);
      if (attempt <= (data.failTimes ?? 0)) throw new Error(`planned failure ${attempt} of ${data.key}`);
    },
  }),
);

const startedStore = globalThis as { __testSlowPollStarts?: Map<string, number> };
const starts = (startedStore.__testSlowPollStarts ??= new Map());

/** When the slow-polling job with this key started (performance.now()), if it has. */
export function slowPollStartedAt(key: string): number | undefined {
  return starts.get(key);
}

/**
 * A job whose worker polls only every 30 s: it can start within a second of its commit only because
 * enqueueing wakes the worker.
 */
export const slowPollJob = registerJob(
  defineJob({
    name: "test.slow-poll",
    retryLimit: 0,
    retryDelay: 0,
    retryBackoff: false,
    pollingIntervalSeconds: 30,
    async handler(data: { key: string }) {
      starts.set(data.key, performance.now());
    },
  }),
);

/** Jobs (live and archived) pg-boss holds for a key, read straight from its tables. */
export async function storedJobsWithKey(key: string): Promise<number> {
  const result: unknown = await getDatabase().db.execute(
    sql`select (select count(*) from ${sql.raw(JOBS_SCHEMA)}.job where data->>'key' = ${key})
             + (select count(*) from ${sql.raw(JOBS_SCHEMA)}.archive where data->>'key' = ${key}) as n`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{ n: number | string }>;
  return Number(rows[0]?.n);
}
