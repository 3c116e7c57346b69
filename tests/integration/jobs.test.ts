import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eq, sql } from "drizzle-orm";
import { connectPostgres, getDatabase, schema, setDatabase } from "@/db/client";
import { createRuntime, CRON_SEND_QUEUE, ensureQueues, listJobSpecs } from "@/lib/jobs/boss";
import { enqueueJob, getJob, jobsStatus, prepareJobs, runPendingJobs, startJobs, stopJobs } from "@/lib/jobs";
import { systemContext, withTransaction } from "@/lib/services/context";
import { createTestDatabase, databaseUrl, dropDatabase, uniqueDatabaseName, usingPostgres, withAdminConnection } from "../support/database";
import { attemptsFor, recordJob, slowPollJob, slowPollStartedAt, storedJobsWithKey } from "../support/test-jobs";

class Rollback extends Error {}

const newUser = (key: string) => ({ email: `${key}@example.com`, passwordHash: "x", firstName: "Job", lastName: "Test" });

async function userExists(key: string): Promise<boolean> {
  const rows = await getDatabase().db.select().from(schema.users).where(eq(schema.users.email, `${key}@example.com`));
  return rows.length === 1;
}

/** Only this test's runs: other tests' jobs use other keys. */
function runsOf(report: Awaited<ReturnType<typeof runPendingJobs>>, key: string) {
  return report.runs.filter((run) => (run.data as { key?: string }).key === key);
}

beforeAll(async () => {
  await prepareJobs();
});

afterAll(async () => {
  await stopJobs();
});

describe("jobs enqueued in a transaction", () => {
  it("run exactly once, with their data, when the transaction commits", async () => {
    const key = randomUUID();
    const id = await withTransaction(systemContext(), async (tx) => {
      await tx.db.insert(schema.users).values(newUser(key));
      return enqueueJob(tx, recordJob, { key, note: "committed" });
    });
    expect(await userExists(key)).toBe(true);

    const report = await runPendingJobs({ name: recordJob.name });
    expect(runsOf(report, key)).toEqual([{ id, name: "test.record", data: { key, note: "committed" }, status: "completed" }]);
    expect(attemptsFor(key)).toEqual([{ jobId: id, attempt: 1, data: { key, note: "committed" } }]);

    expect(runsOf(await runPendingJobs({ ignoreStartAfter: true }), key)).toEqual([]);
    expect(attemptsFor(key)).toHaveLength(1);
    expect(await getJob(recordJob, id)).toMatchObject({ id, state: "completed", retryCount: 0, data: { key, note: "committed" } });
  });

  it("never run when the transaction rolls back, and pg-boss keeps no trace of them", async () => {
    const key = randomUUID();
    let id: string | undefined;
    await expect(
      withTransaction(systemContext(), async (tx) => {
        await tx.db.insert(schema.users).values(newUser(key));
        id = await enqueueJob(tx, recordJob, { key });
        // The job row is really there, inside the transaction.
        const inside: unknown = await tx.db.execute(sql`select count(*)::int as n from pgboss.job where data->>'key' = ${key}`);
        const rows = (Array.isArray(inside) ? inside : (inside as { rows: unknown[] }).rows) as Array<{ n: number }>;
        expect(rows[0]?.n).toBe(1);
        throw new Rollback("undo");
      }),
    ).rejects.toBeInstanceOf(Rollback);
    expect(id).toBeDefined();
    expect(await userExists(key)).toBe(false);

    const report = await runPendingJobs({ ignoreStartAfter: true });
    expect(runsOf(report, key)).toEqual([]);
    expect(attemptsFor(key)).toEqual([]);
    expect(await getJob(recordJob, id!)).toBeNull();
    expect(await storedJobsWithKey(key)).toBe(0);
  });
});

describe("jobs enqueued outside a transaction", () => {
  it("are written at once and run", async () => {
    const key = randomUUID();
    const id = await enqueueJob(systemContext(), recordJob, { key, note: "direct" });
    expect(await getJob(recordJob, id)).toMatchObject({ state: "created" });

    const report = await runPendingJobs();
    expect(runsOf(report, key)).toEqual([{ id, name: "test.record", data: { key, note: "direct" }, status: "completed" }]);
    expect(attemptsFor(key)).toHaveLength(1);
  });
});

describe("failing handlers", () => {
  it("are retried, then complete", async () => {
    const key = randomUUID();
    const id = await enqueueJob(systemContext(), recordJob, { key, failTimes: 1 });

    // retryDelay 0: the retry is due at once, so one call runs the failure and the retry.
    const report = await runPendingJobs({ name: recordJob.name });
    expect(runsOf(report, key).map((run) => run.status)).toEqual(["failed", "completed"]);
    expect(runsOf(report, key)[0]?.error).toBe(`planned failure 1 of ${key}`);
    expect(attemptsFor(key).map((attempt) => [attempt.jobId, attempt.attempt])).toEqual([
      [id, 1],
      [id, 2],
    ]);
    expect(await getJob(recordJob, id)).toMatchObject({ state: "completed", retryCount: 1 });
  });

  it("wait for their retry delay unless told to ignore it", async () => {
    const key = randomUUID();
    const id = await enqueueJob(systemContext(), recordJob, { key, failTimes: 1 }, { retryDelay: 600 });

    expect(runsOf(await runPendingJobs(), key).map((run) => run.status)).toEqual(["failed"]);
    expect(await getJob(recordJob, id)).toMatchObject({ state: "retry", retryCount: 0 });
    expect(runsOf(await runPendingJobs(), key)).toEqual([]);

    expect(runsOf(await runPendingJobs({ ignoreStartAfter: true }), key).map((run) => run.status)).toEqual(["completed"]);
    expect(await getJob(recordJob, id)).toMatchObject({ state: "completed", retryCount: 1 });
  });

  it("fail for good once the retries are used up", async () => {
    const key = randomUUID();
    const id = await enqueueJob(systemContext(), recordJob, { key, failTimes: 10 });

    const report = await runPendingJobs();
    expect(runsOf(report, key).map((run) => run.status)).toEqual(["failed", "failed", "failed"]); // 1 + retryLimit 2
    expect(await getJob(recordJob, id)).toMatchObject({ state: "failed", retryCount: 2 });
    expect(runsOf(await runPendingJobs({ ignoreStartAfter: true }), key)).toEqual([]);
  });
});

describe("a database handle that was just created", () => {
  it("gets its own boss on a new database, and an enqueue in a transaction there runs after commit", async () => {
    const original = getDatabase();
    const other = await createTestDatabase();
    try {
      setDatabase(other);
      const key = randomUUID();
      // Queues exist before any transaction uses them (PGlite cannot create one from inside a transaction).
      await prepareJobs();
      const id = await withTransaction(systemContext(), (tx) => enqueueJob(tx, recordJob, { key }));
      expect(runsOf(await runPendingJobs(), key)).toEqual([{ id, name: "test.record", data: { key }, status: "completed" }]);
    expect(jobsStatus().database).toBe(other.kind);
    } finally {
      setDatabase(original);
      await other.drop();
    }
    // Back on this file's database, whose queues are still there.
    const key = randomUUID();
    await withTransaction(systemContext(), (tx) => enqueueJob(tx, recordJob, { key }));
    expect(runsOf(await runPendingJobs(), key)).toHaveLength(1);
  });
});

describe("startJobs", () => {
  it("starts one boss per process however often it is called, and its workers run jobs", async () => {
    const before = jobsStatus().bossStarts;
    const [first, second] = await Promise.all([startJobs(), startJobs()]);
    const third = await startJobs();
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(jobsStatus()).toMatchObject({ started: true, bossStarts: before + 1, database: getDatabase().kind });
    expect(jobsStatus().workers).toEqual(expect.arrayContaining([recordJob.name]));

    // The polling worker (0.5 s) picks up a committed job, and retries a failure, without runPendingJobs.
    const key = randomUUID();
    const id = await withTransaction(systemContext(), (tx) => enqueueJob(tx, recordJob, { key, failTimes: 1 }));
    await vi.waitFor(async () => expect(await getJob(recordJob, id)).toMatchObject({ state: "completed", retryCount: 1 }), {
      timeout: 15_000,
      interval: 100,
    });
    expect(attemptsFor(key).map((attempt) => attempt.attempt)).toEqual([1, 2]);

    await stopJobs();
    expect(jobsStatus()).toMatchObject({ started: false, bossStarts: before + 1 });
  });

  it("works a burst in batches: each job settles on its own, a failing one alone is retried, none runs twice", async () => {
    await startJobs();
    const keys = Array.from({ length: 45 }, () => randomUUID());
    const ids = await withTransaction(systemContext(), async (tx) => {
      const made: string[] = [];
      for (const [index, key] of keys.entries()) made.push(await enqueueJob(tx, recordJob, { key, failTimes: index === 7 ? 1 : 0 }));
      return made;
    });
    await vi.waitFor(async () => {
      for (const id of ids) expect((await getJob(recordJob, id))?.state).toBe("completed");
    }, { timeout: 10_000, interval: 200 }); // one job per poll (the old worker) would need 22 s
    for (const [index, key] of keys.entries()) expect(attemptsFor(key).length, `job ${index}`).toBe(index === 7 ? 2 : 1);
    expect((await getJob(recordJob, ids[7]!))?.retryCount).toBe(1);
    expect((await getJob(recordJob, ids[8]!))?.retryCount).toBe(0);
    await stopJobs();
  });

  it("wakes the worker at commit: a job starts within a second however long the worker's polling interval", async () => {
    await startJobs();
    // Let the worker settle into its 30 s wait first.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const delays: number[] = [];
    for (let i = 0; i < 10; i++) {
      const key = randomUUID();
      await withTransaction(systemContext(), (tx) => enqueueJob(tx, slowPollJob, { key }));
      const committedAt = performance.now();
      await vi.waitFor(() => expect(slowPollStartedAt(key)).toBeDefined(), { timeout: 5_000, interval: 20 });
      delays.push(slowPollStartedAt(key)! - committedAt);
    }
    expect(Math.max(...delays)).toBeLessThan(1_000);

    // A rolled-back enqueue wakes nothing and runs nothing.
    const rolledBack = randomUUID();
    await expect(
      withTransaction(systemContext(), async (tx) => {
        await enqueueJob(tx, slowPollJob, { key: rolledBack });
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(slowPollStartedAt(rolledBack)).toBeUndefined();
    await stopJobs();
  });

  it("stops a started boss when the process switches to another database handle", async () => {
    const boss = await startJobs();
    const stopped = new Promise<void>((resolve) => boss.once("stopped", () => resolve()));
    const original = getDatabase();
    const other = await createTestDatabase();
    try {
      setDatabase(other);
      await prepareJobs(); // any use of jobs binds them to the current handle
      await stopped;
      expect(jobsStatus()).toMatchObject({ started: false, database: other.kind });
    } finally {
      setDatabase(original);
      await other.drop();
    }
  });
});

describe("instances starting together", () => {
  // Needs separate connections racing on one PostgreSQL database; PGlite is one process.
  it.runIf(usingPostgres())("install pg-boss and create the queues one at a time: both start, on an empty database, every time", async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const name = uniqueDatabaseName("tagsvc_jobs_race");
      await withAdminConnection((admin) => admin.unsafe(`CREATE DATABASE "${name}"`));
      const handles = [connectPostgres(databaseUrl(name), { max: 3 }), connectPostgres(databaseUrl(name), { max: 3 })];
      try {
        const runtimes = handles.map(createRuntime);
        const outcomes = await Promise.allSettled(runtimes.map((runtime) => ensureQueues(runtime, listJobSpecs())));
        expect(outcomes.map((outcome) => (outcome.status === "rejected" ? String(outcome.reason) : "ready"))).toEqual(["ready", "ready"]);
        const queues = (await handles[0]!.db.execute(sql`select name from pgboss.queue`)) as unknown as { name: string }[];
        // The app's queues and pg-boss's cron queue (made under the same lock).
        expect(queues.map((row) => row.name).sort()).toEqual([...listJobSpecs().map((job) => job.name), CRON_SEND_QUEUE].sort());
        // Both wrote the daily retention run's schedule: one row.
        const schedules = (await handles[0]!.db.execute(sql`select name from pgboss.schedule`)) as unknown as { name: string }[];
        expect(schedules.map((row) => row.name)).toEqual(["retention.run"]);
      } finally {
        await Promise.all(handles.map((handle) => handle.close()));
        await dropDatabase(name);
      }
    }
  });
});
