import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { amcheck } from "@electric-sql/pglite/contrib/amcheck";
import { sql } from "drizzle-orm";
import { connectPglite, PGLITE_EXTENSIONS, pgliteDataDir, schema, setDatabase } from "@/db/client";
import { checkEmbeddedDatabase, userTables } from "@/db/embedded-check";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { systemContext, withTransaction } from "@/lib/services/context";
import { startServer } from "@/lib/server-start";

// The process scripts/crash-loop.ts starts and kills (docs/database.md, "The embedded database after a
// crash"). It opens DATA_DIR's embedded database the way the server does, first checking what the previous,
// killed process left: it opens (recovery included), every table reads in full, every B-tree index matches
// its table (amcheck), every batch the killed process acknowledged is there and whole, and a write commits.
// It prints `check <json>`. With CRASH_MODE=burst it then starts like the server (lib/server-start.ts:
// migrations, seed, job workers), prints `ready`, and commits batches until it is killed, printing
// `committed <n>` after each. One batch is one transaction over several tables, as a request writes.

/** What one batch writes; the check expects exactly this for every batch it finds. */
export const BATCH = { scans: 5, photoBytes: 8 * 1024, job: "tags.expire-transfers" } as const;

export interface CrashCheck {
  ok: boolean;
  openMs: number;
  checkMs: number;
  tables: number;
  rows: number;
  indexesChecked: number;
  /** Per earlier cycle: batches acknowledged by the killed process, and found now. */
  cycles: Array<{ cycle: number; acknowledged: number; found: number }>;
  /** Acknowledged batches missing, and batches found but not whole. */
  lost: number;
  partial: number;
  problems: string[];
}

const prefix = (run: string, cycle: number | string) => `crash-${run}-${cycle}-`;

async function writeBatch(name: string): Promise<void> {
  await withTransaction(systemContext(), async (tx) => {
    const [user] = await tx.db
      .insert(schema.users)
      .values({ email: `${name}@crash.test`, passwordHash: "x", firstName: "Crash", lastName: name })
      .returning({ id: schema.users.id });
    const [tag] = await tx.db
      .insert(schema.tags)
      .values({ code: randomBytes(8).toString("hex").toUpperCase(), encryptedId: randomBytes(16).toString("base64url"), ownerId: user!.id, status: "ACTIVE", itemName: name })
      .returning({ id: schema.tags.id });
    // Incompressible bytes, so the photo goes to TOAST as a real upload does.
    await tx.db.insert(schema.tagPhotos).values({ tagId: tag!.id, contentType: "image/webp", data: randomBytes(BATCH.photoBytes), byteSize: BATCH.photoBytes, width: 1, height: 1, isPrimary: true });
    await tx.db.insert(schema.scans).values(Array.from({ length: BATCH.scans }, () => ({ tagId: tag!.id, ipHash: randomBytes(8).toString("hex"), city: "Madrid" })));
    await tx.db
      .update(schema.tags)
      .set({ scanCount: sql`${schema.tags.scanCount} + ${BATCH.scans}`, lastScannedAt: new Date() })
      .where(sql`${schema.tags.id} = ${tag!.id}`);
    await tx.db.insert(schema.notifications).values({ userId: user!.id, type: "TAG_SCANNED", title: name, body: "scanned" });
    // A job in the same transaction, as services enqueue them; a day away, so no worker runs it meanwhile.
    await enqueueJob(tx, BATCH.job, { transferId: name }, { startAfter: 24 * 3600 });
  });
}

async function check(pglite: PGlite, run: string, expected: Record<string, number>): Promise<CrashCheck> {
  const started = performance.now();
  const opened = await checkEmbeddedDatabase(pglite);
  const result: CrashCheck = { ok: false, openMs: opened.openMs, checkMs: 0, tables: opened.tables, rows: opened.rows, indexesChecked: 0, cycles: [], lost: 0, partial: 0, problems: [] };
  if (!opened.ok) {
    result.problems.push(`does not open or read: ${opened.error}`);
    return result;
  }
  if (opened.tables === 0) {
    // A fresh directory: nothing to check until the server's start has migrated it.
    result.ok = true;
    result.checkMs = Math.round(performance.now() - started);
    return result;
  }
  try {
    // Every value read (TOAST included), not just counted.
    for (const table of await userTables(pglite)) await pglite.query(`select count(*), sum(length(t::text)) from ${table} t`);
    await pglite.exec("create extension if not exists amcheck");
    const indexes = await pglite.query<{ oid: number; name: string }>(
      `select c.oid, c.relname as name from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am a on a.oid = c.relam
       join pg_namespace n on n.oid = c.relnamespace where a.amname = 'btree' and c.relkind = 'i' and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')`,
    );
    for (const index of indexes.rows) {
      try {
        await pglite.query("select bt_index_check($1::regclass, true)", [index.oid]);
        result.indexesChecked++;
      } catch (error) {
        result.problems.push(`index ${index.name}: ${(error as Error).message}`);
      }
    }
    for (const [cycle, acknowledged] of Object.entries(expected)) {
      const like = `${prefix(run, cycle)}%`;
      const batches = await pglite.query<{ name: string; tags: number; photos: number; scans: number; scan_count: number; notifications: number; jobs: number }>(
        `select u.last_name as name,
           (select count(*)::int from tags t where t.owner_id = u.id) as tags,
           (select count(*)::int from tag_photos p join tags t on t.id = p.tag_id where t.owner_id = u.id and length(p.data) = $2) as photos,
           (select count(*)::int from scans s join tags t on t.id = s.tag_id where t.owner_id = u.id) as scans,
           (select coalesce(sum(t.scan_count), 0)::int from tags t where t.owner_id = u.id) as scan_count,
           (select count(*)::int from notifications n where n.user_id = u.id) as notifications,
           (select count(*)::int from pgboss.job j where j.name = $3 and j.data->>'transferId' = u.last_name) as jobs
         from users u where u.email like $1`,
        [like, BATCH.photoBytes, BATCH.job],
      );
      const found = new Set<number>();
      for (const batch of batches.rows) {
        found.add(Number(batch.name.slice(prefix(run, cycle).length)));
        const whole = batch.tags === 1 && batch.photos === 1 && batch.scans === BATCH.scans && batch.scan_count === BATCH.scans && batch.notifications === 1 && batch.jobs === 1;
        if (!whole) {
          result.partial++;
          result.problems.push(`batch ${batch.name} is not whole: ${JSON.stringify(batch)}`);
        }
      }
      const orphanJobs = await pglite.query<{ count: number }>(
        `select count(*)::int as count from pgboss.job j where j.name = $2 and j.data->>'transferId' like $1
           and not exists (select 1 from users u where u.last_name = j.data->>'transferId')`,
        [like, BATCH.job],
      );
      if (orphanJobs.rows[0]!.count) {
        result.partial += orphanJobs.rows[0]!.count;
        result.problems.push(`cycle ${cycle}: ${orphanJobs.rows[0]!.count} jobs without their batch`);
      }
      let lost = 0;
      for (let n = 1; n <= acknowledged; n++) if (!found.has(n)) lost++;
      // The one batch in flight when the process was killed may have committed without being acknowledged.
      const beyond = [...found].filter((n) => n > acknowledged + 1 || n < 1).length;
      if (lost) result.problems.push(`cycle ${cycle}: ${lost} acknowledged batches missing`);
      if (beyond) result.problems.push(`cycle ${cycle}: ${beyond} batches found that were never written`);
      result.lost += lost;
      result.cycles.push({ cycle: Number(cycle), acknowledged, found: found.size });
    }
    // Accepts writes: a batch of this run's own, then gone again.
    const probe = `${prefix(run, "probe")}${randomBytes(4).toString("hex")}`;
    await writeBatch(probe);
    await pglite.query("delete from users where last_name = $1", [probe]);
    await pglite.query("delete from pgboss.job where name = $1 and data->>'transferId' = $2", [BATCH.job, probe]);
  } catch (error) {
    result.problems.push(`check failed: ${(error as Error).message}`);
  }
  result.checkMs = Math.round(performance.now() - started);
  result.ok = result.problems.length === 0;
  return result;
}

async function main(): Promise<void> {
  const dataDir = process.env.DATA_DIR;
  if (!dataDir) throw new Error("DATA_DIR is required");
  const run = process.env.CRASH_RUN ?? "0";
  const cycle = process.env.CRASH_CYCLE ?? "0";
  const expected = JSON.parse(process.env.CRASH_EXPECT ?? "{}") as Record<string, number>;
  // The server's own handle, with amcheck added for the index check.
  const pglite = new PGlite({ dataDir: pgliteDataDir(dataDir), extensions: { ...PGLITE_EXTENSIONS, amcheck } });
  const handle = connectPglite(pgliteDataDir(dataDir), pglite);
  setDatabase(handle);
  const result = await check(pglite, run, expected);
  console.log(`check ${JSON.stringify(result)}`);
  if (!result.ok || process.env.CRASH_MODE !== "burst") {
    if (result.openMs && !result.problems.some((problem) => problem.startsWith("does not open"))) await handle.close().catch(() => {});
    process.exit(result.ok ? 0 : 2);
  }
  await startServer();
  // startServer retries a failed step in the background; the burst needs the database really usable.
  await handle.db.execute(sql`select 1`);
  console.log("ready");
  for (let n = 1; ; n++) {
    await writeBatch(`${prefix(run, cycle)}${n}`);
    console.log(`committed ${n}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
