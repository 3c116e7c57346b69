import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { connectPglite, connectPostgres, getDatabase, newPglite, pgliteDataDir, setDatabase, type DatabaseHandle } from "@/db/client";
import { BackupError, backupPostgres, dumpPglite, restorePglite, restorePostgres } from "@/db/backup";
import { JOBS_SCHEMA, prepareJobs, stopJobs } from "@/lib/jobs";
import { GET as servePhoto } from "@/app/api/photos/[photoId]/route";
import { GET as getProfileRoute } from "@/app/api/v1/profiles/[tagId]/route";
import { POST as uploadRoute } from "@/app/api/v1/profiles/[tagId]/photos/route";
import { PUT as putPetRoute } from "@/app/api/v1/profiles/[tagId]/pet/route";
import { POST as createRewardRoute } from "@/app/api/v1/rewards/[id]/route";
import { GET as rewardsRoute } from "@/app/api/v1/rewards/route";
import { GET as notificationsRoute } from "@/app/api/v1/notifications/route";
import { GET as ordersRoute } from "@/app/api/v1/orders/route";
import { POST as raiseRoute } from "@/app/api/v1/tags/[id]/lost-alert/route";
import { GET as tagAlertsRoute } from "@/app/api/v1/tags/[id]/lost-alerts/route";
import { bearer, loginAccount, registerAccount, type TestAccount } from "../support/auth";
import { databaseUrl, uniqueDatabaseName, usingPostgres, withAdminConnection, dropDatabase } from "../support/database";
import { apiRequest, call, json, nextTestIp } from "../support/http";
import { contactOwnerOf, inbox, threadRowByToken } from "../support/messages";
import { adminAccount, createTestProduct, ok, placeTestOrder } from "../support/shop";
import { claimTestTag, forceTagStatus } from "../support/tags";
import { testDatabase } from "../support/integration-setup";

// docs/operations.md "Backups and restore": data of every kind made through the API, backed up with
// db:backup's functions, restored into a fresh database, and the app's route handlers pointed at the copy.

let owner: TestAccount;
let tagId: string;
let photo: { id: string; bytes: Buffer };
let threadId: string;
let rewardId: string;
let orderId: string;
let alertId: string;
let pendingJobs: string[];
const work = mkdtempSync(path.join(os.tmpdir(), "backup-test-"));

async function rows<T>(handle: DatabaseHandle, query: ReturnType<typeof sql>): Promise<T[]> {
  const result: unknown = await handle.db.execute(query);
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];
}

const queuedJobs = (handle: DatabaseHandle) =>
  rows<{ id: string }>(handle, sql`select id::text from ${sql.raw(JOBS_SCHEMA)}.job where state = 'created' order by id`).then((found) => found.map((row) => row.id));

beforeAll(async () => {
  await prepareJobs();
  owner = await registerAccount({ password: "Backup-and-restore-9" });
  const tag = await claimTestTag(owner, { tagType: "PET", itemName: "Luna" });
  tagId = tag.id;
  await ok(await call(putPetRoute, apiRequest(`/api/v1/profiles/${tagId}/pet`, { method: "PUT", headers: bearer(owner.accessToken), body: { petName: "Luna", species: "Dog", breed: "Collie" } }), { tagId }));
  const form = new FormData();
  const image = await sharp({ create: { width: 24, height: 16, channels: 3, background: "#36c" } }).png().toBuffer();
  form.append("file", new Blob([new Uint8Array(image)], { type: "image/png" }), "luna.png");
  const uploaded = await ok<{ id: string }>(await call(uploadRoute, apiRequest(`/api/v1/profiles/${tagId}/photos`, { method: "POST", headers: bearer(owner.accessToken), rawBody: form }), { tagId }), 201);
  const served = await call(servePhoto as never, apiRequest(`/api/photos/${uploaded.id}`, { headers: bearer(owner.accessToken) }), { photoId: uploaded.id });
  expect(served.status).toBe(200);
  photo = { id: uploaded.id, bytes: Buffer.from(await served.arrayBuffer()) };
  // A conversation (and with it a notification and its delivery jobs, still queued: no worker runs here).
  const contact = await contactOwnerOf(tag.encryptedId, { message: "I found Luna by the river", finderName: "Sam" });
  threadId = (await threadRowByToken(contact.threadToken))!.id;
  await forceTagStatus(tagId, "LOST");
  rewardId = (await ok<{ id: string }>(await call(createRewardRoute, apiRequest(`/api/v1/rewards/${tagId}`, { method: "POST", headers: bearer(owner.accessToken), body: { amount: 40 } }), { id: tagId }), 201)).id;
  alertId = (
    await ok<{ alertId: string }>(
      await call(raiseRoute, apiRequest(`/api/v1/tags/${tagId}/lost-alert`, { method: "POST", headers: bearer(owner.accessToken), body: { latitude: 41.39, longitude: 2.17, radiusKm: 5 }, ip: nextTestIp() }), { id: tagId }),
      201,
    )
  ).alertId;
  const product = await createTestProduct(await adminAccount());
  orderId = (await placeTestOrder(owner, [{ productId: product.id, quantity: 2 }])).id;
  pendingJobs = await queuedJobs(getDatabase());
  expect(pendingJobs.length).toBeGreaterThan(0);
});

afterAll(async () => {
  await stopJobs();
  rmSync(work, { recursive: true, force: true });
});

/** With the app's handle pointed at the restored copy: everything made above is there and works. */
async function expectEverythingSurvived(restored: DatabaseHandle): Promise<void> {
  const original = getDatabase();
  setDatabase(restored);
  try {
    const signIn = await loginAccount(owner.email, "Backup-and-restore-9");
    expect(signIn.status, await signIn.clone().text()).toBe(200);
    const token = (await json<{ data: { accessToken: string } }>(signIn)).data.accessToken;
    expect((await loginAccount(owner.email, "wrong-password-1")).status).toBe(401);

    const profile = await ok<{ petProfile?: { petName: string }; pet?: { petName: string }; photos: { id: string }[] }>(
      await call(getProfileRoute, apiRequest(`/api/v1/profiles/${tagId}`, { headers: bearer(token) }), { tagId }),
    );
    expect(JSON.stringify(profile)).toContain("Luna");
    expect(profile.photos.map((item) => item.id)).toEqual([photo.id]);
    const served = await call(servePhoto as never, apiRequest(`/api/photos/${photo.id}`, { headers: bearer(token) }), { photoId: photo.id });
    expect(Buffer.from(await served.arrayBuffer()).equals(photo.bytes)).toBe(true);

    const threads = await inbox({ accessToken: token });
    expect(threads.data.map((thread) => thread.id)).toContain(threadId);
    const rewards = await ok<{ id: string }[]>(await call(rewardsRoute, apiRequest("/api/v1/rewards", { headers: bearer(token) })));
    expect(rewards.map((reward) => reward.id)).toContain(rewardId);
    const orders = await ok<{ id: string }[]>(await call(ordersRoute, apiRequest("/api/v1/orders", { headers: bearer(token) })));
    expect(orders.map((order) => order.id)).toContain(orderId);
    const notifications = await ok<{ type: string }[]>(await call(notificationsRoute, apiRequest("/api/v1/notifications", { headers: bearer(token) })));
    expect(notifications.map((notification) => notification.type)).toContain("MESSAGE_RECEIVED");
    const alerts = await call(tagAlertsRoute, apiRequest(`/api/v1/tags/${tagId}/lost-alerts`, { headers: bearer(token) }), { id: tagId });
    expect(alerts.status).toBe(200);
    expect(await alerts.text()).toContain(alertId);
    // The queued jobs are still queued, and the distance index was rebuilt and answers.
    expect(await queuedJobs(restored)).toEqual(pendingJobs);
    const near = await rows<{ id: string }>(restored, sql`select id::text from lost_pet_alerts where earth_box(ll_to_earth(41.39, 2.17), 1000) @> earth_point(latitude, longitude)`);
    expect(near.map((row) => row.id)).toContain(alertId);
  } finally {
    setDatabase(original);
  }
}

describe.runIf(usingPostgres())("PostgreSQL: npm run db:backup / db:restore", () => {
  it("restores every kind of object into a fresh database; refuses a database that is not empty", async () => {
    const file = path.join(work, "backup.dump");
    const backup = await backupPostgres(databaseUrl(testDatabase().name), file);
    expect(backup.bytes).toBeGreaterThan(10_000);
    await expect(backupPostgres(databaseUrl(testDatabase().name), file)).rejects.toThrow(/already exists/);

    const target = uniqueDatabaseName("tagsvc_restore");
    await withAdminConnection((admin) => admin.unsafe(`CREATE DATABASE "${target}"`));
    try {
      const restored = await restorePostgres(databaseUrl(target), file);
      expect(restored.users).toBeGreaterThanOrEqual(2);
      expect(restored.migrations).toBeGreaterThan(20);
      await expect(restorePostgres(databaseUrl(target), file)).rejects.toThrow(/not empty/);
      const handle = connectPostgres(databaseUrl(target), { max: 2 });
      try {
        await expectEverythingSurvived(handle);
      } finally {
        await handle.close();
      }
    } finally {
      await dropDatabase(target);
    }
  });

  it("restores as a database owner who is not a superuser, once an administrator has created the extensions", async () => {
    const file = path.join(work, "owner.dump");
    await backupPostgres(databaseUrl(testDatabase().name), file);
    const role = uniqueDatabaseName("tagsvc_owner");
    const target = uniqueDatabaseName("tagsvc_restore");
    await withAdminConnection(async (admin) => {
      await admin.unsafe(`CREATE ROLE "${role}" LOGIN`);
      await admin.unsafe(`CREATE DATABASE "${target}" OWNER "${role}"`);
    });
    const asOwner = new URL(databaseUrl(target));
    asOwner.username = role;
    asOwner.password = "";
    try {
      // earthdistance is not a trusted extension: the owner alone cannot create it, and is told what to do.
      await expect(restorePostgres(asOwner.toString(), file)).rejects.toThrow(/Create the extensions once as an administrator/);
      const admin = postgres(databaseUrl(target), { max: 1, onnotice: () => {} });
      try {
        await admin.unsafe("CREATE EXTENSION cube; CREATE EXTENSION earthdistance;");
      } finally {
        await admin.end({ timeout: 5 });
      }
      const restored = await restorePostgres(asOwner.toString(), file);
      expect(restored.users).toBeGreaterThanOrEqual(2);
    } finally {
      await dropDatabase(target);
      await withAdminConnection((admin) => admin.unsafe(`DROP ROLE IF EXISTS "${role}"`));
    }
  });

  it("refuses a file of the other kind and one that is not there", async () => {
    await expect(restorePostgres(databaseUrl(testDatabase().name), path.join(work, "missing.dump"))).rejects.toThrow(BackupError);
  });
});

describe.runIf(!usingPostgres())("embedded database: npm run db:backup / db:restore", () => {
  it("restores every kind of object into a fresh DATA_DIR; refuses one that is not empty without --force", async () => {
    const file = path.join(work, "backup.tar.gz");
    const database = testDatabase();
    if (database.kind !== "pglite") throw new Error("expected the embedded database");
    await dumpPglite(database.pglite, file);
    const dataDir = path.join(work, "data");
    const restored = await restorePglite(dataDir, file);
    expect(restored.users).toBeGreaterThanOrEqual(2);
    await expect(restorePglite(dataDir, file)).rejects.toThrow(/not empty/);
    await expect(restorePostgres("postgres://nobody@127.0.0.1:1/none", file)).rejects.toThrow(/not a pg_dump custom-format file/);
    await restorePglite(dataDir, file, { force: true });
    const handle = connectPglite(undefined, newPglite(pgliteDataDir(dataDir)));
    try {
      await expectEverythingSurvived(handle);
    } finally {
      await handle.close();
    }
  });
});
