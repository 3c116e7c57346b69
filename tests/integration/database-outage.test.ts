import { afterEach, describe, expect, it } from "vitest";
import { connectPostgres, getDatabase, setDatabase, type DatabaseHandle } from "@/db/client";
import { GET as health } from "@/app/api/health/route";
import { defineEndpoint, route } from "@/lib/http";
import { schema } from "@/db/client";
import { apiRequest, call, json } from "../support/http";
import { closedPort, TcpProxy } from "../support/tcp-proxy";
import { testDatabase } from "../support/integration-setup";
import { usingPostgres } from "../support/database";

// A route that needs the database, as every real endpoint does.
const countUsers = route(
  defineEndpoint({ method: "GET", path: "/api/v1/test/users-count", summary: "test", tags: ["Test"], auth: "none" }),
  async ({ ctx }) => ({ users: (await ctx.db.select({ id: schema.users.id }).from(schema.users)).length }),
);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  setDatabase(testDatabase());
  while (cleanups.length) await cleanups.pop()!();
});

function useUnreachable(handle: DatabaseHandle) {
  setDatabase(handle);
  cleanups.push(() => handle.close().catch(() => {}));
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

describe("database outage", () => {
  it("answers 503 SERVICE_UNAVAILABLE at once when the database refuses connections", async () => {
    useUnreachable(connectPostgres(`postgres://postgres@127.0.0.1:${await closedPort()}/test`));
    const { value: response, ms } = await timed(() => call(countUsers, apiRequest("/api/v1/test/users-count")));
    expect(response.status).toBe(503);
    expect(await json(response)).toEqual({ success: false, error: { code: "SERVICE_UNAVAILABLE", message: expect.any(String) } });
    expect(response.headers.get("X-RateLimit-Limit")).toBeTruthy();
    expect(ms).toBeLessThan(5000);
  });

  it("answers 503 within 5 seconds when the database accepts connections but never answers", async () => {
    const blackhole = new TcpProxy();
    const port = await blackhole.start();
    cleanups.push(() => blackhole.stop());
    useUnreachable(connectPostgres(`postgres://postgres@127.0.0.1:${port}/test`));
    const { value: response, ms } = await timed(() => call(countUsers, apiRequest("/api/v1/test/users-count")));
    expect(response.status).toBe(503);
    expect(ms).toBeLessThan(5000);

    const { value: probe, ms: healthMs } = await timed(() => call(health, apiRequest("/api/health")));
    expect(probe.status).toBe(503);
    expect(await json(probe)).toMatchObject({ status: "degraded", db: "down" });
    expect(healthMs).toBeLessThan(5000);
  });

  it("reports health ok with the database up", async () => {
    const response = await call(health, apiRequest("/api/health"));
    expect(response.status).toBe(200);
    const body = await json<{ status: string; db: string; cache: string }>(response);
    expect(body.db).toBe("ok");
    expect(body.status).toBe("ok");
    expect(["ok", "memory"]).toContain(body.cache);
    expect(body.cache).toBe(process.env.REDIS_URL || process.env.UPSTASH_REDIS_REST_URL ? "ok" : "memory");
  });

  // Needs a PostgreSQL server to cut and restore; the embedded database cannot go away.
  it.runIf(usingPostgres())("recovers by itself when the database comes back", async () => {
    const target = new URL(process.env.DATABASE_URL!);
    const proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const port = await proxy.start();
    cleanups.push(() => proxy.stop());
    const url = new URL(process.env.DATABASE_URL!);
    url.port = String(port);
    url.pathname = `/${testDatabase().name}`;
    const handle = connectPostgres(url.toString(), { max: 2 });
    useUnreachable(handle);

    expect((await call(countUsers, apiRequest("/api/v1/test/users-count"))).status).toBe(200);
    await proxy.stop();
    const down = await call(countUsers, apiRequest("/api/v1/test/users-count"));
    expect(down.status).toBe(503);
    await proxy.start(port);
    const back = await call(countUsers, apiRequest("/api/v1/test/users-count"));
    expect(back.status).toBe(200);
    expect(getDatabase()).toBe(handle);
  });
});
