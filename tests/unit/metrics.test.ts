import { describe, expect, it } from "vitest";
import { DatabaseAvailability } from "@/db/availability";
import { applyDatabaseReading, refreshScrapeGauges, resetScrapeStateForTests, toDatabaseReading, type DatabaseReading } from "@/lib/metrics/collect";
import { getMetrics } from "@/lib/metrics/registry";
import { bearerMatches } from "@/lib/metrics/serve";

async function gauge(name: keyof ReturnType<typeof getMetrics>, labels: Record<string, string> = {}): Promise<number | undefined> {
  const metric = getMetrics()[name] as { get(): Promise<{ values: { labels: Record<string, string | number>; value: number }[] }> };
  const values = (await metric.get()).values;
  return values.find((value) => Object.entries(labels).every(([key, wanted]) => String(value.labels[key]) === wanted))?.value;
}

describe("bearerMatches (the metrics token, compared in constant time)", () => {
  const token = "metrics-token-0123456789abcdef";
  it("accepts exactly `Bearer <token>`, the scheme in any case", () => {
    expect(bearerMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`Bearer \t${token} `, token)).toBe(true);
  });
  it("refuses anything else", () => {
    for (const header of [null, "", "Bearer", "Bearer ", token, `Basic ${token}`, `Bearer ${token}x`, `Bearer ${token.slice(1)}`, `Bearer ${token} ${token}`, `Bearer ${token.toUpperCase()}`]) {
      expect(bearerMatches(header, token), String(header)).toBe(false);
    }
  });
});

const rows = [
  { source: "job", key: "email.send", a: 5, b: 2, c: 12.5, d: 1, e: 3, f: 4 },
  { source: "job", key: "alerts.fan-out", a: "1", b: "0", c: "0.25", d: "0", e: "0", f: "0" },
  { source: "payments", key: "", a: 2, b: 90.5, c: 1, d: 0, e: 0, f: 0 },
];

describe("toDatabaseReading", () => {
  it("reads the query's rows as queues and the payment inbox, numbers from strings too, never negative", () => {
    const reading = toDatabaseReading([...rows, { source: "job", key: "odd", a: null, b: -3, c: "NaN", d: undefined, e: "x", f: 0 }], 1_000, 0.012);
    expect(reading.queues).toEqual([
      { queue: "email.send", waiting: 5, deferred: 2, oldestWaitingSeconds: 12.5, active: 1, failed: 3, lowPriority: 4 },
      { queue: "alerts.fan-out", waiting: 1, deferred: 0, oldestWaitingSeconds: 0.25, active: 0, failed: 0, lowPriority: 0 },
      { queue: "odd", waiting: 0, deferred: 0, oldestWaitingSeconds: 0, active: 0, failed: 0, lowPriority: 0 },
    ]);
    expect(reading.payments).toEqual({ pending: 2, lagSeconds: 90.5, failed: 1 });
    expect(toDatabaseReading([], 1, 0).payments).toEqual({ pending: 0, lagSeconds: 0, failed: 0 });
  });
});

describe("applyDatabaseReading", () => {
  it("sets every known queue (0 when empty), splits the e-mail backlog by priority, and drops queues no longer seen", async () => {
    const metrics = getMetrics();
    applyDatabaseReading(metrics, toDatabaseReading(rows, Date.now(), 0.02), ["email.send", "orders.refund"]);
    expect(await gauge("jobsWaiting", { queue: "email.send" })).toBe(5);
    expect(await gauge("jobsDeferred", { queue: "email.send" })).toBe(2);
    expect(await gauge("jobsOldestAge", { queue: "email.send" })).toBe(12.5);
    expect(await gauge("jobsFailed", { queue: "email.send" })).toBe(3);
    expect(await gauge("jobsWaiting", { queue: "orders.refund" })).toBe(0);
    expect(await gauge("jobsWaiting", { queue: "alerts.fan-out" })).toBe(1);
    expect(await gauge("emailBacklog", { priority: "bulk" })).toBe(4);
    expect(await gauge("emailBacklog", { priority: "transactional" })).toBe(3);
    expect(await gauge("paymentInboxLag")).toBe(90.5);

    applyDatabaseReading(metrics, toDatabaseReading([], Date.now(), 0.01), ["email.send"]);
    expect(await gauge("jobsWaiting", { queue: "alerts.fan-out" })).toBeUndefined();
    expect(await gauge("jobsWaiting", { queue: "email.send" })).toBe(0);
    expect(await gauge("emailBacklog", { priority: "transactional" })).toBe(0);
    expect(await gauge("paymentEventsPending")).toBe(0);
  });
});

describe("refreshScrapeGauges's deadline", () => {
  const reading = (pending: number): DatabaseReading => ({ queues: [], payments: { pending, lagSeconds: 1, failed: 0 }, readAt: Date.now(), durationSeconds: 0.001 });

  it("serves the last values with the error gauge when the read misses its deadline, and takes the late answer for the next scrape", async () => {
    resetScrapeStateForTests();
    await refreshScrapeGauges({ read: async () => reading(7), deadlineMs: 200 });
    expect(await gauge("scrapeDatabaseError")).toBe(0);
    expect(await gauge("paymentEventsPending")).toBe(7);

    let finish: (value: DatabaseReading) => void = () => {};
    const slow = () => new Promise<DatabaseReading>((resolve) => (finish = resolve));
    const started = performance.now();
    await refreshScrapeGauges({ read: slow, deadlineMs: 200 });
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(190);
    expect(took).toBeLessThan(1_000);
    expect(await gauge("scrapeDatabaseError")).toBe(1);
    expect(await gauge("paymentEventsPending")).toBe(7);

    // A scrape while that read is still out shares it rather than starting another.
    let second = 0;
    await refreshScrapeGauges({
      read: async () => {
        second += 1;
        return reading(1);
      },
      deadlineMs: 50,
    });
    expect(second).toBe(0);
    finish(reading(9));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await gauge("paymentEventsPending")).toBe(9);
    await refreshScrapeGauges({ read: async () => reading(9), deadlineMs: 200 });
    expect(await gauge("scrapeDatabaseError")).toBe(0);
  });

  it("serves the last values with the error gauge when the read fails", async () => {
    resetScrapeStateForTests();
    await refreshScrapeGauges({ read: async () => reading(3), deadlineMs: 200 });
    await refreshScrapeGauges({ read: () => Promise.reject(new Error("connection refused")), deadlineMs: 200 });
    expect(await gauge("scrapeDatabaseError")).toBe(1);
    expect(await gauge("paymentEventsPending")).toBe(3);
    expect(await gauge("scrapeDatabaseAge")).toBeGreaterThanOrEqual(0);
  });
});

describe("the pool's use as the guard counts it", () => {
  /** A postgres.js query as the guard sees it: `state` is set once a connection takes it. */
  function fakeQuery() {
    let settle: () => void = () => {};
    const promise = new Promise<void>((resolve) => (settle = resolve));
    const query = { state: undefined as unknown, then: promise.then.bind(promise), cancel: () => {}, values: () => query, raw: () => query, simple: () => query };
    return { query, settle };
  }

  it("counts a query waiting until a connection takes it, then in use until it settles, and transactions alike", async () => {
    const availability = new DatabaseAvailability(async () => {}, () => {});
    const first = fakeQuery();
    const second = fakeQuery();
    availability.trackQuery(first.query);
    availability.trackQuery(second.query);
    expect(availability.poolUsage).toEqual({ inUse: 0, waiting: 2 });
    first.query.state = {};
    expect(availability.poolUsage).toEqual({ inUse: 1, waiting: 1 });

    const transaction = availability.trackTransaction();
    expect(availability.poolUsage).toEqual({ inUse: 1, waiting: 2 });
    transaction.running();
    transaction.running();
    expect(availability.poolUsage).toEqual({ inUse: 2, waiting: 1 });

    first.settle();
    second.settle();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(availability.poolUsage).toEqual({ inUse: 1, waiting: 0 });
    transaction.ended();
    transaction.ended();
    expect(availability.poolUsage).toEqual({ inUse: 0, waiting: 0 });

    const abandoned = availability.trackTransaction();
    abandoned.ended();
    expect(availability.poolUsage).toEqual({ inUse: 0, waiting: 0 });
  });
});
