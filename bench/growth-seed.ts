/**
 * The growth bench's data (bench/growth.ts): the volumes of issue 30 at a fraction, written by set-based SQL
 * (generate_series) straight into the tables, with the skew a real service has: one hot tag with 11% of all
 * scans (over a million at full size), one heavy user with 10% of all notifications (200,000) and 1% of the
 * conversations. Every foreign key and enum value is valid by construction: an entity's id is derived from
 * its number (md5('tag:' || n)::uuid), so a scan of tag n names it without a join.
 *
 * The seed writes the tables as they are at SEED_MIGRATION (the caller migrates up to it first, seeds, then
 * applies the later migrations to the seeded data, as an upgrade of a production database would: a later
 * migration's backfill or new index runs on the rows and is timed). While seeding, the session runs with
 * `session_replication_role = replica`, which skips foreign-key checks and every user trigger (there are
 * none on these tables at SEED_MIGRATION), and the tables' secondary indexes (and the primary keys of the
 * tables no foreign key points at) are dropped and rebuilt after the rows are in: bulk index builds take a
 * fraction of the time of 10 million index insertions.
 */
import { createHash } from "node:crypto";
import type { PGlite } from "@electric-sql/pglite";
import type { Sql } from "postgres";

/** The migration whose schema the seed's SQL is written for. */
export const SEED_MIGRATION = "0024_earth_point_indexes";

/** Issue 30's full size (100%). */
export const FULL_VOLUMES = {
  users: 200_000,
  tags: 1_000_000,
  scans: 10_000_000,
  /** The hot tag's share of the scans: over a million at full size. */
  hotTagScans: 1_100_000,
  conversations: 500_000,
  messages: 2_000_000,
  notifications: 2_000_000,
  /** The heavy user's share of the notifications. */
  heavyUserNotifications: 200_000,
  /** The heavy user's share of the conversations (their inbox). */
  heavyUserConversations: 5_000,
  orders: 100_000,
} as const;

export type Volumes = { [K in keyof typeof FULL_VOLUMES]: number };

/** The volumes at `percent` % of the full size (at least one of each). */
export function volumesAt(percent: number): Volumes {
  return Object.fromEntries(Object.entries(FULL_VOLUMES).map(([key, full]) => [key, Math.max(1, Math.round((full * percent) / 100))])) as Volumes;
}

/** Owned tags are the first 80%; the rest is unowned inventory (PENDING_SETUP). */
export const ownedTags = (volumes: Volumes) => Math.max(2, Math.floor(volumes.tags * 0.8));

/** The tables the seed writes, whose secondary indexes it drops and rebuilds. */
const SEEDED_TABLES = ["users", "tags", "scans", "threads", "thread_messages", "notifications", "orders", "order_items"];
const SEEDED_TABLES_SQL = `array[${SEEDED_TABLES.map((table) => `'${table}'`).join(", ")}]`;

type Kind = "user" | "tag" | "thread" | "order";

/**
 * Ids derived from a row's number, random-looking like gen_random_uuid()'s: an md5 with the version (4) and
 * variant (8) digits of a version-4 UUID, which the API's parameter check (zod's uuid) requires.
 */
export const seededId = (kind: Kind, n: number | string) => `overlay(overlay(md5('${kind}:' || ${n}) placing '4' from 13) placing '8' from 17)::uuid`;

/** The id seededId gives row `n`, computed here. */
export function seededUuid(kind: Kind, n: number): string {
  const hex = createHash("md5").update(`${kind}:${n}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20)}`;
}

/** One database session the seed runs its statements on (its settings hold for every statement). */
export interface SeedSession {
  query<T = Record<string, unknown>>(text: string): Promise<T[]>;
}

/** A postgres.js client of one connection (max: 1) as the seed's session. */
export const postgresSession = (sql: Sql): SeedSession => ({ query: async <T>(text: string) => (await sql.unsafe(text)) as unknown as T[] });

/** An embedded database as the seed's session (the tests seed a tiny size on both). */
export const pgliteSession = (pglite: PGlite): SeedSession => ({ query: async <T>(text: string) => (await pglite.query<T>(text)).rows });

export interface SeedStep {
  step: string;
  rows: number;
  ms: number;
}

const FIRST_NAMES = ["Anna", "Ben", "Clara", "David", "Emma", "Felix", "Greta", "Hugo", "Ida", "Jonas", "Karla", "Leon", "Mia", "Noah", "Olivia", "Paul", "Rosa", "Sam", "Tara", "Umar", "Vera", "Will", "Yara", "Zoe", "Lucas", "Sofia", "Mateo", "Lena", "Elias", "Nora"];
const LAST_NAMES = ["Smith", "Garcia", "Muller", "Rossi", "Dubois", "Kowalski", "Nielsen", "Jansen", "Silva", "Novak", "Hansen", "Weber", "Martin", "Lopez", "Schmidt", "Fischer", "Bauer", "Moreau", "Conti", "Berg", "Larsen", "Meyer", "Wagner", "Keller", "Horvat", "Ivanova", "Costa", "Brennan", "Okafor", "Tanaka"];
const DOMAINS = ["example.com", "example.org", "example.net", "mail.example", "post.example"];
const CITIES = [
  ["Berlin", "DE"],
  ["Madrid", "ES"],
  ["Paris", "FR"],
  ["London", "GB"],
  ["Rome", "IT"],
  ["Vienna", "AT"],
  ["Lisbon", "PT"],
  ["Warsaw", "PL"],
  ["Amsterdam", "NL"],
  ["New York", "US"],
];
const AGENTS = ["iPhone Safari", "Android Chrome", "Windows Chrome", "Mac Safari", "Android Samsung Internet", "iPad Safari"];
const BOT_AGENTS = ["Slackbot", "WhatsApp", "Googlebot", "facebookexternalhit"];
const FINDER_TEXTS = [
  "Hi, I found your item near the station. How can I return it?",
  "Hello! I have your keys, I'm at the café on the corner until 6.",
  "Found this at the park, it looks well kept. Where shall we meet?",
  "I picked it up on the bus. I can leave it at the front desk of my office.",
  "Your dog is with me and safe. Please call or write back.",
];
const OWNER_TEXTS = ["Thank you so much! I can come by this evening.", "That's wonderful, thank you. Would tomorrow at noon work?", "Thanks! I'll pick it up at the front desk."];
/** One in a hundred finder messages trips the scam rules (an upfront payment). */
const SCAM_TEXT = "Before I give it back please send a deposit by bank transfer first, then we meet.";

const literalArray = (values: readonly string[]) => `array[${values.map((value) => `'${value.replace(/'/g, "''")}'`).join(", ")}]`;
/** `array[…]` picked by a number: (arr)[1 + n % len]. */
const pick = (values: readonly string[], n: string) => `(${literalArray(values)})[1 + (${n}) % ${values.length}]`;

/**
 * Seeds `volumes` into an empty database migrated to SEED_MIGRATION, on a session of its own (a
 * connection: the session settings hold for every statement). Returns each step's rows and time.
 */
export async function seedGrowth(sql: SeedSession, volumes: Volumes, log: (line: string) => void = () => {}): Promise<SeedStep[]> {
  const steps: SeedStep[] = [];
  const timed = async (step: string, rows: number, statements: string | string[]) => {
    const started = performance.now();
    for (const statement of Array.isArray(statements) ? statements : [statements]) await sql.query(statement);
    const ms = Math.round(performance.now() - started);
    steps.push({ step, rows, ms });
    log(`  ${step}: ${rows.toLocaleString("en")} rows in ${(ms / 1000).toFixed(1)} s`);
  };
  /** Big inserts go in chunks of a million rows (progress, and no single huge statement). */
  const chunked = (total: number, statement: (from: number, to: number) => string, size = 1_000_000) => {
    const statements: string[] = [];
    for (let from = 1; from <= total; from += size) statements.push(statement(from, Math.min(total, from + size - 1)));
    return statements;
  };

  const U = volumes.users;
  const T = volumes.tags;
  const owned = ownedTags(volumes);
  const S = volumes.scans;
  const H = Math.min(volumes.hotTagScans, S);
  const C = volumes.conversations;
  const HC = Math.min(volumes.heavyUserConversations, C);
  const M = volumes.messages;
  const N = volumes.notifications;
  const HN = Math.min(volumes.heavyUserNotifications, N);
  const O = volumes.orders;
  /** The owner of tag n (n ≤ owned): tags go round the users, so each has about four; user 1 owns tag 1, the hot tag. */
  const ownerOf = (n: string) => seededId("user", `(1 + ((${n}) - 1) % ${U})`);

  // Without FK checks and user triggers (a superuser's setting; without it the seed runs with both).
  const replica = await sql
    .query("set session_replication_role = replica")
    .then(() => true)
    .catch(() => false);
  await sql.query("set maintenance_work_mem = '256MB'");
  await sql.query("set work_mem = '128MB'");
  await sql.query("set synchronous_commit = off");
  await sql.query("select setseed(0.30)");
  log(`  foreign-key checks and user triggers ${replica ? "off (session_replication_role = replica)" : "on (not a superuser)"}`);

  // Secondary indexes (not those behind a primary key or unique constraint) are rebuilt after the rows are in.
  const indexes = await sql.query<{ name: string; definition: string }>(`
    select i.indexname as name, i.indexdef as definition from pg_indexes i
    where i.schemaname = 'public' and i.tablename = any(${SEEDED_TABLES_SQL})
      and not exists (select 1 from pg_constraint c where c.conname = i.indexname and c.connamespace = 'public'::regnamespace)`);
  for (const index of indexes) await sql.query(`drop index "${index.name}"`);
  // So are the primary keys of the tables no foreign key points at (scans, notifications): ten million
  // random UUIDs inserted one by one into a B-tree cost more than sorting them once.
  const keys = await sql.query<{ table: string; name: string; definition: string }>(`
    select c.conrelid::regclass::text as table, c.conname as name, pg_get_constraintdef(c.oid) as definition from pg_constraint c
    where c.contype in ('p', 'u') and c.conrelid::regclass::text = any(${SEEDED_TABLES_SQL})
      and not exists (select 1 from pg_constraint f where f.contype = 'f' and f.confrelid = c.conrelid)`);
  for (const key of keys) await sql.query(`alter table "${key.table}" drop constraint "${key.name}"`);

  await timed(
    "users",
    U,
    `insert into users (id, email, password_hash, first_name, last_name, role, email_verified, two_factor_enabled, subscription, suspended_at, created_at, updated_at)
     select ${seededId("user", "g")},
       lower(${pick(FIRST_NAMES, "g")} || '.' || ${pick(LAST_NAMES, "g / 30")}) || g || '@' || ${pick(DOMAINS, "g / 7")},
       '$scrypt$growth-bench$not-a-real-hash',
       ${pick(FIRST_NAMES, "g")}, ${pick(LAST_NAMES, "g / 30")}, 'USER',
       random() < 0.85, random() < 0.1,
       (case when g = 1 then 'PREMIUM' when random() < 0.02 then 'PREMIUM' when random() < 0.08 then 'PRO' else 'FREE' end)::subscription_tier,
       case when g > 1 and random() < 0.005 then now() - random() * interval '30 days' end,
       c, c
     from generate_series(1, ${U}) g, lateral (select now() - (random() + 0 * g) * interval '365 days' as c) t`,
  );

  await timed(
    "tags",
    T,
    chunked(
      T,
      (from, to) => `insert into tags (id, code, encrypted_id, owner_id, status, tag_type, item_name, visibility, activated_at, created_at, updated_at)
     select ${seededId("tag", "g")},
       'G' || lpad(g::text, 9, '0'),
       translate(encode(decode(md5('scan:' || g) || left(md5('url:' || g), 4), 'hex'), 'base64'), '+/', '-_'),
       case when g <= ${owned} then ${ownerOf("g")} end,
       (case when g > ${owned} then 'PENDING_SETUP' when g = 1 or g % 100 < 85 then 'ACTIVE' when g % 100 < 90 then 'LOST' when g % 100 < 92 then 'FOUND'
             when g % 100 < 93 then 'STOLEN' else 'DEACTIVATED' end)::tag_status,
       (case when g = 1 or (g / 100) % 10 < 5 then 'GENERAL' when (g / 100) % 10 < 7 then 'PET' when (g / 100) % 10 < 8 then 'DEVICE'
             when (g / 100) % 10 < 9 then 'VEHICLE' else 'TRAVEL' end)::tag_type,
       case when g <= ${owned} then ${pick(["Keys", "Backpack", "Wallet", "Bike", "Laptop bag", "Suitcase", "Camera", "Umbrella"], "g")} || ' ' || g end,
       'PUBLIC', case when g <= ${owned} then c + interval '1 day' end, c, c
     from generate_series(${from}, ${to}) g, lateral (select now() - interval '400 days' + (random() + 0 * g) * interval '30 days' as c) t`,
    ),
  );

  // Scans: the hot tag (tag 1) gets H of them; the rest fall on owned tags 2…owned with a power-law skew
  // (random()^3: low-numbered tags are scanned most), over the last 365 days.
  const cities = CITIES.map(([city]) => city!);
  const countries = CITIES.map(([, country]) => country!);
  await timed(
    "scans",
    S,
    chunked(
      S,
      (from, to) => `insert into scans (tag_id, scanned_at, ip_hash, city, country, latitude, longitude, location_shared, suspicious, scan_class, agent)
     select case when g <= ${H} then ${seededId("tag", "1")} else ${seededId("tag", `(2 + floor(power(r1, 3) * ${owned - 1})::int)`)} end,
       now() - r2 * interval '365 days',
       md5('ip:' || ip) || md5('ip2:' || ip),
       case when r3 < 0.8 then ${pick(cities, "ip")} end, case when r3 < 0.9 then ${pick(countries, "ip")} end,
       case when r3 < 0.2 then 40 + r1 * 15 end, case when r3 < 0.2 then -5 + r2 * 25 end,
       r3 < 0.03, r4 < 0.01,
       (case when r4 < 0.80 then 'REAL' when r4 < 0.90 then 'REPEAT' when r4 < 0.95 then 'BOT' when r4 < 0.98 then 'PREFETCH' else 'OWNER' end)::scan_class,
       case when r4 >= 0.90 and r4 < 0.95 then ${pick(BOT_AGENTS, "ip")} else ${pick(AGENTS, "ip")} end
     from generate_series(${from}, ${to}) g,
       lateral (select random() + 0 * g as r1, random() as r2, random() as r3, random() as r4, floor(random() * 3000000)::int as ip offset 0) r`,
    ),
  );
  await timed(
    "tags' scan counts",
    owned,
    `update tags set scan_count = s.n, last_scanned_at = s.last
     from (select tag_id, count(*)::int as n, max(scanned_at) as last from scans group by tag_id) s where tags.id = s.tag_id`,
  );

  // Conversations: HC on the heavy user's hot tag, the rest on owned tags (skewed like the scans); four
  // messages each (finder, owner, finder, owner…), two hours apart.
  await timed(
    "conversations",
    C,
    `insert into threads (id, tag_id, owner_id, token_hash, finder_name, status, last_message_at, created_at, updated_at)
     select ${seededId("thread", "g")}, ${seededId("tag", "n")}, ${ownerOf("n")}, md5('token:' || g) || md5('token2:' || g),
       case when random() < 0.5 then ${pick(FIRST_NAMES, "g / 3")} end,
       (case when random() < 0.9 then 'ACTIVE' when random() < 0.8 then 'CLOSED' else 'BLOCKED' end)::thread_status,
       c + (greatest(1, (${M} - g) / ${C} + 1) - 1) * interval '2 hours', c, c
     from generate_series(1, ${C}) g,
       lateral (select case when g <= ${HC} then 1 else 2 + floor(power(random(), 2) * ${owned - 1})::int end as n, now() - random() * interval '365 days' as c offset 0) t`,
  );
  await timed(
    "messages",
    M,
    chunked(
      M,
      (from, to) => `insert into thread_messages (thread_id, sender, content, read_at, created_at)
     select t.id, (case when k % 2 = 0 then 'FINDER' else 'OWNER' end)::message_sender,
       case when k % 2 = 1 then ${pick(OWNER_TEXTS, "m")} when m % 100 = 7 then '${SCAM_TEXT}' else ${pick(FINDER_TEXTS, "m")} end,
       case when random() < 0.9 then t.created_at + k * interval '2 hours' + interval '30 minutes' end,
       t.created_at + k * interval '2 hours'
     from generate_series(${from}, ${to}) m
       cross join lateral (select (m - 1) / ${C} as k, 1 + (m - 1) % ${C} as n offset 0) x
       join threads t on t.id = ${seededId("thread", "x.n")}`,
    ),
  );

  // Notifications: the heavy user (user 1) gets HN of them, the others the rest; 95% read.
  await timed(
    "notifications",
    N,
    chunked(
      N,
      (from, to) => `insert into notifications (user_id, type, title, body, data, read_at, created_at)
     select case when g <= ${HN} then ${seededId("user", "1")} else ${seededId("user", `(2 + floor(random() * ${Math.max(1, U - 1)})::int)`)} end,
       (case when r < 0.6 then 'TAG_SCANNED' when r < 0.85 then 'MESSAGE_RECEIVED' when r < 0.9 then 'TAG_STATUS_CHANGED' when r < 0.95 then 'ORDER_UPDATED' else 'SECURITY' end)::notification_type,
       case when r < 0.6 then 'Your tag was scanned' when r < 0.85 then 'New message from a finder' else 'Account update' end,
       'Someone scanned your tag in ' || ${pick(cities, "g")} || '.',
       jsonb_build_object('tagId', ${seededId("tag", `(1 + g % ${owned})`)}),
       case when random() < 0.95 then c + interval '1 hour' end, c
     from generate_series(${from}, ${to}) g, lateral (select random() + 0 * g as r, now() - random() * interval '365 days' as c offset 0) t`,
    ),
  );

  // Orders: one product, one line per order; statuses as a shop's mix, paid ones with their payment time.
  const [product] = await sql.query<{ id: string }>(`
    insert into products (slug, name, description, price_minor, currency, stock, tag_pack)
    values ('growth-bench-pack', 'Tag pack (growth bench)', 'Five tags.', 1999, 'USD', 1000000, 5)
    returning id`);
  await timed("orders", O, [
    `insert into orders (id, user_id, status, payment_status, total_minor, currency, shipping_address, payment_session_id, paid_at, shipped_at, delivered_at, cancelled_at, refunded_at, refunded_minor, created_at, updated_at)
     select ${seededId("order", "g")}, ${seededId("user", `(1 + floor(random() * ${U})::int)`)}, s::order_status,
       (case when s in ('PENDING', 'CANCELLED') then 'PENDING' when s = 'REFUNDED' then 'REFUNDED' else 'COMPLETED' end)::payment_status,
       q * 1999, case when random() < 0.8 then 'USD' else 'EUR' end,
       jsonb_build_object('name', 'Buyer ' || g, 'line1', g || ' Main Street', 'city', ${pick(cities, "g")}, 'postalCode', lpad((g % 99999)::text, 5, '0'), 'country', ${pick(countries, "g")}),
       'cs_growth_' || g,
       case when s not in ('PENDING', 'CANCELLED') then c + interval '5 minutes' end,
       case when s in ('SHIPPED', 'DELIVERED') then c + interval '2 days' end,
       case when s = 'DELIVERED' then c + interval '5 days' end,
       case when s = 'CANCELLED' then c + interval '1 hour' end,
       case when s = 'REFUNDED' then c + interval '10 days' end,
       case when s = 'REFUNDED' then q * 1999 else 0 end,
       c, c
     from generate_series(1, ${O}) g,
       lateral (select now() - (random() + 0 * g) * interval '365 days' as c, 1 + floor(random() * 3)::int as q, random() as r offset 0) t,
       lateral (select case when r < 0.5 then 'DELIVERED' when r < 0.6 then 'SHIPPED' when r < 0.72 then 'PENDING' when r < 0.8 then 'CONFIRMED'
              when r < 0.85 then 'PROCESSING' when r < 0.97 then 'CANCELLED' else 'REFUNDED' end as s offset 0) st`,
    `insert into order_items (order_id, product_id, name, quantity, unit_price_minor, tag_pack, tags_minted_at)
     select o.id, '${product!.id}', 'Tag pack (growth bench)', o.total_minor / 1999, 1999, 5, o.paid_at from orders o`,
  ]);

  const started = performance.now();
  for (const key of keys) await sql.query(`alter table "${key.table}" add constraint "${key.name}" ${key.definition}`);
  for (const index of indexes) await sql.query(index.definition);
  const ms = Math.round(performance.now() - started);
  const rebuilt = `${keys.length} keys (${keys.map((key) => key.name).join(", ")}) and ${indexes.length} secondary indexes rebuilt`;
  steps.push({ step: rebuilt, rows: 0, ms });
  log(`  ${rebuilt} in ${(ms / 1000).toFixed(1)} s`);
  if (replica) await sql.query("set session_replication_role = origin");
  // Triggers skipped above keep nothing up to date: when the schema already has the rollups' backfill (a
  // SEED_MIGRATION after it), it rebuilds them from the rows. Before it, its migration runs the backfill.
  const [backfill] = await sql.query<{ exists: boolean }>("select to_regproc('public.rollup_backfill') is not null as exists");
  if (replica && backfill?.exists) await timed("rollups rebuilt (rollup_backfill())", 0, "select rollup_backfill()");
  return steps;
}

/**
 * The rows the seed wrote with foreign-key checks off, checked: every single-column foreign key of the
 * seeded tables finds its row. Throws on the first that does not (an orphan would be a bug of the seed).
 */
export async function checkSeededForeignKeys(sql: SeedSession): Promise<number> {
  const keys = await sql.query<{ name: string; table: string; column: string; ref: string; refColumn: string }>(`
    select c.conname as name, c.conrelid::regclass::text as table, a.attname as column, c.confrelid::regclass::text as ref, af.attname as "refColumn"
    from pg_constraint c
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
      join pg_attribute af on af.attrelid = c.confrelid and af.attnum = c.confkey[1]
    where c.contype = 'f' and array_length(c.conkey, 1) = 1 and c.conrelid::regclass::text = any(${SEEDED_TABLES_SQL})`);
  for (const key of keys) {
    const [orphans] = await sql.query<{ n: number }>(
      `select count(*)::int as n from "${key.table}" t where t."${key.column}" is not null and not exists (select 1 from "${key.ref}" r where r."${key.refColumn}" = t."${key.column}")`,
    );
    if (orphans!.n > 0) throw new Error(`the seed left ${orphans!.n} rows of ${key.table} whose ${key.column} has no ${key.ref} (${key.name})`);
  }
  return keys.length;
}
