import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { JOBS_SCHEMA, prepareJobs, runPendingJobs, stopJobs } from "@/lib/jobs";
import { systemContext } from "@/lib/services/context";
import { alertsFanOutJob } from "@/lib/jobs/handlers/alerts-fan-out";
import { DELETE as deleteAreaRoute, GET as getAreaRoute, PUT as putAreaRoute } from "@/app/api/v1/alerts/area/route";
import { GET as nearbyRoute } from "@/app/api/v1/alerts/nearby/route";
import { POST as raiseRoute } from "@/app/api/v1/tags/[id]/lost-alert/route";
import { GET as tagAlertsRoute } from "@/app/api/v1/tags/[id]/lost-alerts/route";
import { PATCH as statusRoute } from "@/app/api/v1/tags/[id]/status/route";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, call, json, nextTestIp } from "../support/http";
import { giveTestTag } from "../support/tags";

beforeAll(async () => {
  await prepareJobs();
});
afterAll(async () => {
  await stopJobs();
});

const db = () => getDatabase().db;
const MISSING_ID = "00000000-0000-4000-8000-000000000000";
/** The sphere earthdistance measures on: metres per degree of latitude (earth() = 6378168 m). */
const M_PER_DEG = (6378168 * Math.PI) / 180;

type ErrorBody = { success: false; error: { code: string; message: string; details?: { fieldErrors?: Record<string, string[]> } } };

/** A watcher created straight in the database (no password hashing), with an area at a point already on the ~100 m grid. */
async function watcher(latitude: number, longitude: number, radiusKm: number, species: "DOG" | "CAT" | "BIRD" | "RABBIT" | "OTHER" | null = null): Promise<string> {
  const [user] = await db()
    .insert(schema.users)
    .values({ email: `watcher-${randomUUID()}@example.com`, passwordHash: "x", firstName: "W", lastName: "Atcher" })
    .returning({ id: schema.users.id });
  await db().insert(schema.alertAreas).values({ userId: user!.id, latitude, longitude, radiusKm, species });
  return user!.id;
}

/** An owner with a LOST pet tag and its profile. */
async function lostPet(options: { owner?: TestAccount; species?: string; petName?: string; breed?: string | null; color?: string | null; status?: "LOST" | "ACTIVE" | "FOUND"; tagType?: "PET" | "DEVICE" } = {}) {
  const owner = options.owner ?? (await registerAccount());
  const tag = await giveTestTag(owner.id, { tagType: options.tagType ?? "PET", status: options.status ?? "LOST", itemName: options.petName ?? "Bella" });
  if ((options.tagType ?? "PET") === "PET") {
    await db()
      .insert(schema.petProfiles)
      .values({ tagId: tag.id, petName: options.petName ?? "Bella", species: options.species ?? "Dog", breed: options.breed === undefined ? "Labrador" : options.breed, color: options.color === undefined ? "brown" : options.color });
  }
  return { owner, tag };
}

function raise(account: TestAccount, tagId: string, body: unknown): Promise<Response> {
  return call(raiseRoute, apiRequest(`/api/v1/tags/${tagId}/lost-alert`, { method: "POST", headers: bearer(account.accessToken), body, ip: nextTestIp() }), { id: tagId });
}

async function raised(account: TestAccount, tagId: string, body: unknown): Promise<{ alertId: string; recipients: number; url: string }> {
  const response = await raise(account, tagId, body);
  if (response.status !== 201) throw new Error(`raise failed: ${response.status} ${await response.text()}`);
  return (await json<{ data: { alertId: string; recipients: number; url: string } }>(response)).data;
}

async function recipientsOf(alertId: string): Promise<{ userId: string; distanceM: number; notificationId: string | null }[]> {
  return db()
    .select({ userId: schema.lostPetAlertRecipients.userId, distanceM: schema.lostPetAlertRecipients.distanceM, notificationId: schema.lostPetAlertRecipients.notificationId })
    .from(schema.lostPetAlertRecipients)
    .where(eq(schema.lostPetAlertRecipients.alertId, alertId));
}

function lostPetNotificationsOf(userId: string) {
  return db()
    .select()
    .from(schema.notifications)
    .where(and(eq(schema.notifications.userId, userId), eq(schema.notifications.type, "LOST_PET_NEARBY")));
}

async function deliveryJobs(notificationId: string): Promise<string[]> {
  const result: unknown = await db().execute(
    sql`select name from ${sql.raw(JOBS_SCHEMA)}.job where data->>'notificationId' = ${notificationId}
        union all
        select name from ${sql.raw(JOBS_SCHEMA)}.archive where data->>'notificationId' = ${notificationId}`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { name: string }[];
  return rows.map((row) => row.name).sort();
}

// Each test works around its own point, far from the others', so their watchers never meet.
let nextCentre = 0;
function centre(): { latitude: number; longitude: number } {
  nextCentre += 1;
  return { latitude: 40 + nextCentre * 0.5, longitude: -100 + nextCentre * 0.5 };
}

describe("POST /api/v1/tags/{id}/lost-alert: who is reached", () => {
  it("reaches a watcher just inside their own radius, not one just outside it nor one just outside the alert's radius", async () => {
    const { owner, tag } = await lostPet();
    const c = centre();
    // Watchers due north on the grid: k thousandths of a degree are k × 111.32 m along the meridian.
    const at = (k: number) => Number((c.latitude + k * 0.001).toFixed(3));
    const insideOwn = await watcher(at(18), c.longitude, 2.005); // 2003.8 m, radius 2005 m
    const outsideOwn = await watcher(at(18), c.longitude, 2.002); // 2003.8 m, radius 2002 m
    const insideAlert = await watcher(at(44), c.longitude, 50); // 4898.1 m, alert radius 5 km
    const outsideAlert = await watcher(at(45), c.longitude, 50); // 5009.4 m, alert radius 5 km
    const { alertId, recipients, url } = await raised(owner, tag.id, { latitude: c.latitude, longitude: c.longitude });
    expect(url).toBe(`/lost/${alertId}`);
    const rows = await recipientsOf(alertId);
    expect(rows.map((row) => row.userId).sort()).toEqual([insideOwn, insideAlert].sort());
    expect(recipients).toBe(2);
    expect(rows.find((row) => row.userId === insideOwn)!.distanceM).toBe(Math.round(18 * 0.001 * M_PER_DEG));
    for (const other of [outsideOwn, outsideAlert]) expect(rows.some((row) => row.userId === other)).toBe(false);
  });
});
