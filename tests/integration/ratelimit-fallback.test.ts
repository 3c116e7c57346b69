import { createHash, randomBytes, randomUUID } from "node:crypto";
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { Redis as IORedis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRateLimiter, type RateLimitBackendConfig, type RateLimiter } from "@/lib/ratelimit";
import { HOUR_MS } from "@/lib/ratelimit/policies";

// When the store fails, the limiter counts in process memory and never throws; and the Upstash backend
// speaks the REST protocol (checked against a small stand-in server in front of the real Redis).
const REDIS_URL = process.env.REDIS_URL;

function uniqueIp(): string {
  const [a, b, c] = randomBytes(3);
  return `10.${a}.${b}.${c}`;
}

const limiters: RateLimiter[] = [];
function track(limiter: RateLimiter): RateLimiter {
  limiters.push(limiter);
  return limiter;
}

afterAll(async () => {
  await Promise.all(limiters.map((l) => l.close()));
});

async function expectLimitOfThree(limiter: RateLimiter) {
  const subject = { ip: uniqueIp() };
  const decisions = [];
  for (let i = 0; i < 4; i++) decisions.push(await limiter.check(["auth"], subject));
  expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
    [true, 2],
    [true, 1],
    [true, 0],
    [false, 0],
  ]);
  expect(decisions[3]!.retryAfter).toBeGreaterThan(0);
}

describe("store down: Redis on a port nobody listens on", () => {
  const warnings: Array<{ message: string; fields?: Record<string, unknown> }> = [];
  let limiter: RateLimiter;

  beforeAll(async () => {
    // Find a free port, then close it, so nothing answers there.
    const probe = createTcpServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    limiter = track(
      createRateLimiter(
        { backend: "redis", url: `redis://127.0.0.1:${port}` },
        { prefix: `tagsvc:rl:test:${randomUUID()}`, policies: { auth: { limit: 3, windowMs: HOUR_MS } }, warn: (message, fields) => warnings.push({ message, fields }) },
      ),
    );
  });

  it("answers from process memory without throwing, with the same limits", async () => {
    const started = Date.now();
    await expectLimitOfThree(limiter);
    await expect(limiter.check(["auth"], { ip: uniqueIp() }, { consume: false })).resolves.toMatchObject({ allowed: true, remaining: 3 });
    // Refused connections fail fast: no request waits for the timeout.
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("logs the outage once per minute, not per request", async () => {
    for (let i = 0; i < 5; i++) await limiter.check(["general"], { ip: uniqueIp() });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toMatch(/store unavailable/);
    expect(warnings[0]!.fields).toMatchObject({ backend: "redis" });
  });

  it("reports the store as down", async () => {
    expect(limiter.backend).toBe("redis");
    expect(await limiter.health()).toBe("down");
  });
});

describe("store hanging: a server that accepts connections and never answers", () => {
  let server: TcpServer;
  const sockets = new Set<Socket>();
  const warnings: string[] = [];
  let limiter: RateLimiter;

  beforeAll(async () => {
    server = createTcpServer((socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    limiter = track(
      createRateLimiter(
        { backend: "redis", url: `redis://127.0.0.1:${port}` },
        { prefix: `tagsvc:rl:test:${randomUUID()}`, policies: { auth: { limit: 3, windowMs: HOUR_MS } }, timeoutMs: 150, warn: (message) => warnings.push(message) },
      ),
    );
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("gives up after the timeout and counts in memory", async () => {
    const started = Date.now();
    const decision = await limiter.check(["auth"], { ip: uniqueIp() });
    const elapsed = Date.now() - started;
    expect(decision).toMatchObject({ allowed: true, policy: "auth", limit: 3, remaining: 2 });
    expect(elapsed).toBeGreaterThanOrEqual(140);
    expect(elapsed).toBeLessThan(1_000);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/store unavailable/);
  });

  it("reports the store as down when a ping does not come back in time", async () => {
    const started = Date.now();
    expect(await limiter.health(200)).toBe("down");
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

/**
 * The part of the Upstash REST protocol @upstash/redis uses: POST / with a JSON command array and a bearer
 * token; answers `{ result }` with strings base64-encoded (the client's default). Commands go to the real
 * Redis; EVAL scripts lose their `#!lua flags=` line there, because this machine's Redis 7.0 refuses it
 * (Upstash itself accepts it).
 */
async function startUpstashStandIn(redisUrl: string, token: string): Promise<{ url: string; close(): Promise<void> }> {
  const redis = new IORedis(redisUrl);
  const scripts = new Map<string, string>();
  const encode = (value: unknown): unknown =>
    typeof value === "string" ? (value === "OK" ? value : Buffer.from(value).toString("base64")) : Array.isArray(value) ? value.map(encode) : value;

  async function run([name, ...args]: Array<string | number>): Promise<{ result?: unknown; error?: string }> {
    try {
      const command = String(name).toLowerCase();
      if (command === "eval" || command === "evalsha") {
        const [first, ...rest] = args as [string, ...Array<string | number>];
        if (command === "eval") scripts.set(createHash("sha1").update(first).digest("hex"), first);
        const script = command === "eval" ? first : scripts.get(first);
        if (!script) return { error: "NOSCRIPT No matching script. Please use EVAL." };
        return { result: encode(await redis.call("eval", script.replace(/^#!lua[^\n]*\n/, ""), ...rest)) };
      }
      return { result: encode(await redis.call(command, ...args)) };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  }

  // "/" takes one command; "/pipeline" (the client's auto-pipelining) an array of them.
  const server: HttpServer = createHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      const reply = (status: number, body: unknown) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(body));
      };
      if (request.headers.authorization !== `Bearer ${token}`) return reply(401, { error: "Unauthorized" });
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown[];
      if (request.url === "/pipeline") return reply(200, await Promise.all((body as Array<Array<string | number>>).map(run)));
      const answer = await run(body as Array<string | number>);
      reply(answer.error ? 400 : 200, answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      redis.disconnect();
    },
  };
}

describe.skipIf(!REDIS_URL)("Upstash REST backend (stand-in server over the real Redis)", () => {
  const token = randomUUID();
  let standIn: Awaited<ReturnType<typeof startUpstashStandIn>>;
  const warnings: string[] = [];

  function upstash(config: Omit<Extract<RateLimitBackendConfig, { backend: "upstash" }>, "backend">): RateLimiter {
    return track(
      createRateLimiter(
        { backend: "upstash", ...config },
        { prefix: `tagsvc:rl:test:${randomUUID()}`, policies: { auth: { limit: 3, windowMs: HOUR_MS } }, warn: (message) => warnings.push(message) },
      ),
    );
  }

  beforeAll(async () => {
    standIn = await startUpstashStandIn(REDIS_URL!, token);
  });

  afterAll(async () => {
    await standIn.close();
  });

  it("allows N, then blocks, peeks without counting, and answers pings", async () => {
    const limiter = upstash({ url: standIn.url, token });
    expect(limiter.backend).toBe("upstash");
    expect(await limiter.health()).toBe("ok");
    await expectLimitOfThree(limiter);

    const subject = { ip: uniqueIp() };
    await limiter.check(["auth"], subject);
    expect(await limiter.check(["auth"], subject, { consume: false })).toMatchObject({ allowed: true, remaining: 2 });
    expect(await limiter.check(["auth"], subject, { consume: false })).toMatchObject({ allowed: true, remaining: 2 });
    expect(warnings).toEqual([]);
  });

  it("falls back to memory when the service refuses the token", async () => {
    const limiter = upstash({ url: standIn.url, token: "wrong-token" });
    await expectLimitOfThree(limiter);
    expect(warnings).toHaveLength(1);
    expect(await limiter.health()).toBe("down");
  });
});
