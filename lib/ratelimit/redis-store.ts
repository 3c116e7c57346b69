import { Ratelimit, type RatelimitConfig } from "@upstash/ratelimit";
import { Redis as UpstashRedis } from "@upstash/redis";
import { Redis as IORedis } from "ioredis";
import type { WindowState } from "./decision";
import { createIoredisAdapter, type LimiterRedisClient } from "./ioredis-adapter";
import type { RateLimitPolicyName, ResolvedRateLimitPolicy } from "./policies";
import type { WindowStore } from "./store";

type RatelimitRedis = RatelimitConfig["redis"];

/**
 * Fixed windows in Redis through @upstash/ratelimit (one Ratelimit per policy, keys
 * `<prefix>:<policy>:<identifier>:<window>`). The library's in-process block cache and its own timeout
 * (which lets requests pass on timeout) are off: the limiter applies a timeout that fails over to memory.
 */
class RatelimitWindowStore implements WindowStore {
  private limiters = new Map<RateLimitPolicyName, { policy: ResolvedRateLimitPolicy; ratelimit: Ratelimit }>();

  constructor(
    readonly kind: "redis" | "upstash",
    private readonly redis: RatelimitRedis,
    private readonly prefix: string,
    private readonly pingStore: () => Promise<unknown>,
    private readonly closeStore: () => Promise<void>,
  ) {}

  async hit(policy: ResolvedRateLimitPolicy, identifier: string): Promise<WindowState> {
    const result = await this.ratelimit(policy).limit(identifier);
    if (result.reason === "timeout") throw new Error("rate limit store timed out");
    return { allowed: result.success, limit: result.limit, remaining: result.remaining, resetMs: result.reset };
  }

  async refund(policy: ResolvedRateLimitPolicy, identifier: string, resetMs: number): Promise<void> {
    // The library counts in the window of "now": a refund after that window ended would credit the next.
    if (Date.now() >= resetMs) return;
    // A negative rate is the library's refund: INCRBY -1 on the window's counter, no limit check.
    const result = await this.ratelimit(policy).limit(identifier, { rate: -1 });
    if (result.reason === "timeout") throw new Error("rate limit store timed out");
  }

  async peek(policy: ResolvedRateLimitPolicy, identifier: string): Promise<WindowState> {
    const { remaining, reset, limit } = await this.ratelimit(policy).getRemaining(identifier);
    return { allowed: remaining > 0, limit, remaining, resetMs: reset };
  }

  async ping(): Promise<void> {
    await this.pingStore();
  }

  async close(): Promise<void> {
    await this.closeStore();
  }

  private ratelimit(policy: ResolvedRateLimitPolicy): Ratelimit {
    const cached = this.limiters.get(policy.name);
    if (cached && cached.policy.limit === policy.limit && cached.policy.windowMs === policy.windowMs) return cached.ratelimit;
    const ratelimit = new Ratelimit({
      redis: this.redis,
      limiter: Ratelimit.fixedWindow(policy.limit, `${policy.windowMs} ms`),
      prefix: `${this.prefix}:${policy.name}`,
      ephemeralCache: false,
      timeout: 0,
      analytics: false,
      enableTelemetry: false,
    });
    this.limiters.set(policy.name, { policy, ratelimit });
    return ratelimit;
  }
}

export interface RedisStoreOptions {
  prefix: string;
  /** Connect timeout for ioredis, milliseconds. */
  connectTimeoutMs: number;
}

/** Self-hosted Redis over ioredis. Commands fail (rather than queue) while the connection is down. */
export function createRedisStore(url: string, { prefix, connectTimeoutMs }: RedisStoreOptions): WindowStore {
  const client = new IORedis(url, {
    // Connect on the first command, so a limiter that is never used holds no connection.
    lazyConnect: true,
    connectTimeout: connectTimeoutMs,
    // Reject queued commands at the first failed (re)connect instead of holding requests.
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  // Failures reach the caller through the rejected command; without a listener ioredis prints each one.
  client.on("error", () => {});
  const adapter: LimiterRedisClient = createIoredisAdapter(client);
  return new RatelimitWindowStore(
    "redis",
    adapter as unknown as RatelimitRedis,
    prefix,
    () => client.ping(),
    async () => {
      try {
        await client.quit();
      } catch {
        client.disconnect();
      }
    },
  );
}

/** Upstash Redis over its REST API. */
export function createUpstashStore(url: string, token: string, { prefix }: Pick<RedisStoreOptions, "prefix">): WindowStore {
  const redis = new UpstashRedis({ url, token, enableTelemetry: false, retry: { retries: 1, backoff: () => 50 } });
  return new RatelimitWindowStore("upstash", redis, prefix, () => redis.ping(), async () => {});
}
