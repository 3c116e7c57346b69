/**
 * The bare baseline of `npm run bench -- --only=compare` (issue 16): plain `node:http` + postgres.js, no
 * Next, no Drizzle, no kernel, answering the measured requests with the SQL our server sends and the JSON
 * it answers, so the bench can show the practical limit of Node + PostgreSQL on this machine beside ours.
 *
 * - Authenticated reads check the bearer token as lib/auth/access-token.ts does (HS256, key derived from
 *   AUTH_SECRET; here derived once) and look the session up as lib/services/auth/queries.ts findLiveSession
 *   does (session ⋈ user with the columns a request needs, never password_hash; live and unexpired;
 *   `last_used_at` written when older than a minute, by a conditional UPDATE); a bad token
 *   or ended session is 401 in the same envelope.
 * - GET /api/v1/tags/:id: the owned tag (`id` and `owner_id`), as lib/services/tags getTag.
 * - GET /api/v1/messages: the owner's threads with the last message and unread count, and their total, as
 *   lib/services/messages listThreads (page and limit from the query, defaults 1 and 20); then the page's
 *   finder messages in one query for `scamFlagged` (the scam rules of lib/services/messages/scam-rules.ts).
 * - GET /api/v1/auth/me: the session lookup alone (its user columns are the answer), as getMe since issue 16.
 * - GET /api/v1/scan/:encryptedId: as lib/services/finder scanTag: the tag counted and the scan stored in one
 *   statement (a transaction around it only when the scan may be REAL; not for a client this process saw
 *   scan the tag moments ago), then the public view from reads kept per tag and view_version, else its
 *   four reads at once (reward, general profile, photos, the emergency profile with whether it has a
 *   contact) and the relay. Covers what the bench's data needs: GENERAL tags and anonymous scans with no
 *   geo headers; the first REAL scan's notification (one per tag and client per 10 minutes) is not sent.
 * The rate limiter is left out: this is Node + PostgreSQL alone.
 *
 * Env: PORT, DATABASE_URL, AUTH_SECRET, APP_URL (for scanUrl, as ours), BASELINE_PREPARE (`true`:
 * postgres.js's named prepared statements, its default; `false`: unnamed, parsed and planned every time),
 * BASELINE_POOL (10, as db/client.ts). Prints `listening <port>` once ready; GET /healthz answers 200.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import http from "node:http";
import postgres from "postgres";
import { describeUserAgent, isBotUserAgent } from "@/lib/services/scans/user-agents";
import { scamSignals } from "@/lib/services/messages/scam-rules";
import { accessTokenKey, derivedKey, hashClientIp, verifyAccessToken } from "./access-token";

const port = Number(process.env.PORT ?? 4000);
const databaseUrl = process.env.DATABASE_URL;
const secret = process.env.AUTH_SECRET;
if (!databaseUrl || !secret) throw new Error("baseline-server needs DATABASE_URL and AUTH_SECRET");
const appUrl = (process.env.APP_URL ?? "http://localhost:3000").replace(/\/+$/, "");
const prepare = process.env.BASELINE_PREPARE !== "false";
/** The test telephony provider's relay number, as the app answers it in the scan view's `relay`. */
const relayNumber = process.env.TELEPHONY_RELAY_NUMBER ?? "+15005550006";

const sql = postgres(databaseUrl, {
  max: Number(process.env.BASELINE_POOL ?? 10),
  prepare,
  idle_timeout: 30,
  onnotice: () => {},
  connection: { application_name: prepare ? "bench-baseline" : "bench-baseline-unprepared" },
  // Dates as the driver gives them to drizzle: parsed to Date here, formatted with toISOString below.
});

const tokenKey = accessTokenKey(secret);
const ipKey = derivedKey(secret, "client-ip");
const TOUCH_INTERVAL_MS = 60_000;
const REPEAT_WINDOW_MS = 600_000;
const REPEAT_WINDOW_TEXT = `${REPEAT_WINDOW_MS} milliseconds`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type Row = Record<string, unknown>;

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : value === null || value === undefined ? null : new Date(String(value)).toISOString());

/** findLiveSession: the session and its user, live and unexpired; lastUsedAt touched at most once a minute. */
async function authenticate(req: http.IncomingMessage): Promise<Row> {
  const authorization = req.headers.authorization;
  if (!authorization) throw new HttpError(401, "UNAUTHORIZED", "Authentication required.");
  const [scheme, token, extra] = authorization.trim().split(/\s+/);
  if (scheme?.toLowerCase() !== "bearer" || !token || extra) throw new HttpError(401, "UNAUTHORIZED", "Use `Authorization: Bearer <access token>`.");
  const claims = await verifyAccessToken(tokenKey, token);
  if (!claims) throw new HttpError(401, "UNAUTHORIZED", "The access token is invalid or expired.");
  const now = new Date();
  const [row] = await sql`
    select "sessions"."id", "sessions"."last_used_at",
      "users"."id" as "uid", "users"."email", "users"."first_name", "users"."last_name", "users"."phone",
      "users"."role", "users"."email_verified", "users"."two_factor_enabled", "users"."subscription", "users"."suspended_at",
      "users"."created_at" as "user_created_at"
    from "sessions" inner join "users" on "users"."id" = "sessions"."user_id"
    where ("sessions"."id" = ${claims.sessionId} and "sessions"."revoked_at" is null and "sessions"."expires_at" > ${now})`;
  if (!row || row.uid !== claims.userId) throw new HttpError(401, "UNAUTHORIZED", "This session has ended. Please sign in again.");
  if (row.suspended_at) throw new HttpError(403, "FORBIDDEN", "This account is suspended.");
  if (now.getTime() - (row.last_used_at as Date).getTime() > TOUCH_INTERVAL_MS) {
    await sql`update "sessions" set "last_used_at" = ${now} where ("sessions"."id" = ${claims.sessionId} and "sessions"."last_used_at" < ${new Date(now.getTime() - TOUCH_INTERVAL_MS)}) returning "id"`;
  }
  return row;
}

function tagRecord(tag: Row) {
  const code = String(tag.code);
  return {
    id: tag.id,
    code: `${code.slice(0, 5)}-${code.slice(5)}`,
    encryptedId: tag.encrypted_id,
    scanUrl: `${appUrl}/t/${String(tag.encrypted_id)}`,
    status: tag.status,
    tagType: tag.tag_type,
    itemName: tag.item_name,
    lostMessage: tag.lost_message,
    visibility: tag.visibility,
    scanCount: tag.scan_count,
    lastScannedAt: iso(tag.last_scanned_at),
    activatedAt: iso(tag.activated_at),
    createdAt: iso(tag.created_at),
    updatedAt: iso(tag.updated_at),
  };
}

async function getTag(req: http.IncomingMessage, id: string) {
  const session = await authenticate(req);
  if (!UUID.test(id)) throw new HttpError(404, "NOT_FOUND", "Tag not found.");
  const [tag] = await sql`select "id", "code", "encrypted_id", "owner_id", "status", "tag_type", "item_name", "lost_message", "visibility", "scan_count", "last_scanned_at", "activated_at", "typed_profile_saved_at", "police_report_ref", "stolen_reported_at", "created_at", "updated_at" from "tags" where ("tags"."id" = ${id} and "tags"."owner_id" = ${session.uid as string})`;
  if (!tag) throw new HttpError(404, "NOT_FOUND", "Tag not found.");
  return { success: true, data: tagRecord(tag) };
}

async function getMe(req: http.IncomingMessage) {
  // As ours since issue 16: the user comes from the session lookup, not from a second query.
  const user = await authenticate(req);
  return {
    success: true,
    data: {
      id: user.uid,
      email: user.email,
      firstName: user.first_name,
      lastName: user.last_name,
      phone: user.phone,
      role: user.role,
      emailVerified: user.email_verified,
      twoFactorEnabled: user.two_factor_enabled,
      subscription: user.subscription,
      createdAt: iso(user.user_created_at),
    },
  };
}

async function listThreads(req: http.IncomingMessage, url: URL) {
  const session = await authenticate(req);
  const page = Math.max(1, Number(url.searchParams.get("page") ?? 1) || 1);
  const limit = Math.min(100, Math.max(1, Number(url.searchParams.get("limit") ?? 20) || 20));
  const owner = session.uid as string;
  const [rows, counted] = await Promise.all([
    sql`
      select "threads"."id", "threads"."tag_id", "threads"."owner_id", "tags"."owner_id" as "tag_owner_id", "tags"."item_name", "tags"."visibility",
        "threads"."finder_name", "threads"."finder_phone_last_digits", "threads"."status", "threads"."last_message_at", "threads"."created_at", "threads"."updated_at",
        (select "thread_messages"."content" from "thread_messages" where "thread_messages"."thread_id" = "threads"."id"
          order by "thread_messages"."created_at" desc, "thread_messages"."id" desc limit 1) as "last_message",
        (select count(*)::int from "thread_messages" where "thread_messages"."thread_id" = "threads"."id"
          and "thread_messages"."sender" = 'FINDER' and "thread_messages"."read_at" is null) as "unread_count"
      from "threads" inner join "tags" on "tags"."id" = "threads"."tag_id"
      where "threads"."owner_id" = ${owner}
      order by "threads"."last_message_at" desc, "threads"."id" desc
      limit ${limit}${page > 1 ? sql` offset ${(page - 1) * limit}` : sql``}`,
    sql`select count(*) from "threads" where "threads"."owner_id" = ${owner}`,
  ]);
  const total = Number(counted[0]?.count ?? 0);
  // As flaggedThreads: the page's finder messages in one query, the scam rules run on their text.
  const flagged = new Set<string>();
  if (rows.length) {
    const messages = await sql`
      select "thread_id", "content" from "thread_messages"
      where "thread_messages"."thread_id" in ${sql(rows.map((row) => row.id as string))} and "thread_messages"."sender" = 'FINDER'`;
    for (const message of messages) if (scamSignals(message.content as string).length > 0) flagged.add(message.thread_id as string);
  }
  return {
    success: true,
    data: rows.map((row) => ({
      id: row.id,
      tagId: row.tag_id,
      tagName: row.tag_owner_id === row.owner_id ? (row.item_name ?? null) : null,
      finderName: row.finder_name,
      finderPhoneLastDigits: row.finder_phone_last_digits,
      lastMessage: row.last_message ?? null,
      unreadCount: Number(row.unread_count ?? 0),
      scamFlagged: flagged.has(row.id as string),
      status: row.status,
      lastMessageAt: iso(row.last_message_at),
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
    })),
    meta: { total, page, totalPages: Math.ceil(total / limit) },
  };
}

function peerAddress(req: http.IncomingMessage): string {
  const address = req.socket.remoteAddress ?? "unknown";
  return address.startsWith("::ffff:") ? address.slice(7) : address;
}

type ViewReads = Awaited<ReturnType<typeof readView>>;

/** As publicViewOf: the reads at once; the emergency profile and whether it has a contact in one statement. */
function readView(tag: Row, ownerId: string, reachable: boolean, shown: boolean) {
  return Promise.all([
    sql`select "amount_minor", "currency" from "rewards" where ("rewards"."tag_id" = ${tag.id as string} and "rewards"."status" = ${"ACTIVE"}) limit ${1}`,
    shown ? sql`select "description", "owner_name" from "tag_profiles" where "tag_profiles"."tag_id" = ${tag.id as string}` : [],
    shown ? sql`select "id", "is_primary" from "tag_photos" where "tag_photos"."tag_id" = ${tag.id as string} order by "tag_photos"."created_at" asc, "tag_photos"."id" asc` : [],
    reachable
      ? sql`select "user_id", "blood_type", "conditions", "allergies", "medications", "physician", "physician_phone", "special_instructions", "organ_donor", "created_at", "updated_at",
          exists (select 1 from "emergency_contacts" where "emergency_contacts"."user_id" = "emergency_profiles"."user_id") as "has_contact"
          from "emergency_profiles" where "emergency_profiles"."user_id" = ${ownerId}`
      : [],
    // As publicRelayOf: the relay the tag's current owner turned on, with a verified phone.
    reachable && tag.status !== "EXPIRED"
      ? sql`select "tag_relays"."pin" from "tag_relays" inner join "owner_phones" on "owner_phones"."user_id" = "tag_relays"."owner_id"
          where ("tag_relays"."tag_id" = ${tag.id as string} and "tag_relays"."owner_id" = ${ownerId} and "tag_relays"."enabled" = ${true})`
      : [],
  ]);
}

/**
 * As ours (lib/services/scans/scan-tag.ts countAndStore, docs/decisions/0051-scan-hot-path.md): the scan is
 * counted and stored in one statement; in a transaction only when it may be REAL (ours puts the owner's
 * notification in it, which this baseline leaves out), alone when the class cannot be REAL or this process
 * stored the client's REAL scan of the tag moments ago.
 */
async function countAndStore(db: postgres.Sql | postgres.TransactionSql, encryptedId: string, ipHash: string | null, visitorClass: string, agent: string | null): Promise<{ tag: Row; scanClass: string; repeatRemainingMs: number | null } | undefined> {
  const real = visitorClass === "REAL";
  const [row] = await db`
    with counted as (
      update tags set scan_count = scan_count + 1, last_scanned_at = now() where encrypted_id = ${encryptedId} returning *
    ), repeat as (
      select ${real ? db`scan_repeat_remaining_ms(counted.id, ${ipHash}::text, ${REPEAT_WINDOW_TEXT}::interval)` : db`null::float8`} as remaining_ms from counted
    ), stored as (
      insert into scans (tag_id, ip_hash, city, country, latitude, longitude, suspicious, scan_class, agent)
      select counted.id, ${ipHash}::text, ${null}::text, ${null}::text, ${null}::float8, ${null}::float8, false,
        ${real ? db`case when repeat.remaining_ms is not null then 'REPEAT'::scan_class else 'REAL'::scan_class end` : db`${visitorClass}::scan_class`}, ${agent}::text
      from counted cross join repeat
      returning id, scan_class
    )
    select counted.*, stored.scan_class as "stored_class", repeat.remaining_ms from counted cross join stored cross join repeat`;
  if (!row) return undefined;
  const scanClass = String(row.stored_class);
  return { tag: row, scanClass, repeatRemainingMs: scanClass === "REPEAT" && row.remaining_ms !== null ? Number(row.remaining_ms) : null };
}

/** Clients whose next scans of a tag are certainly REPEAT, and until when (as ours). */
const knownRepeats = new Map<string, number>();
/** The view's reads per tag while its view_version stays the same (as ours: lib/services/finder/view.ts scanViewOf). */
const viewReads = new Map<string, { version: number; ownerId: string; reads: ViewReads }>();

async function scan(req: http.IncomingMessage, encryptedId: string) {
  const userAgent = req.headers["user-agent"] ?? null;
  const ipHash = hashClientIp(ipKey, peerAddress(req));
  const prefetch = /\bprefetch\b/i.test(`${req.headers["sec-purpose"] ?? ""},${req.headers.purpose ?? ""}`);
  const visitorClass = req.method === "HEAD" || prefetch ? "PREFETCH" : isBotUserAgent(userAgent) ? "BOT" : "REAL";
  const agent = describeUserAgent(userAgent);
  const repeatKey = `${encryptedId}\u0000${ipHash}`;
  const knownRepeat = visitorClass === "REAL" && ipHash !== null && (knownRepeats.get(repeatKey) ?? 0) > Date.now();
  const counted =
    visitorClass === "REAL" && !knownRepeat
      ? await sql.begin((tx) => countAndStore(tx, encryptedId, ipHash, visitorClass, agent))
      : await countAndStore(sql, encryptedId, ipHash, visitorClass, agent);
  if (!counted) throw new HttpError(404, "NOT_FOUND", "No tag has this scan address.");
  const repeatsFor = counted.scanClass === "REAL" ? REPEAT_WINDOW_MS : counted.repeatRemainingMs;
  if (repeatsFor !== null && repeatsFor > 60_000 && ipHash !== null) knownRepeats.set(repeatKey, Date.now() + repeatsFor - 60_000);
  const tag = counted.tag;
  const ownerId = tag.owner_id as string | null;
  if (!ownerId) {
    const none = { tagId: tag.id, encryptedId: tag.encrypted_id, tagType: tag.tag_type, reward: null, rewardCurrency: null };
    return { success: true, data: { ...none, itemName: null, description: null, ownerName: null, status: "PENDING_SETUP", lostMessage: null, photos: [], contactEnabled: false, emergencyAvailable: false, details: null, relay: null } };
  }
  const reachable = tag.status !== "DEACTIVATED";
  const shown = tag.visibility === "PUBLIC" && tag.status !== "DEACTIVATED";
  const cached = viewReads.get(tag.id as string);
  let reads: ViewReads;
  if (cached && cached.version === Number(tag.view_version) && cached.ownerId === ownerId) reads = cached.reads;
  else {
    reads = await readView(tag, ownerId, reachable, shown);
    viewReads.set(tag.id as string, { version: Number(tag.view_version), ownerId, reads });
  }
  const [[reward], general, photos, emergency, [relay]] = reads;
  const base = { tagId: tag.id, encryptedId: tag.encrypted_id, tagType: tag.tag_type, reward: reward ? Number(reward.amount_minor) / 100 : null, rewardCurrency: reward?.currency ?? null };
  return {
    success: true,
    data: {
      ...base,
      itemName: shown ? tag.item_name : null,
      description: general[0]?.description ?? null,
      ownerName: general[0]?.owner_name ?? null,
      status: tag.status,
      lostMessage: tag.status === "LOST" ? tag.lost_message : null,
      photos: [...photos].sort((a, b) => Number(b.is_primary) - Number(a.is_primary)).map((photo) => ({ url: `/api/photos/${String(photo.id)}`, isPrimary: photo.is_primary })),
      contactEnabled: reachable,
      emergencyAvailable: Boolean(emergency[0]?.has_contact),
      details: null,
      relay: relay?.pin ? { number: relayNumber, pin: relay.pin as string } : null,
    },
  };
}

async function handle(req: http.IncomingMessage): Promise<{ status: number; body: unknown }> {
  const url = new URL(req.url ?? "/", "http://baseline");
  const parts = url.pathname.split("/").filter(Boolean);
  if (req.method !== "GET" && req.method !== "HEAD") throw new HttpError(405, "METHOD_NOT_ALLOWED", "Method not allowed.");
  if (url.pathname === "/healthz") return { status: 200, body: { success: true } };
  if (parts[0] === "api" && parts[1] === "v1") {
    if (parts[2] === "tags" && parts.length === 4) return { status: 200, body: await getTag(req, decodeURIComponent(parts[3]!)) };
    if (parts[2] === "messages" && parts.length === 3) return { status: 200, body: await listThreads(req, url) };
    if (parts[2] === "auth" && parts[3] === "me" && parts.length === 4) return { status: 200, body: await getMe(req) };
    if (parts[2] === "scan" && parts.length === 4) return { status: 200, body: await scan(req, decodeURIComponent(parts[3]!)) };
  }
  throw new HttpError(404, "NOT_FOUND", "No API endpoint exists at this path.");
}

/**
 * BASELINE_ASYNC_CONTEXT=true (a diagnosis, not the reference): each request runs inside an
 * AsyncLocalStorage, as every request inside Next does. On Node 20 that turns on async_hooks' promise
 * hooks, so every promise and await of the process pays for context tracking: what the same SQL costs there.
 */
const requestContext = process.env.BASELINE_ASYNC_CONTEXT === "true" ? new AsyncLocalStorage<{ url: string | undefined }>() : null;

const server = http.createServer((req, res) => {
  (requestContext ? requestContext.run({ url: req.url }, () => handle(req)) : handle(req))
    .catch((error: unknown) => {
      if (error instanceof HttpError) return { status: error.status, body: { success: false, error: { code: error.code, message: error.message } } };
      console.error(error);
      return { status: 500, body: { success: false, error: { code: "INTERNAL_ERROR", message: "Something went wrong." } } };
    })
    .then(({ status, body }) => {
      const text = JSON.stringify(body);
      res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text), "Cache-Control": "no-store" });
      res.end(req.method === "HEAD" ? undefined : text);
    });
});

server.keepAliveTimeout = 65_000;
server.listen(port, "127.0.0.1", () => console.log(`listening ${port}`));

const stop = () => {
  server.close();
  void sql.end({ timeout: 2 }).finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 3_000).unref();
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
