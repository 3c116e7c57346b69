import { and, desc, eq, getTableColumns, gt, gte, inArray, isNotNull, sql } from "drizzle-orm";
import { toSnakeCase } from "drizzle-orm/casing";
import { PgDialect } from "drizzle-orm/pg-core";
import { schema, type Executor } from "@/db/client";
import { preparedFor } from "@/db/prepared";
import type { Tag } from "@/db/schema";
import { countScan } from "@/lib/metrics/registry";
import { type ServiceContext, withTransaction } from "@/lib/services/context";
import { NotFoundError } from "@/lib/services/errors";
import { notify } from "@/lib/services/notifications";
import { hashClientIp, type Visitor } from "@/lib/services/visitor";
import { classifyScan, LOCATING_CLASSES, REPEAT_WINDOW_MS, type ScanClass } from "./classify";
import { CLONE_RULES, greatCircleKm, isImpossibleTravel, type LatLng } from "./distance";
import { describeUserAgent } from "./user-agents";
import { clientRowsWithin, SCAN_TAG_NOT_FOUND, sinceMs } from "./queries";

/** At most one clone alert per tag in this time (the scans themselves are all kept, marked suspicious). */
const CLONE_ALERT_INTERVAL_MS = 10 * 60_000;

interface CloneEvidence {
  distanceKm: number;
  elapsedMs: number;
  previousCity: string | null;
}

/**
 * Clone detection: the tag's latest located scan in the last 5 minutes, leaving out
 * bots and prefetches (they fetch from data centres anywhere), finders' shared locations (precise, and
 * not a scan) and scans already found suspicious, compared with where this scan comes from.
 */
async function cloneEvidence(db: Executor, tagId: string, here: LatLng): Promise<CloneEvidence | null> {
  const [previous] = await db
    .select({
      latitude: schema.scans.latitude,
      longitude: schema.scans.longitude,
      city: schema.scans.city,
      elapsedMs: sql<number>`(extract(epoch from (now() - ${schema.scans.scannedAt})) * 1000)::float8`,
    })
    .from(schema.scans)
    .where(
      and(
        eq(schema.scans.tagId, tagId),
        isNotNull(schema.scans.latitude),
        isNotNull(schema.scans.longitude),
        eq(schema.scans.locationShared, false),
        eq(schema.scans.suspicious, false),
        inArray(schema.scans.scanClass, [...LOCATING_CLASSES]),
        gte(schema.scans.scannedAt, sinceMs(CLONE_RULES.windowMs)),
      ),
    )
    .orderBy(desc(schema.scans.scannedAt), desc(schema.scans.id))
    .limit(1);
  if (!previous) return null;
  const distanceKm = greatCircleKm({ latitude: previous.latitude!, longitude: previous.longitude! }, here);
  const elapsedMs = Number(previous.elapsedMs);
  return isImpossibleTravel(distanceKm, elapsedMs) ? { distanceKm, elapsedMs, previousCity: previous.city } : null;
}

/**
 * Whether the owner was sent a clone alert for this tag in the last 10 minutes. Read from the alerts
 * themselves, not from earlier suspicious scans: a scan that was suspicious but not alerted must not
 * hold the next alert back for ever, and a previous owner's alerts do not count for the new one.
 * Concurrent scans of the tag queue on its row lock, so two of them never both see "not yet".
 */
async function cloneAlertedRecently(db: Executor, tag: Tag): Promise<boolean> {
  const [row] = await db
    .select({ id: schema.notifications.id })
    .from(schema.notifications)
    .where(
      and(
        eq(schema.notifications.userId, tag.ownerId!),
        eq(schema.notifications.type, "TAG_CLONE_DETECTED"),
        sql`${schema.notifications.data}->>'tagId' = ${tag.id}`,
        gt(schema.notifications.createdAt, sinceMs(CLONE_ALERT_INTERVAL_MS)),
      ),
    )
    .limit(1);
  return Boolean(row);
}

const itemLabel = (tag: Tag) => (tag.itemName ? `“${tag.itemName}”` : "your tag");

function elapsedText(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} ${seconds === 1 ? "second" : "seconds"}`;
  const minutes = Math.round(seconds / 60);
  return `${minutes} ${minutes === 1 ? "minute" : "minutes"}`;
}

/** TAG_SCANNED: what, where (the city, never the IP), and for a LOST or STOLEN item that a finder may write. */
async function notifyScanned(ctx: ServiceContext, tag: Tag, scanId: string, city: string | null): Promise<void> {
  const missing = tag.status === "LOST" || tag.status === "STOLEN";
  await notify(ctx, {
    userId: tag.ownerId!,
    type: "TAG_SCANNED",
    title: missing ? `Your ${tag.status === "LOST" ? "lost" : "stolen"} item's tag was scanned` : "Your tag was scanned",
    body: `Someone scanned the tag on ${itemLabel(tag)}${city ? ` in ${city}` : ""}.${missing ? " If they found it, they can message you from the tag's page." : ""}`,
    data: { tagId: tag.id, tagStatus: tag.status, city, scanId },
  });
}

/**
 * TAG_CLONE_DETECTED: what happened, what it may mean and what the owner can do. The scan itself was
 * answered as any scan, so a genuine finder far away (or behind a VPN) can still write.
 */
async function notifyClone(ctx: ServiceContext, tag: Tag, scanId: string, city: string | null, evidence: CloneEvidence): Promise<void> {
  const distance = Math.round(evidence.distanceKm);
  await notify(ctx, {
    userId: tag.ownerId!,
    type: "TAG_CLONE_DETECTED",
    title: "Your tag may have been copied",
    body:
      `The tag on ${itemLabel(tag)} was scanned${city ? ` in ${city}` : ""} ${elapsedText(evidence.elapsedMs)} after a scan ${distance} km away` +
      `${evidence.previousCity ? ` in ${evidence.previousCity}` : ""}. One tag cannot travel that fast: someone may have copied its QR code or link, ` +
      "or a VPN may have placed one of the scans far from where it happened. The tag's page stayed open as usual, so a real finder can still message you. " +
      "The scan is marked in the tag's scan history, with what you can do.",
    data: { tagId: tag.id, scanId, city, previousCity: evidence.previousCity, distanceKm: distance },
  });
}

/** The tag's columns as the scan's statement answers them (aliased by key), and back to a Tag row. */
const tagColumns = Object.entries(getTableColumns(schema.tags));
const countedTagColumns = tagColumns.map(([key]) => `counted."${toSnakeCase(key)}" as "${key}"`).join(", ");

function tagFromRow(row: Record<string, unknown>): Tag {
  return Object.fromEntries(tagColumns.map(([key, column]) => [key, row[key] === null || row[key] === undefined ? null : column.mapFromDriverValue(row[key])])) as Tag;
}

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows);

interface CountedScan {
  tag: Tag;
  scanId: string;
  scanClass: ScanClass;
  /** For a REPEAT scan: how long this client's scans of the tag stay REPEAT (the rest of its REAL scan's window). */
  repeatRemainingMs: number | null;
}

const REPEAT_WINDOW_TEXT = `${Math.trunc(REPEAT_WINDOW_MS)} milliseconds`;

/**
 * The scan's statement for each of its four shapes (with or without the owner's and the repeat check's
 * cases), rendered by drizzle once, here, and prepared once per executor (db/prepared.ts), as the other
 * hot queries are: it is the hottest statement there is (docs/decisions/0054-static-scan-route.md). A scan
 * is not an edit of the tag, so updated_at stays as the owner left it. `repeat` reads `counted`, so its
 * function runs once the row lock is held; referenced twice, it is computed once.
 */
function countStatement(checksOwner: boolean, checksRepeat: boolean) {
  const value = (name: keyof CountValues) => sql.placeholder(name);
  const cases = [
    ...(checksOwner ? [sql`when counted.owner_id = ${value("userId")}::uuid then 'OWNER'::scan_class`] : []),
    ...(checksRepeat ? [sql`when repeat.remaining_ms is not null then ${value("classIfRepeated")}::scan_class`] : []),
  ];
  const storedClass = cases.length ? sql`case ${sql.join(cases, sql` `)} else ${value("visitorClass")}::scan_class end` : sql`${value("visitorClass")}::scan_class`;
  const remaining = checksRepeat ? sql`scan_repeat_remaining_ms(counted.id, ${value("ipHash")}::text, ${REPEAT_WINDOW_TEXT}::interval)` : sql`null::float8`;
  return new PgDialect().sqlToQuery(sql`
    with counted as (
      update tags set scan_count = scan_count + 1, last_scanned_at = now() where encrypted_id = ${value("encryptedId")} returning *
    ), repeat as (
      select ${remaining} as remaining_ms from counted
    ), stored as (
      insert into scans (tag_id, ip_hash, city, country, latitude, longitude, suspicious, scan_class, agent)
      select counted.id, ${value("ipHash")}::text, ${value("city")}::text, ${value("country")}::text, ${value("latitude")}::float8, ${value("longitude")}::float8,
        false, ${storedClass}, ${value("agent")}::text
      from counted cross join repeat
      returning id, scan_class
    )
    select ${sql.raw(countedTagColumns)}, stored.id as "scanId", stored.scan_class as "scanClass", repeat.remaining_ms as "repeatRemainingMs"
    from counted cross join stored cross join repeat`);
}

/** The statement's placeholders (a type, not an interface: drizzle takes them as a record). */
type CountValues = {
  encryptedId: string;
  ipHash: string | null;
  city: string | null;
  country: string | null;
  latitude: number | null;
  longitude: number | null;
  agent: string | null;
  visitorClass: ScanClass;
  userId: string | null;
  classIfRepeated: ScanClass;
};

/** By shape: (owner check ? 2 : 0) + (repeat check ? 1 : 0). */
const countStatements = [countStatement(false, false), countStatement(false, true), countStatement(true, false), countStatement(true, true)];
const countQueries = countStatements.map(() => new WeakMap<Executor, { execute(values: CountValues): Promise<unknown> }>());

/**
 * A scan without a clone check, in one statement: count it on the tag (which takes the tag's row lock, so
 * concurrent scans of one tag queue here) and store it with its class, decided in the statement as
 * classifyScan would from the row: OWNER when the signed-in caller owns the tag, REPEAT when this client
 * had a REAL scan of it within the window, else the visitor's own class. The repeat check is
 * scan_repeat_remaining_ms (migration 0034), a volatile function: its query runs after the lock was granted
 * and sees the scan of the transaction that held it, which the statement's own snapshot would not; its
 * answer comes back too, so the caller can tell for how long the client's next scans are REPEAT. Undefined
 * for an unknown scan address (nothing is written then).
 */
async function countAndStore(db: Executor, encryptedId: string, input: { userId: string | null; visitorClass: ScanClass; classIfRepeated: ScanClass; ipHash: string | null; geo: Visitor["geo"]; userAgent: string | null }): Promise<CountedScan | undefined> {
  const { geo } = input;
  const shape = (input.userId !== null ? 2 : 0) + (input.classIfRepeated !== input.visitorClass ? 1 : 0);
  // A raw statement has no query builder's .prepare(): the session prepares it, as db.execute would each time.
  const prepared = preparedFor(countQueries[shape]!, db, (executor) => executor._.session.prepareQuery(countStatements[shape]!, undefined, undefined, false));
  const result = await prepared.execute({
    encryptedId,
    ipHash: input.ipHash,
    city: geo?.city ?? null,
    country: geo?.country ?? null,
    latitude: geo?.latitude ?? null,
    longitude: geo?.longitude ?? null,
    agent: describeUserAgent(input.userAgent),
    visitorClass: input.visitorClass,
    userId: input.userId,
    classIfRepeated: input.classIfRepeated,
  });
  const [row] = rowsOf<Record<string, unknown>>(result);
  if (!row) return undefined;
  const remainingMs = row.repeatRemainingMs === null || row.repeatRemainingMs === undefined ? null : Number(row.repeatRemainingMs);
  const scanClass = row.scanClass as ScanClass;
  return { tag: tagFromRow(row), scanId: String(row.scanId), scanClass, repeatRemainingMs: scanClass === "REPEAT" ? remainingMs : null };
}

/**
 * Records one visit to a tag's scan URL and answers the tag: the recording half of scanTag
 * (lib/services/finder), the one verb behind GET /scan/:encryptedId and the finder page. Counting the scan
 * first holds the tag's row lock (concurrent scans never lose a count or alert twice): classify the visit
 * (OWNER, PREFETCH, BOT, REPEAT, REAL), check for a clone, store the scan (coarse location, IP hash and
 * user-agent class only), and tell the owner of a REAL scan or of a clone, in the scan's transaction. A
 * suspected clone is stored as suspicious and alerted, and answered as any scan: refusing it would let
 * anyone with a VPN lock genuine finders out of a lost item's page. `ctx.actor` may be a signed-in user;
 * the tag's owner scans as OWNER.
 *
 * Without coordinates (or for a class that does not locate) there is no clone check, and the scan is one
 * statement (countAndStore): on its own, atomic, when it cannot be REAL (a bot, a prefetch); in a
 * transaction with the TAG_SCANNED notification when it may be (docs/decisions/0051-scan-hot-path.md).
 */
export async function recordScan(ctx: ServiceContext, encryptedId: string, visitor: Visitor): Promise<Tag> {
  const ipHash = hashClientIp(visitor.ip);
  const userId = ctx.actor.kind === "user" ? ctx.actor.userId : null;
  const facts = { isOwner: false, method: visitor.method, prefetch: visitor.prefetch, userAgent: visitor.userAgent, recentRealScanFromSameClient: false };
  const visitorClass = classifyScan(facts);
  const classIfRepeated = classifyScan({ ...facts, recentRealScanFromSameClient: true });
  const geo = visitor.geo;
  const located = geo?.latitude != null && geo.longitude != null;
  // The owner's scans locate too (LOCATING_CLASSES), and a signed-in caller may be the owner.
  if (located && (userId !== null || LOCATING_CLASSES.includes(visitorClass))) return recordLocatedScan(ctx, encryptedId, visitor);

  const input = { userId, visitorClass, classIfRepeated, ipHash, geo, userAgent: visitor.userAgent };
  let counted: CountedScan | undefined;
  if (visitorClass === "REAL" && knownRepeat(encryptedId, ipHash)) {
    // This client's REAL scan of the tag is recent (knownRepeats): this one is REPEAT and tells nobody,
    // so it is the one statement alone. Should the row have gone meanwhile (the tag released), the
    // statement still finds it REAL, and the owner is told just after it, in a transaction of its own.
    counted = await countAndStore(ctx.db, encryptedId, input);
    if (counted?.scanClass === "REAL" && counted.tag.ownerId) await notifyScanned(ctx, counted.tag, counted.scanId, geo?.city ?? null);
  } else if (visitorClass === "REAL") {
    counted = await withTransaction(ctx, async (tx) => {
      const scan = await countAndStore(tx.db, encryptedId, input);
      if (scan?.scanClass === "REAL" && scan.tag.ownerId) await notifyScanned(tx, scan.tag, scan.scanId, geo?.city ?? null);
      return scan;
    });
  } else {
    // OWNER, PREFETCH or BOT: never told, so the one statement needs no transaction around it.
    counted = await countAndStore(ctx.db, encryptedId, input);
  }
  if (!counted) throw new NotFoundError(SCAN_TAG_NOT_FOUND);
  if (counted.scanClass === "REAL") rememberRepeats(encryptedId, ipHash, REPEAT_WINDOW_MS);
  else if (counted.repeatRemainingMs !== null) rememberRepeats(encryptedId, ipHash, counted.repeatRemainingMs);
  // Counted once the scan has committed (the metrics' scans_total by class).
  countScan(counted.scanClass);
  return counted.tag;
}

/**
 * Clients whose next scans of a tag are certainly REPEAT, and until when (this process's clock): after this
 * process stored their REAL scan, for the repeat window, and after a scan the database found REPEAT (a REAL
 * scan another instance stored, or this one before a restart), for the rest of that window; less a margin
 * for the time the commit took. A client not here takes the transaction, as any scan that may be REAL.
 * Bounded, oldest first. docs/decisions/0051-scan-hot-path.md.
 */
const KNOWN_REPEATS_MAX = 10_000;
const KNOWN_REPEAT_MARGIN_MS = 60_000;
const knownRepeats = new Map<string, number>();

function knownRepeat(encryptedId: string, ipHash: string | null): boolean {
  if (ipHash === null) return false;
  const key = `${encryptedId}\u0000${ipHash}`;
  const until = knownRepeats.get(key);
  if (until === undefined) return false;
  if (until > Date.now()) return true;
  knownRepeats.delete(key);
  return false;
}

function rememberRepeats(encryptedId: string, ipHash: string | null, forMs: number): void {
  if (ipHash === null || forMs <= KNOWN_REPEAT_MARGIN_MS) return;
  const key = `${encryptedId}\u0000${ipHash}`;
  knownRepeats.delete(key);
  if (knownRepeats.size >= KNOWN_REPEATS_MAX) knownRepeats.delete(knownRepeats.keys().next().value!);
  knownRepeats.set(key, Date.now() + forMs - KNOWN_REPEAT_MARGIN_MS);
}

/** Forgets the clients known to repeat (tests that look at the transaction a scan takes). */
export function forgetKnownRepeats(): void {
  knownRepeats.clear();
}

/**
 * A scan with coordinates whose class locates: the clone check compares them with the tag's latest located
 * scan, so the tag is counted (and locked) first, then checked, then the scan stored, in one transaction.
 */
async function recordLocatedScan(ctx: ServiceContext, encryptedId: string, visitor: Visitor): Promise<Tag> {
  let recorded: ScanClass | undefined;
  const scanned = await withTransaction(ctx, async (tx): Promise<Tag> => {
    // Counting first takes the tag's row lock in the same statement: concurrent scans of one tag queue here.
    // A scan is not an edit of the tag, so updatedAt stays as the owner left it.
    const [tag] = await tx.db
      .update(schema.tags)
      .set({ scanCount: sql`${schema.tags.scanCount} + 1`, lastScannedAt: sql`now()`, updatedAt: sql`${schema.tags.updatedAt}` })
      .where(eq(schema.tags.encryptedId, encryptedId))
      .returning();
    if (!tag) throw new NotFoundError(SCAN_TAG_NOT_FOUND);
    const ipHash = hashClientIp(visitor.ip);
    const isOwner = ctx.actor.kind === "user" && tag.ownerId === ctx.actor.userId;
    const facts = { isOwner, method: visitor.method, prefetch: visitor.prefetch, userAgent: visitor.userAgent, recentRealScanFromSameClient: false };
    const scanClass = classifyScan(facts);
    const classIfRepeated = classifyScan({ ...facts, recentRealScanFromSameClient: true });

    const geo = visitor.geo;
    const here = geo?.latitude != null && geo.longitude != null ? { latitude: geo.latitude, longitude: geo.longitude } : null;
    // REAL and REPEAT locate alike, so the clone check need not wait for the repeat check.
    const evidence = here && LOCATING_CLASSES.includes(scanClass) ? await cloneEvidence(tx.db, tag.id, here) : null;
    const alertClone = evidence !== null && tag.ownerId !== null && !(await cloneAlertedRecently(tx.db, tag));

    // The repeat check is part of the insert (a statement after the lock, so it sees every scan committed
    // before ours): one round trip less while the tag's row lock is held.
    const storedClass =
      classIfRepeated === scanClass
        ? scanClass
        : sql<ScanClass>`case when exists (${clientRowsWithin(tx.db, tag.id, ipHash, "realScan", REPEAT_WINDOW_MS)}) then ${classIfRepeated}::scan_class else ${scanClass}::scan_class end`;
    const [scan] = await tx.db
      .insert(schema.scans)
      .values({
        tagId: tag.id,
        ipHash,
        city: geo?.city ?? null,
        country: geo?.country ?? null,
        latitude: geo?.latitude ?? null,
        longitude: geo?.longitude ?? null,
        suspicious: evidence !== null,
        scanClass: storedClass,
        agent: describeUserAgent(visitor.userAgent),
      })
      .returning({ id: schema.scans.id, scanClass: schema.scans.scanClass });

    // One notification per scan: the clone alert stands for the scan it is about. A suspicious REAL scan
    // past the alert's 10 minutes is still told like any other, since it may be a genuine finder.
    if (alertClone) await notifyClone(tx, tag, scan!.id, geo?.city ?? null, evidence);
    else if (scan!.scanClass === "REAL" && tag.ownerId) await notifyScanned(tx, tag, scan!.id, geo?.city ?? null);
    recorded = scan!.scanClass;
    return tag;
  });
  // Counted once the scan has committed (the metrics' scans_total by class).
  if (recorded) countScan(recorded);
  return scanned;
}
