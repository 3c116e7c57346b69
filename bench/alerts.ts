/**
 * The lost-pet alert fan-out (`npm run bench -- --only=alerts`), on a scratch PostgreSQL database (BENCH_DATABASE_URL
 * or DATABASE_URL): 100,000 watch areas over Germany (lat 47.3–55, lng 5.9–15) with a denser city (Berlin)
 * holding 2,000 of them, one alert of radius 5 km in that city, and the time from raiseLostAlert to every
 * recipient's notification row stored with its e-mail and push jobs (the `alerts.fan-out` handler run
 * directly, as a worker would). Prints the figures and EXPLAIN (ANALYZE, BUFFERS) of the recipient query,
 * and writes them to bench/results/alerts.md.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { schema, setDatabase, type DatabaseHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrator";
import { JOBS_SCHEMA, prepareJobs, stopJobs } from "@/lib/jobs";
import { alertsFanOutJob } from "@/lib/jobs/handlers/alerts-fan-out";
import { raiseLostAlert } from "@/lib/services/alerts";
import { alertRecipientsInsert } from "@/lib/services/alerts/queries";
import { systemContext, type ServiceContext } from "@/lib/services/context";
import { mintTags } from "@/lib/services/tags/inventory";
import { onScratchPostgres } from "./scratch-postgres";

const AREAS = Number(process.env.BENCH_ALERT_AREAS ?? 100_000);
const CITY_AREAS = Number(process.env.BENCH_ALERT_CITY_AREAS ?? 2_000);
const CITY = { latitude: 52.52, longitude: 13.405 };
/** The city's watchers live within this distance of its centre, and each watches at least this far. */
const CITY_RADIUS_KM = 4;
const ALERT_RADIUS_KM = 5;

export interface AlertsBenchResult {
  areas: number;
  recipients: number;
  notifications: number;
  deliveryJobs: number;
  /** raiseLostAlert: the alert, the recipients' INSERT … SELECT and the job, committed. */
  raiseMs: number;
  /** The fan-out job's handler: every recipient's notification, live signal and delivery jobs stored. */
  fanOutMs: number;
  totalMs: number;
  explain: string;
}

async function rowsOf<T>(handle: DatabaseHandle, query: ReturnType<typeof sql>): Promise<T[]> {
  const result: unknown = await handle.db.execute(query);
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];
}

/** 100,000 accounts, each with a watch area: most spread evenly over Germany, CITY_AREAS within CITY_RADIUS_KM of the city's centre. */
async function seedAreas(handle: DatabaseHandle): Promise<void> {
  await handle.db.execute(sql`select setseed(0.42)`);
  await handle.db.execute(sql`
    insert into users (email, password_hash, first_name, last_name)
    select 'bench-watcher-' || g || '@example.com', 'x', 'Bench', 'Watcher' from generate_series(1, ${AREAS}) as g`);
  // Uniform in a disc: the distance is r·sqrt(u); 1° of latitude is 111.2 km, of longitude 111.2·cos(lat) km.
  await handle.db.execute(sql`
    insert into alert_areas (user_id, latitude, longitude, radius_km, species)
    select u.id,
      round((case when n <= ${CITY_AREAS} then ${CITY.latitude} + d * cos(a) / 111.2 else 47.3 + random() * 7.7 end)::numeric, 3),
      round((case when n <= ${CITY_AREAS} then ${CITY.longitude} + d * sin(a) / (111.2 * cos(radians(${CITY.latitude}))) else 5.9 + random() * 9.1 end)::numeric, 3),
      case when n <= ${CITY_AREAS} then ${CITY_RADIUS_KM} + 1 + floor(random() * 10) else 1 + floor(random() * 20) end,
      case when random() < 0.7 then null else 'DOG'::pet_species end
    from (select id, row_number() over (order by id) as n, ${CITY_RADIUS_KM} * sqrt(random()) as d, 2 * pi() * random() as a from users where email like 'bench-watcher-%') as u`);
  await handle.db.execute(sql`vacuum analyze alert_areas`);
  await handle.db.execute(sql`vacuum analyze users`);
}

async function ownerWithLostDog(handle: DatabaseHandle): Promise<{ ctx: ServiceContext; tagId: string }> {
  const [owner] = await handle.db.insert(schema.users).values({ email: `bench-owner-${randomUUID()}@example.com`, passwordHash: "x", firstName: "Bench", lastName: "Owner" }).returning();
  const [minted] = await mintTags(systemContext(handle.db), { count: 1, tagType: "PET" });
  await handle.db.update(schema.tags).set({ ownerId: owner!.id, status: "LOST", itemName: "Bella" }).where(eq(schema.tags.id, minted!.id));
  await handle.db.insert(schema.petProfiles).values({ tagId: minted!.id, petName: "Bella", species: "Dog", breed: "Labrador", color: "brown" });
  return { ctx: { actor: { kind: "user", userId: owner!.id, role: "USER", ip: "127.0.0.1" }, db: handle.db }, tagId: minted!.id };
}

async function scenario(handle: DatabaseHandle): Promise<AlertsBenchResult> {
  setDatabase(handle);
  await migrateDatabase(handle);
  await prepareJobs(handle);
  try {
    await seedAreas(handle);
    const { ctx, tagId } = await ownerWithLostDog(handle);

    const started = performance.now();
    const { alertId, recipients } = await raiseLostAlert(ctx, tagId, { ...CITY, radiusKm: ALERT_RADIUS_KM, note: null });
    const raised = performance.now();
    await alertsFanOutJob.handler({ alertId }, { id: randomUUID(), name: "alerts.fan-out", ctx: systemContext(handle.db) });
    const done = performance.now();

    const [counted] = await rowsOf<{ notifications: number }>(handle, sql`select count(*)::int as notifications from notifications where type = 'LOST_PET_NEARBY' and data->>'alertId' = ${alertId}`);
    const [jobs] = await rowsOf<{ jobs: number }>(
      handle,
      sql`select count(*)::int as jobs from ${sql.raw(JOBS_SCHEMA)}.job j join notifications n on n.id::text = j.data->>'notificationId' where j.name in ('notifications.email', 'notifications.push') and n.data->>'alertId' = ${alertId}`,
    );

    // The same statement for a second alert, analysed inside a transaction that is rolled back.
    const ownerId = (ctx.actor as { userId: string }).userId;
    let plan: string[] = [];
    await handle.db
      .transaction(async (tx) => {
        const [alert] = await tx
          .insert(schema.lostPetAlerts)
          .values({ tagId, ownerId, species: "DOG", ...CITY, lastSeenAt: new Date(), radiusKm: ALERT_RADIUS_KM })
          .returning();
        const result: unknown = await tx.execute(sql`explain (analyze, buffers) ${alertRecipientsInsert(alert!)}`);
        const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, string>[];
        plan = rows.map((row) => Object.values(row)[0]!);
        throw new RollBack();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RollBack)) throw error;
      });

    return {
      areas: AREAS,
      recipients,
      notifications: counted!.notifications,
      deliveryJobs: jobs!.jobs,
      raiseMs: Math.round(raised - started),
      fanOutMs: Math.round(done - raised),
      totalMs: Math.round(done - started),
      explain: plan.join("\n"),
    };
  } finally {
    await stopJobs({ timeoutMs: 5_000 });
  }
}

class RollBack extends Error {}

export async function alertsBench(): Promise<AlertsBenchResult | string> {
  const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!postgresUrl) return "no PostgreSQL (BENCH_DATABASE_URL or DATABASE_URL)";
  try {
    return await onScratchPostgres(postgresUrl, scenario);
  } finally {
    setDatabase(undefined);
  }
}

export function formatAlertsBench(result: AlertsBenchResult): string {
  return [
    "# Lost-pet alert fan-out",
    "",
    `\`npm run bench -- --only=alerts\` on a scratch PostgreSQL database, ${new Date().toISOString().slice(0, 10)}: ${result.areas.toLocaleString("en")} watch areas over Germany`,
    `(lat 47.3–55, lng 5.9–15), ${CITY_AREAS.toLocaleString("en")} of them within ${CITY_RADIUS_KM} km of Berlin's centre; one alert of ${ALERT_RADIUS_KM} km there.`,
    "",
    "| step | figure |",
    "|---|---|",
    `| recipients found (raiseLostAlert's INSERT … SELECT) | ${result.recipients.toLocaleString("en")} |`,
    `| raiseLostAlert (alert, recipients, job; committed) | ${result.raiseMs} ms |`,
    `| fan-out job (notifications + live signals + e-mail/push jobs, 500 per transaction) | ${result.fanOutMs} ms |`,
    `| raise → every notification stored with its jobs | ${result.totalMs} ms |`,
    `| notifications stored / delivery jobs | ${result.notifications.toLocaleString("en")} / ${result.deliveryJobs.toLocaleString("en")} |`,
    "",
    "EXPLAIN (ANALYZE, BUFFERS) of the recipient query (a second alert at the same place, rolled back):",
    "",
    "```",
    result.explain,
    "```",
    "",
  ].join("\n");
}

export function saveAlertsBench(result: AlertsBenchResult): string {
  const file = path.join(import.meta.dirname, "results", "alerts.md");
  writeFileSync(file, formatAlertsBench(result));
  return file;
}
