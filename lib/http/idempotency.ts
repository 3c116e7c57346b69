import { createHmac } from "node:crypto";
import { and, eq, isNull, lte, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { idempotencyKeys } from "@/db/schema";
import { derivedKey, openSealedText, sealText } from "@/lib/auth/tokens";
import { ConflictError, UnprocessableError, ValidationError } from "@/lib/services/errors";
import type { Endpoint } from "./endpoint";

/**
 * `Idempotency-Key` on POST, with Stripe's semantics, for route() (lib/http/route.ts):
 *
 * - The first request with a key claims the row (caller, key) before its handler runs; its answer is
 *   stored when it ends (status, Content-Type and Location, the body sealed with AES-256-GCM since answers
 *   can carry tokens) and kept for 24 hours.
 * - A retry with the same request hash gets the stored answer with `Idempotent-Replayed: true`; the same key
 *   with another method, path or body is 422; a retry while the first still runs waits up to
 *   IDEMPOTENCY_WAIT_MS for it, then is 409.
 * - 5xx and 429 answers are not stored (the row is deleted, so a retry runs again); validation failures
 *   found by route() before the handler starts never claim a key (nothing ran), as with Stripe.
 *
 * A row left running because its process died, or because its answer could not be written, stays 409 for
 * the key's 24 hours: its effect may have happened, so running the request again could do it twice.
 */

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const IDEMPOTENT_REPLAYED_HEADER = "Idempotent-Replayed";
export const IDEMPOTENCY_TTL_HOURS = 24;
/** How long a retry waits for the first request with its key to finish before answering 409. */
export const IDEMPOTENCY_WAIT_MS = 2_000;
const POLL_INTERVAL_MS = 50;
const MAX_KEY_LENGTH = 255;
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;
/** Headers of an answer worth replaying; request ids and rate-limit headers are always the retry's own. */
const REPLAYED_HEADERS = ["content-type", "location", "content-disposition"];
const SEAL_PURPOSE = "idempotency-response";
/** Expired rows deleted, at most, by one claim (opportunistic clean-up; the claim also takes over its own key's). */
const PURGE_BATCH = 100;

/** Database time for storing or releasing a key after the handler, beside (not within) the request's budget. */
export const IDEMPOTENCY_FINISH_BUDGET_MS = 500;

/**
 * Where the header is honoured: POSTs under /api/v1 that take a credential (the key is scoped to the
 * signed-in user), except those that opt out. Public POSTs ignore it: an anonymous caller has no account to
 * scope a key to (a client IP is shared and a key can be guessed, and their answers carry thread tokens),
 * and the sign-in endpoints mint credentials; the payment webhook dedupes by event id itself.
 */
export function idempotencyApplies(endpoint: Pick<Endpoint, "method" | "path" | "auth" | "idempotency" | "versioned">): boolean {
  const versioned = endpoint.versioned ?? endpoint.path.startsWith("/api/v1");
  return versioned && endpoint.method === "POST" && endpoint.auth !== "public" && endpoint.idempotency !== false;
}

/** The header's key, or undefined when absent; 400 naming the header when it is not 1–255 printable ASCII characters. */
export function parseIdempotencyKey(value: string | null): string | undefined {
  if (value === null) return undefined;
  if (value.length === 0 || value.length > MAX_KEY_LENGTH || !PRINTABLE_ASCII.test(value)) {
    throw ValidationError.field(IDEMPOTENCY_HEADER, `${IDEMPOTENCY_HEADER} must be 1 to ${MAX_KEY_LENGTH} printable ASCII characters.`);
  }
  return value;
}

/** JSON with object keys sorted at every level, so key order and whitespace do not change a request's hash. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? "null" : canonicalJson(item))).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** What identifies a request for its key: method, path with query, and the body (canonical JSON, or the raw bytes of any other body). */
export interface RequestFingerprint {
  method: string;
  /** Path and query string. */
  path: string;
  body: { json: unknown } | { bytes: Uint8Array } | undefined;
}

/**
 * HMAC-SHA256 under a key derived from AUTH_SECRET, not a bare hash: bodies hold passwords (change-password)
 * and codes, and an unkeyed hash of one kept for a day could be guessed offline.
 */
export function requestHash({ method, path, body }: RequestFingerprint): string {
  const hash = createHmac("sha256", derivedKey("idempotency-request")).update(`${method.toUpperCase()}\n${path}\n`);
  if (body && "json" in body) hash.update(`json:${canonicalJson(body.json)}`);
  else if (body) hash.update("bytes:").update(body.bytes);
  return hash.digest("hex");
}

/** The principal keys belong to (Stripe scopes keys per account): the user, whatever credential they used. */
export function idempotencyCaller(userId: string): string {
  return `user:${userId}`;
}

/** A claimed key: the request runs, and its answer is stored or released through this. */
export interface IdempotencyClaim {
  caller: string;
  key: string;
}

export type IdempotencyOutcome = { kind: "run"; claim: IdempotencyClaim } | { kind: "replay"; response: Response };

interface ClaimRequest {
  caller: string;
  key: string;
  method: string;
  path: string;
  hash: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Claims the key for this request (a new row, or one whose 24 hours are over), or answers from the row
 * already there: the stored answer (same hash, finished), 422 (another request), or 409 after waiting
 * `waitMs` for a request still running. One atomic statement decides who runs, so of any number of
 * concurrent requests with one key exactly one runs.
 */
export async function claimIdempotencyKey(db: Executor, request: ClaimRequest, waitMs = IDEMPOTENCY_WAIT_MS): Promise<IdempotencyOutcome> {
  const deadline = Date.now() + waitMs;
  const claim: IdempotencyClaim = { caller: request.caller, key: request.key };
  for (;;) {
    const claimed = await db
      .insert(idempotencyKeys)
      .values({
        caller: request.caller,
        key: request.key,
        method: request.method,
        path: request.path,
        requestHash: request.hash,
        expiresAt: sql`now() + make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`,
      })
      .onConflictDoUpdate({
        target: [idempotencyKeys.caller, idempotencyKeys.key],
        set: {
          method: sql`excluded.method`,
          path: sql`excluded.path`,
          requestHash: sql`excluded.request_hash`,
          responseStatus: null,
          responseHeaders: null,
          responseBody: null,
          createdAt: sql`now()`,
          completedAt: null,
          expiresAt: sql`excluded.expires_at`,
        },
        // Only an expired row is taken over; a live one leaves the insert a no-op that returns nothing.
        setWhere: lte(idempotencyKeys.expiresAt, sql`now()`),
      })
      .returning({ key: idempotencyKeys.key });
    if (claimed.length) {
      await purgeExpiredIdempotencyKeys(db, PURGE_BATCH);
      return { kind: "run", claim };
    }

    const [row] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.caller, request.caller), eq(idempotencyKeys.key, request.key), sql`${idempotencyKeys.expiresAt} > now()`));
    // Gone (its request failed and released it, or it just expired): try to claim it again.
    if (!row) continue;
    if (row.requestHash !== request.hash) {
      throw new UnprocessableError(
        `This ${IDEMPOTENCY_HEADER} was already used for a different request (${row.method} ${row.path} with another body). Use a new key for a new request.`,
      );
    }
    if (row.completedAt && row.responseStatus !== null) return { kind: "replay", response: storedResponse(row) };
    if (Date.now() >= deadline) {
      throw new ConflictError(`A request with this ${IDEMPOTENCY_HEADER} is still being processed. Retry later to get its answer.`);
    }
    await sleep(POLL_INTERVAL_MS);
  }
}

function storedResponse(row: typeof idempotencyKeys.$inferSelect): Response {
  const headers = new Headers(row.responseHeaders ?? {});
  headers.set(IDEMPOTENT_REPLAYED_HEADER, "true");
  const body = row.responseBody === null ? null : openSealedText(SEAL_PURPOSE, row.responseBody);
  return new Response(body, { status: row.responseStatus!, headers });
}

/** 5xx (a retry should run again) and 429 (a limit, not an answer) are not kept. */
export function isStorableStatus(status: number): boolean {
  return status < 500 && status !== 429;
}

/** Stores the answer of a claimed request, or releases the key when the answer is not one to keep. */
export async function completeIdempotencyKey(db: Executor, claim: IdempotencyClaim, response: Response): Promise<void> {
  if (!isStorableStatus(response.status)) {
    await releaseIdempotencyKey(db, claim);
    return;
  }
  const text = response.body === null ? null : await response.clone().text();
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  await db
    .update(idempotencyKeys)
    .set({ responseStatus: response.status, responseHeaders: headers, responseBody: text === null ? null : sealText(SEAL_PURPOSE, text), completedAt: sql`now()` })
    .where(and(eq(idempotencyKeys.caller, claim.caller), eq(idempotencyKeys.key, claim.key), isNull(idempotencyKeys.completedAt)));
}

/** Frees the key (the request failed in a way a retry should run again). */
export async function releaseIdempotencyKey(db: Executor, claim: IdempotencyClaim): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.caller, claim.caller), eq(idempotencyKeys.key, claim.key), isNull(idempotencyKeys.completedAt)));
}

/**
 * Deletes up to `limit` rows past their 24 hours (oldest first) and returns how many. Run by every claim,
 * so the table holds about a day of keys without a scheduled job; rows locked by a concurrent claim are skipped.
 */
export async function purgeExpiredIdempotencyKeys(db: Executor, limit: number): Promise<number> {
  const deleted = await db
    .delete(idempotencyKeys)
    .where(
      sql`(${idempotencyKeys.caller}, ${idempotencyKeys.key}) IN (
        SELECT caller, key FROM ${idempotencyKeys} WHERE expires_at <= now() ORDER BY expires_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
      )`,
    )
    .returning({ caller: idempotencyKeys.caller });
  return deleted.length;
}
