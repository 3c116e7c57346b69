import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_NAMED_STATEMENT_PARAMETERS } from "@/db/availability";
import { schema, setDatabase, type DatabaseHandle } from "@/db/client";
import { threadTokenHash } from "@/lib/services/messages/thread-token";
import { clientRowsWithin } from "@/lib/services/scans/queries";
import { bearer, registerAccount, setRole, type TestAccount } from "../support/auth";
import { appFetch } from "../support/app-fetch";
import { apiRequest, nextTestIp } from "../support/http";
import { testDatabase } from "../support/integration-setup";
import { contactOwnerOf } from "../support/messages";
import { CapturingLogger, capturingHandle, explain, isExplainable, largeTables, planFindings, planNodes, planSummary, rawQuery, rawScript, type CapturedStatement, type PlanFinding, type PlanNode } from "../support/query-plans";
import { claimTestTag } from "../support/tags";

/**
 * Indexes checked by a test (issue 30): the growing tables are filled with generated rows (a heavy owner
 * with a hot tag, its scans, notifications, conversations and orders, among many other users), ANALYZEd,
 * and every read an owner, a finder or an admin makes of them is sent through the real route handlers. Each
 * SQL statement they issue is captured by a drizzle logger and planned again with EXPLAIN and its own
 * parameters: no statement may read a large table sequentially. PostgreSQL 15 in CI (DATABASE_URL) and the
 * embedded PGlite (a fifth of the rows, still above the threshold) plan alike.
 */

const SCALE = process.env.DATABASE_URL ? 1 : 0.2;
const n = (rows: number) => Math.round(rows * SCALE);
const VOLUMES = {
  users: n(20_000),
  tags: n(40_000),
  hotTagScans: n(60_000),
  scans: n(140_000),
  notifications: n(100_000),
  threads: n(20_000),
  threadMessages: n(60_000),
  hotThreadMessages: n(2_000),
  orders: n(20_000),
  auditEntries: n(20_000),
  paymentEvents: n(20_000),
};
/** A table holding this many rows or more (by the planner's statistics) must never be read sequentially. */
const LARGE_TABLE_ROWS = n(10_000);
/** Nor may a read take this many of its rows (a heavy owner's share, a month of scans) without a Limit stopping it early. */
const MANY_ROWS = n(5_000);

/**
 * Reads known to grow with their tables (issue 30), each to be fixed and then removed from here:
 * `<read>: <sequential scan | unbounded read> of <table>`. Anything else the plans show fails the test.
 */
const KNOWN_GROWTH = new Set<string>([
  // A heavy user's unread notifications counted one by one on every badge refresh (a counter, or a count
  // bounded like the lists' totals, would not grow).
  "owner: notifications unread count: unbounded read of notifications",
]);

type Fetch = (request: Request) => Promise<Response>;

interface Fixture {
  owner: TestAccount;
  admin: TestAccount;
  hotTag: { id: string; encryptedId: string };
  threadId: string;
  threadToken: string;
}

/** Generated rows, spread over a year, with the heavy owner and the hot tag taking a large share. */
async function seed(handle: DatabaseHandle, fixture: Fixture): Promise<void> {
  const v = VOLUMES;
  const owner = `'${fixture.owner.id}'::uuid`;
  const hotTag = `'${fixture.hotTag.id}'::uuid`;
  const thread = `'${fixture.threadId}'::uuid`;
  // i-th seeded user / tag / thread, by a number: joins on these keep the generated rows spread and deterministic.
  await rawScript(
    handle,
    `
    INSERT INTO users (email, password_hash, first_name, last_name, created_at)
      SELECT 'seed' || i || '.' || substr(md5('e' || i), 1, 10) || '@example.net', 'x', 'First' || (i % 997), 'Last' || substr(md5('n' || i), 1, 10),
             now() - (i % 365) * interval '1 day' - (i % 1440) * interval '1 minute'
      FROM generate_series(1, ${v.users}) i;
    CREATE TEMP TABLE seed_users AS SELECT id, row_number() OVER (ORDER BY email) AS rn FROM users WHERE email LIKE 'seed%';
    CREATE UNIQUE INDEX ON seed_users (rn);
    ANALYZE seed_users;
    INSERT INTO tags (code, encrypted_id, owner_id, status, tag_type, item_name, created_at)
      SELECT 'SEED' || lpad(i::text, 6, '0'), 'seed-' || i,
             CASE WHEN i % 20 = 0 THEN ${owner} ELSE u.id END,
             'ACTIVE', 'GENERAL', 'Item ' || i, now() - (i % 365) * interval '1 day'
      FROM generate_series(1, ${v.tags}) i JOIN seed_users u ON u.rn = i % ${v.users} + 1;
    CREATE TEMP TABLE seed_tags AS SELECT id, owner_id, row_number() OVER (ORDER BY code) AS rn FROM tags WHERE encrypted_id LIKE 'seed-%';
    CREATE UNIQUE INDEX ON seed_tags (rn);
    ANALYZE seed_tags;
    INSERT INTO scans (tag_id, scanned_at, ip_hash, country, scan_class)
      SELECT ${hotTag}, now() - (i % 525600) * interval '1 minute', md5('h' || (i % 5000)), 'DE', 'REAL'
      FROM generate_series(1, ${v.hotTagScans}) i;
    INSERT INTO scans (tag_id, scanned_at, ip_hash, country, scan_class)
      SELECT t.id, now() - (i % 525600) * interval '1 minute', md5('s' || i), 'US', (CASE WHEN i % 10 = 0 THEN 'BOT' ELSE 'REAL' END)::scan_class
      FROM generate_series(1, ${v.scans}) i JOIN seed_tags t ON t.rn = i % ${v.tags} + 1;
    UPDATE tags SET scan_count = c.n FROM (SELECT tag_id, count(*) AS n FROM scans GROUP BY tag_id) c WHERE tags.id = c.tag_id AND tags.encrypted_id LIKE 'seed-%';
    UPDATE tags SET scan_count = scan_count + ${v.hotTagScans}, last_scanned_at = now() WHERE id = ${hotTag};
    INSERT INTO notifications (user_id, type, title, body, read_at, created_at)
      SELECT CASE WHEN i % 5 < 2 THEN ${owner} ELSE u.id END,
             'TAG_SCANNED', 'Scanned', 'Your tag was scanned', CASE WHEN i % 3 = 0 THEN NULL ELSE now() END,
             now() - (i % 525600) * interval '1 minute'
      FROM generate_series(1, ${v.notifications}) i JOIN seed_users u ON u.rn = i % ${v.users} + 1;
    INSERT INTO threads (tag_id, owner_id, token_hash, finder_name, last_message_at, created_at)
      SELECT t.id, t.owner_id, md5('thread' || i), 'Finder ' || i, now() - (i % 8760) * interval '1 hour', now() - (i % 8760) * interval '1 hour'
      FROM generate_series(1, ${v.threads}) i JOIN seed_tags t ON t.rn = i % ${v.tags} + 1;
    CREATE TEMP TABLE seed_threads AS SELECT id, row_number() OVER (ORDER BY token_hash) AS rn FROM threads WHERE finder_name LIKE 'Finder %';
    CREATE UNIQUE INDEX ON seed_threads (rn);
    ANALYZE seed_threads;
    INSERT INTO thread_messages (thread_id, sender, content, read_at, created_at)
      SELECT th.id, (CASE WHEN i % 2 = 0 THEN 'FINDER' ELSE 'OWNER' END)::message_sender, 'Message ' || i, CASE WHEN i % 4 = 0 THEN NULL ELSE now() END,
             now() - (i % 8760) * interval '1 hour'
      FROM generate_series(1, ${v.threadMessages}) i JOIN seed_threads th ON th.rn = i % ${v.threads} + 1;
    INSERT INTO thread_messages (thread_id, sender, content, created_at)
      SELECT ${thread}, (CASE WHEN i % 2 = 0 THEN 'FINDER' ELSE 'OWNER' END)::message_sender, 'Hot message ' || i, now() - i * interval '1 minute'
      FROM generate_series(1, ${v.hotThreadMessages}) i;
    INSERT INTO orders (user_id, status, payment_status, total_minor, currency, created_at)
      SELECT CASE WHEN i % 50 = 0 THEN ${owner} ELSE u.id END,
             (ARRAY['PENDING', 'CONFIRMED', 'SHIPPED', 'DELIVERED', 'CANCELLED'])[i % 5 + 1]::order_status,
             (CASE WHEN i % 5 = 0 THEN 'PENDING' ELSE 'COMPLETED' END)::payment_status, 1999 + i % 1000, 'USD',
             now() - (i % 525600) * interval '1 minute'
      FROM generate_series(1, ${v.orders}) i JOIN seed_users u ON u.rn = i % ${v.users} + 1;
    INSERT INTO audit_log (action, entity_type, entity_id, created_at)
      SELECT (ARRAY['user.update', 'order.refund', 'blog_post.create', 'tag.batch'])[i % 4 + 1], (ARRAY['user', 'order', 'blog_post', 'tag'])[i % 4 + 1], i::text,
             now() - (i % 525600) * interval '1 minute'
      FROM generate_series(1, ${v.auditEntries}) i;
    INSERT INTO payment_events (id, type, payload, status, received_at)
      SELECT 'evt_seed_' || i, 'checkout.session.completed', '{}'::jsonb, (ARRAY['RECEIVED', 'PROCESSED', 'FAILED'])[i % 3 + 1]::payment_event_status,
             now() - (i % 525600) * interval '1 minute'
      FROM generate_series(1, ${v.paymentEvents}) i;
    ANALYZE;
    `,
  );
}

interface Read {
  label: string;
  path: string;
  as?: "owner" | "admin" | "public";
  /** Follow the answer's meta.nextCursor once (a keyset page), when the list gives one. */
  followCursor?: boolean;
}

function reads(fixture: Fixture): Read[] {
  const { hotTag, threadId, threadToken } = fixture;
  return [
    { label: "owner: tags list", path: "/api/v1/tags", followCursor: true },
    { label: "owner: tags list, ACTIVE", path: "/api/v1/tags?status=ACTIVE" },
    { label: "owner: tag", path: `/api/v1/tags/${hotTag.id}` },
    { label: "owner: hot tag's scans", path: `/api/v1/tags/${hotTag.id}/scans`, followCursor: true },
    { label: "owner: hot tag's scans, page 50", path: `/api/v1/tags/${hotTag.id}/scans?page=50&limit=20` },
    { label: "owner: notifications", path: "/api/v1/notifications", followCursor: true },
    { label: "owner: notifications unread count", path: "/api/v1/notifications/unread-count" },
    { label: "owner: inbox", path: "/api/v1/messages", followCursor: true },
    { label: "owner: inbox of the hot tag", path: `/api/v1/messages?tagId=${hotTag.id}` },
    { label: "owner: conversation", path: `/api/v1/messages/${threadId}` },
    { label: "owner: orders", path: "/api/v1/orders", followCursor: true },
    { label: "finder: scan of the hot tag", path: `/api/v1/scan/${hotTag.encryptedId}`, as: "public" },
    { label: "finder: conversation", path: `/api/v1/scan/thread/${threadToken}`, as: "public" },
    { label: "admin: users", path: "/api/v1/admin/users", as: "admin", followCursor: true },
    { label: "admin: users search, e-mail fragment", path: "/api/v1/admin/users?search=seed777.", as: "admin" },
    { label: "admin: users search, name fragment", path: `/api/v1/admin/users?search=${nameFragment(4242)}`, as: "admin" },
    { label: "admin: users search, two characters", path: "/api/v1/admin/users?search=zq", as: "admin" },
    { label: "admin: orders", path: "/api/v1/admin/orders", as: "admin", followCursor: true },
    { label: "admin: orders, SHIPPED", path: "/api/v1/admin/orders?status=SHIPPED", as: "admin" },
    { label: "admin: payment events", path: "/api/v1/admin/payment-events", as: "admin", followCursor: true },
    { label: "admin: payment events, FAILED", path: "/api/v1/admin/payment-events?status=FAILED", as: "admin" },
    { label: "admin: audit log", path: "/api/v1/admin/audit-log", as: "admin", followCursor: true },
    { label: "admin: audit log, one action", path: "/api/v1/admin/audit-log?action=order.refund", as: "admin" },
    { label: "admin: stats", path: "/api/v1/admin/stats", as: "admin" },
    { label: "admin: analytics, 30 days", path: "/api/v1/admin/analytics", as: "admin" },
  ];
}

/** The middle of the seeded last name of user `i` ("Last" + md5('n' || i)'s first 10 hex digits). */
function nameFragment(i: number): string {
  return md5Hex(`n${i}`).slice(2, 8);
}

function md5Hex(text: string): string {
  return createHash("md5").update(text).digest("hex");
}

interface Finding extends PlanFinding {
  label: string;
  sql: string;
  plan: string;
}

let base: DatabaseHandle;
let handle: DatabaseHandle;
const logger = new CapturingLogger();
let fixture: Fixture;
let fetchApp: Fetch;
let large: Map<string, number>;
const planned: Array<{ label: string; statement: CapturedStatement; status: number }> = [];
const explained: Array<{ label: string; statement: CapturedStatement; plan: PlanNode }> = [];
const findings: Finding[] = [];

beforeAll(async () => {
  base = testDatabase();
  fetchApp = await appFetch();
  const owner = await registerAccount();
  const admin = await registerAccount();
  await setRole(admin.id, "SUPER_ADMIN");
  const tag = await claimTestTag(owner, { status: "ACTIVE", itemName: "Backpack" });
  const contact = await contactOwnerOf(tag.encryptedId);
  const [thread] = await base.db.select({ id: schema.threads.id }).from(schema.threads).where(eq(schema.threads.tokenHash, threadTokenHash(contact.threadToken)));
  fixture = { owner, admin, hotTag: { id: tag.id, encryptedId: tag.encryptedId }, threadId: thread!.id, threadToken: contact.threadToken };
  await seed(base, fixture);
  large = await largeTables(base, LARGE_TABLE_ROWS);
  handle = capturingHandle(base, logger);
}, 600_000);

afterAll(() => {
  setDatabase(base);
});

async function send(read: Read, path: string): Promise<Response> {
  const headers = read.as === "public" ? {} : bearer(read.as === "admin" ? fixture.admin.accessToken : fixture.owner.accessToken);
  return fetchApp(apiRequest(path, { headers, ip: nextTestIp() }));
}

describe("query plans on a seeded database", () => {
  it("fills every growing table above the large-table threshold", () => {
    for (const table of ["users", "tags", "scans", "notifications", "threads", "thread_messages", "orders", "audit_log", "payment_events"]) {
      expect(large.get(table) ?? 0, table).toBeGreaterThanOrEqual(LARGE_TABLE_ROWS);
    }
  });

  it("sends every growing read through its route handler and captures its statements", async () => {
    for (const read of reads(fixture)) {
      logger.take();
      const response = await send(read, read.path);
      expect(response.status, `${read.label}: ${await response.clone().text()}`).toBe(200);
      const statements = logger.take();
      expect(statements.length, read.label).toBeGreaterThan(0);
      planned.push(...statements.map((statement) => ({ label: read.label, statement, status: response.status })));
      if (!read.followCursor) continue;
      const body = (await response.json()) as { meta?: { nextCursor?: string | null } };
      const cursor = body.meta?.nextCursor;
      if (!cursor) continue;
      const next = new URL(read.path, "http://localhost");
      next.searchParams.set("cursor", cursor);
      const second = await send(read, `${next.pathname}${next.search}`);
      expect(second.status, `${read.label}, next cursor page`).toBe(200);
      planned.push(...logger.take().map((statement) => ({ label: `${read.label}, next cursor page`, statement, status: second.status })));
    }
  }, 300_000);

  it("plans every statement", async () => {
    for (const { label, statement } of planned) {
      if (!isExplainable(statement.sql)) continue;
      const plan = await explain(handle, statement);
      explained.push({ label, statement, plan });
      for (const finding of planFindings(plan, large, MANY_ROWS)) findings.push({ label, sql: statement.sql, ...finding, plan: planSummary(plan) });
    }
    expect(explained.length).toBeGreaterThan(planned.length / 2);
  }, 300_000);

  it("reads no large table whole: no sequential scan, no unbounded read of a large share of one", () => {
    expect(explained.length).toBeGreaterThan(0);
    const key = (finding: Finding) => `${finding.label}: ${finding.kind} of ${finding.table}`;
    const fresh = findings.filter((finding) => !KNOWN_GROWTH.has(key(finding)));
    const report = fresh.map((finding) => `${key(finding)}: ${finding.problem} (${large.get(finding.table)} rows in the table)\n  ${finding.sql.trim()}\n  plan: ${finding.plan}`);
    expect(report, report.join("\n\n")).toEqual([]);
  });

  it("reads no large table whole in the generic plan a named statement may settle on, where it would be chosen", async () => {
    // Every statement with parameters is a named prepared statement (db/availability.ts), which PostgreSQL
    // plans with its values five times, then switches to the generic plan when that plan's estimate is no
    // higher. A generic plan that reads a large table whole matters only where it would be chosen.
    const generic: string[] = [];
    let compared = 0;
    for (const { label, statement, plan } of explained) {
      if (statement.params.length === 0 || statement.params.length > MAX_NAMED_STATEMENT_PARAMETERS) continue;
      const genericPlan = await explain(handle, statement, { genericPlan: true });
      compared += 1;
      if (Number(genericPlan["Total Cost"]) > Number(plan["Total Cost"])) continue;
      const key = (finding: PlanFinding) => `${label}: ${finding.kind} of ${finding.table}`;
      for (const finding of planFindings(genericPlan, large, MANY_ROWS)) {
        if (KNOWN_GROWTH.has(key(finding))) continue;
        generic.push(`${key(finding)}: ${finding.problem}\n  ${statement.sql.trim()}\n  generic plan: ${planSummary(genericPlan)}\n  custom plan: ${planSummary(plan)}`);
      }
    }
    expect(compared).toBeGreaterThan(explained.length / 2);
    expect(generic, generic.join("\n\n")).toEqual([]);
  }, 300_000);

  it("finds a client's latest REAL scan of the hot tag (every scan's repeat check) in the partial index of REAL scans", async () => {
    // The query of scan_repeat_remaining_ms (db/migrations/0034), which EXPLAIN of the scan's statement
    // cannot see inside the function: through the general (tag, ip, time) index it would walk every
    // REPEAT scan the client made in the window.
    const [{ ipHash }] = (await rawQuery<{ ipHash: string }>(base, `select ip_hash as "ipHash" from scans where tag_id = $1 and ip_hash is not null limit 1`, [fixture.hotTag.id])) as [{ ipHash: string }];
    const plan = await explain(handle, {
      sql: "select max(scanned_at) from scans where tag_id = $1 and ip_hash = $2 and scan_class = 'REAL' and location_shared = false and scanned_at > now() - $3::interval",
      params: [fixture.hotTag.id, ipHash, "600000 milliseconds"],
    });
    expect(planNodes(plan).map((node) => node["Index Name"])).toContain("scans_tag_ip_real_idx");
  });

  it("checks a client's REAL scan or shared location on a tag in their partial indexes, in the generic plan a prepared statement settles on too", async () => {
    const [{ ipHash }] = (await rawQuery<{ ipHash: string }>(base, `select ip_hash as "ipHash" from scans where tag_id = $1 and ip_hash is not null limit 1`, [fixture.hotTag.id])) as [{ ipHash: string }];
    for (const [kind, index] of [
      ["realScan", "scans_tag_ip_real_idx"],
      ["sharedLocation", "scans_tag_ip_shared_idx"],
    ] as const) {
      const query = clientRowsWithin(base.db, fixture.hotTag.id, ipHash, kind, 600_000).toSQL();
      for (const genericPlan of [false, true]) {
        const plan = await explain(base, { sql: query.sql, params: query.params }, { genericPlan });
        expect(planNodes(plan).map((node) => node["Index Name"]), `${kind}, ${genericPlan ? "generic" : "custom"} plan: ${planSummary(plan)}`).toContain(index);
      }
    }
  });

  it("serves the admin user search from its trigram and prefix indexes", () => {
    const indexesOf = (label: string) =>
      new Set(
        explained
          .filter((entry) => entry.label === label && /\blike\b|\bilike\b/i.test(entry.statement.sql))
          .flatMap((entry) => planNodes(entry.plan))
          .map((node) => node["Index Name"])
          .filter(Boolean),
      );
    for (const label of ["admin: users search, e-mail fragment", "admin: users search, name fragment"]) {
      expect([...indexesOf(label)], label).toEqual(expect.arrayContaining(["users_email_trgm_idx", "users_name_trgm_idx"]));
    }
    expect([...indexesOf("admin: users search, two characters")]).toContain("users_email_prefix_idx");
  });
});
