import { eq } from "drizzle-orm";
import sharp from "sharp";
import { getDatabase, schema } from "@/db/client";
import { POST as applyRoute } from "@/app/api/v1/organisations/route";
import { POST as fileFoundRoute } from "@/app/api/v1/organisations/found/route";
import { bearer, registerAccount, type TestAccount } from "./auth";
import { apiRequest, call, json, nextTestIp } from "./http";
import { giveTestTag } from "./tags";

const db = () => getDatabase().db;

/** The sphere earthdistance measures on: metres per degree of latitude (earth() = 6378168 m). */
export const M_PER_DEG = (6378168 * Math.PI) / 180;

/** The point `km` due north of `from`, as earthdistance measures it. */
export function north(from: { latitude: number; longitude: number }, km: number): { latitude: number; longitude: number } {
  return { latitude: from.latitude + (km * 1000) / M_PER_DEG, longitude: from.longitude };
}

// Each test works around its own point, far from the others', so their alerts never meet.
let nextCentre = 0;
export function testCentre(): { latitude: number; longitude: number } {
  nextCentre += 1;
  return { latitude: -30 + (nextCentre % 60) * 1.1, longitude: 20 + Math.floor(nextCentre / 60) * 1.1 + (nextCentre % 7) * 0.01 };
}

export type Species = "DOG" | "CAT" | "BIRD" | "RABBIT" | "OTHER";

export interface TestAlertOptions {
  owner?: TestAccount;
  species?: Species;
  petName?: string;
  breed?: string | null;
  color?: string | null;
  at: { latitude: number; longitude: number };
  createdAt?: Date;
  photo?: boolean;
}

/**
 * An owner's LOST pet tag with its profile (and a primary photo when asked) and an open alert written
 * straight into lost_pet_alerts, so a test controls its place, species and age exactly.
 */
export async function testAlert(options: TestAlertOptions): Promise<{ owner: TestAccount; tagId: string; alertId: string; photoId: string | null }> {
  const owner = options.owner ?? (await registerAccount());
  const tag = await giveTestTag(owner.id, { tagType: "PET", status: "LOST", itemName: options.petName ?? "Bella" });
  await db()
    .insert(schema.petProfiles)
    .values({ tagId: tag.id, petName: options.petName ?? "Bella", species: "Dog", breed: options.breed === undefined ? "Labrador" : options.breed, color: options.color === undefined ? "brown" : options.color });
  let photoId: string | null = null;
  if (options.photo) {
    const data = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#a63" } }).jpeg().toBuffer();
    const [photo] = await db()
      .insert(schema.tagPhotos)
      .values({ tagId: tag.id, contentType: "image/jpeg", data, byteSize: data.length, width: 8, height: 8, isPrimary: true })
      .returning({ id: schema.tagPhotos.id });
    photoId = photo!.id;
  }
  const [alert] = await db()
    .insert(schema.lostPetAlerts)
    .values({
      tagId: tag.id,
      ownerId: owner.id,
      species: options.species ?? "DOG",
      latitude: options.at.latitude,
      longitude: options.at.longitude,
      lastSeenAt: new Date(Date.now() - 3_600_000),
      radiusKm: 5,
      ...(options.createdAt ? { createdAt: options.createdAt } : {}),
    })
    .returning({ id: schema.lostPetAlerts.id });
  return { owner, tagId: tag.id, alertId: alert!.id, photoId };
}

export const validApplication = (at: { latitude: number; longitude: number }, overrides: Record<string, unknown> = {}) => ({
  name: "Riverside Animal Shelter",
  kind: "SHELTER",
  address: "12 Mill Lane, London SE1 7PB",
  latitude: at.latitude,
  longitude: at.longitude,
  phone: "+44 20 7946 0958",
  website: "https://riverside-shelter.example.org",
  ...overrides,
});

export function apply(account: TestAccount, body: unknown): Promise<Response> {
  return call(applyRoute, apiRequest("/api/v1/organisations", { method: "POST", headers: bearer(account.accessToken), body, ip: nextTestIp() }));
}

/** An account with an organisation at `at`, verified straight in the database unless `verified: false`. */
export async function testOrganisation(at: { latitude: number; longitude: number }, options: { verified?: boolean; name?: string; watchRadiusKm?: number } = {}) {
  const account = await registerAccount();
  const response = await apply(account, validApplication(at, options.name ? { name: options.name } : {}));
  if (response.status !== 201) throw new Error(`apply failed: ${response.status} ${await response.text()}`);
  const { data } = await json<{ data: { id: string } }>(response);
  const updates: Partial<typeof schema.organisations.$inferInsert> = {};
  if (options.verified !== false) updates.verifiedAt = new Date();
  if (options.watchRadiusKm !== undefined) updates.watchRadiusKm = options.watchRadiusKm;
  if (Object.keys(updates).length) await db().update(schema.organisations).set(updates).where(eq(schema.organisations.id, data.id));
  return { account, organisationId: data.id };
}

export const foundBody = (at: { latitude: number; longitude: number }, overrides: Record<string, unknown> = {}) => ({
  species: "DOG",
  latitude: at.latitude,
  longitude: at.longitude,
  foundAt: new Date(Date.now() - 600_000).toISOString(),
  note: "Found near the park gates, friendly, no collar.",
  ...overrides,
});

export function fileFound(account: TestAccount, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return call(fileFoundRoute, apiRequest("/api/v1/organisations/found", { method: "POST", headers: { ...bearer(account.accessToken), ...headers }, body, ip: nextTestIp() }));
}

export interface FiledReport {
  report: { id: string; photoUrl: string | null; latitude: number; longitude: number; matches: { alertId: string }[]; removed: boolean };
  matches: { alertId: string; petName: string; distanceText: string; url: string }[];
}

export async function filed(account: TestAccount, body: unknown): Promise<FiledReport> {
  const response = await fileFound(account, body);
  if (response.status !== 201) throw new Error(`filing failed: ${response.status} ${await response.text()}`);
  return (await json<{ data: FiledReport }>(response)).data;
}

export function notificationsOf(userId: string, type: "FOUND_PET_MATCH" = "FOUND_PET_MATCH") {
  return db()
    .select()
    .from(schema.notifications)
    .where(eq(schema.notifications.userId, userId))
    .then((rows) => rows.filter((row) => row.type === type));
}

/** The user's organisation, verified: the one they have (made verified) or a new one, straight in the database. */
export async function verifiedOrganisationFor(userId: string, at = { latitude: 51.5, longitude: -0.12 }): Promise<string> {
  const [row] = await db()
    .insert(schema.organisations)
    .values({ userId, name: "Test Shelter", kind: "SHELTER", address: "1 Test Street", latitude: at.latitude, longitude: at.longitude, phone: "+442079460958", verifiedAt: new Date() })
    .onConflictDoUpdate({ target: schema.organisations.userId, set: { verifiedAt: new Date() } })
    .returning({ id: schema.organisations.id });
  return row!.id;
}
