import { createHash } from "node:crypto";
import type { Redis as IORedis } from "ioredis";

/**
 * What @upstash/ratelimit calls on its redis client (src/hash.ts `safeEval`: evalsha, then eval on
 * NOSCRIPT; get/set only for dynamic limits, which we leave off), implemented over ioredis for a
 * self-hosted Redis.
 *
 * The library's Lua scripts start with `#!lua flags=allow-key-locking`, a flag Redis 7.0 rejects, so the
 * first line is stripped. The library calls evalsha with the SHA-1 of the original text; the adapter keeps
 * a map from that hash to the stripped script and its own hash, filled on the first eval.
 */
export interface LimiterRedisClient {
  evalsha(sha1: string, keys: string[], args: unknown[]): Promise<unknown>;
  eval(script: string, keys: string[], args: unknown[]): Promise<unknown>;
  get(key: string): Promise<string | null>;
  set(key: string, value: unknown): Promise<string | null>;
}

const SCRIPT_FLAGS_LINE = /^#!lua[^\n]*\n/;

export function stripScriptFlags(script: string): string {
  return script.replace(SCRIPT_FLAGS_LINE, "");
}

export function sha1Hex(text: string): string {
  return createHash("sha1").update(text).digest("hex");
}

function isNoScript(error: unknown): boolean {
  return String(error instanceof Error ? error.message : error).includes("NOSCRIPT");
}

function toRedisArg(value: unknown): string | number {
  if (typeof value === "number" || typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** States in which a command would only wait for a reconnect that may never come: fail fast instead. */
const UNAVAILABLE = new Set<IORedis["status"]>(["reconnecting", "close", "end"]);

export function createIoredisAdapter(client: IORedis): LimiterRedisClient {
  const scripts = new Map<string, { body: string; sha: string }>();

  function assertAvailable(): void {
    if (UNAVAILABLE.has(client.status)) throw new Error(`Redis connection is ${client.status}`);
  }

  return {
    async evalsha(sha1, keys, args) {
      assertAvailable();
      const script = scripts.get(sha1);
      // Unknown hash: answer as Redis would, so the library sends the script with eval.
      if (!script) throw new Error(`NOSCRIPT No matching script for ${sha1}`);
      const values = args.map(toRedisArg);
      try {
        return await client.evalsha(script.sha, keys.length, ...keys, ...values);
      } catch (error) {
        // The server lost its script cache (restart, SCRIPT FLUSH): send the body again.
        if (isNoScript(error)) return client.eval(script.body, keys.length, ...keys, ...values);
        throw error;
      }
    },
    async eval(text, keys, args) {
      assertAvailable();
      const body = stripScriptFlags(text);
      scripts.set(sha1Hex(text), { body, sha: sha1Hex(body) });
      return client.eval(body, keys.length, ...keys, ...args.map(toRedisArg));
    },
    async get(key) {
      assertAvailable();
      return client.get(key);
    },
    async set(key, value) {
      assertAvailable();
      return client.set(key, toRedisArg(value));
    },
  };
}
