import { rmSync } from "node:fs";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { connectPglite, connectPostgres, newPglite, type DatabaseHandle } from "@/db/client";
import { migrateDatabase } from "@/db/migrator";
import { migrationsUpToSeed } from "../../bench/growth";
import { checkSeededForeignKeys, ownedTags, pgliteSession, postgresSession, seedGrowth, seededUuid, volumesAt, type SeedSession, type Volumes } from "../../bench/growth-seed";
import { databaseUrl, dropDatabase, uniqueDatabaseName, usingPostgres, withAdminConnection } from "../support/database";

// The growth bench's seed (bench/growth-seed.ts) at a tiny size, on an empty database migrated to the
// seed's migration, then the later migrations on the seeded rows, as `npm run bench -- --only=growth` does.

const volumes: Volumes = {
  users: 50,
  tags: 200,
  scans: 3_000,
  hotTagScans: 330,
  conversations: 40,
  messages: 160,
  notifications: 500,
  heavyUserNotifications: 50,
  heavyUserConversations: 4,
  orders: 30,
};

let handle: DatabaseHandle;
let session: SeedSession;
let cleanUp: () => Promise<void>;

async function rows<T>(text: string): Promise<T[]> {
  return session.query<T>(text);
}

beforeAll(async () => {
  let seeder: postgres.Sql | undefined;
  if (usingPostgres()) {
    const name = uniqueDatabaseName("tagsvc_growth");
    await withAdminConnection((sql) => sql.unsafe(`CREATE DATABASE "${name}"`));
    handle = connectPostgres(databaseUrl(name), { max: 2 });
    seeder = postgres(databaseUrl(name), { max: 1, onnotice: () => {} });
    session = postgresSession(seeder);
    cleanUp = async () => {
      await seeder!.end({ timeout: 5 });
      await handle.close();
      await dropDatabase(name);
    };
  } else {
    const pglite = newPglite();
    handle = connectPglite(undefined, pglite);
    session = pgliteSession(pglite);
    cleanUp = () => handle.close();
  }
  const { folder } = migrationsUpToSeed();
  try {
    await migrateDatabase(handle, folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  await seedGrowth(session, volumes);
  await migrateDatabase(handle);
}, 120_000);

afterAll(async () => {
  await cleanUp?.();
});

describe("the growth bench's seed", () => {
  it("writes the volumes asked for, every foreign key finding its row", async () => {
    const [counts] = await rows<Record<string, number>>(`
      select (select count(*)::int from users) as users, (select count(*)::int from tags) as tags, (select count(*)::int from scans) as scans,
        (select count(*)::int from threads) as conversations, (select count(*)::int from thread_messages) as messages,
        (select count(*)::int from notifications) as notifications, (select count(*)::int from orders) as orders,
        (select count(*)::int from order_items) as items`);
    expect(counts).toEqual({ ...pickCounts(volumes), items: volumes.orders });
    expect(await checkSeededForeignKeys(session)).toBeGreaterThanOrEqual(8);
  });

  it("gives the hot tag its share of the scans and the heavy user theirs of the notifications, both owned by the heavy user", async () => {
    const heavy = seededUuid("user", 1);
    const hot = seededUuid("tag", 1);
    const [tag] = await rows<{ owner_id: string; status: string; scan_count: number; scans: number }>(
      `select owner_id, status, scan_count, (select count(*)::int from scans where tag_id = tags.id) as scans from tags where id = '${hot}'`,
    );
    expect(tag).toEqual({ owner_id: heavy, status: "ACTIVE", scan_count: volumes.hotTagScans, scans: volumes.hotTagScans });
    const [mine] = await rows<{ notifications: number; conversations: number }>(
      `select (select count(*)::int from notifications where user_id = '${heavy}') as notifications, (select count(*)::int from threads where owner_id = '${heavy}' and tag_id = '${hot}') as conversations`,
    );
    expect(mine).toEqual({ notifications: volumes.heavyUserNotifications, conversations: volumes.heavyUserConversations });
  });

  it("keeps each tag's scan count equal to its scans, scans only on owned tags", async () => {
    const [check] = await rows<{ mismatched: number; unowned: number }>(`
      select (select count(*)::int from tags where scan_count <> (select count(*) from scans where scans.tag_id = tags.id)) as mismatched,
        (select count(*)::int from scans join tags on tags.id = scans.tag_id where tags.owner_id is null) as unowned`);
    expect(check).toEqual({ mismatched: 0, unowned: 0 });
    const [inventory] = await rows<{ n: number }>(`select count(*)::int as n from tags where owner_id is null and status = 'PENDING_SETUP'`);
    expect(inventory!.n).toBe(volumes.tags - ownedTags(volumes));
  });

  it("derives ids the API accepts, the same in SQL and in the bench's code", async () => {
    const [user] = await rows<{ id: string }>(`select id from users where email like '%' || 7 || '@%' and id = '${seededUuid("user", 7)}'`);
    expect(user?.id).toBe(seededUuid("user", 7));
    for (const id of [seededUuid("user", 1), seededUuid("tag", 123), seededUuid("thread", 9)]) expect(z.uuid().safeParse(id).success).toBe(true);
  });

  it("dates messages after their conversation began, the conversation's last message time on its last", async () => {
    const [check] = await rows<{ early: number; stale: number }>(`
      select (select count(*)::int from thread_messages m join threads t on t.id = m.thread_id where m.created_at < t.created_at) as early,
        (select count(*)::int from threads t where t.last_message_at <> (select max(created_at) from thread_messages m where m.thread_id = t.id)) as stale`);
    expect(check).toEqual({ early: 0, stale: 0 });
  });

  it("scales issue 30's volumes by a percentage", () => {
    expect(volumesAt(100)).toMatchObject({ users: 200_000, scans: 10_000_000, hotTagScans: 1_100_000, heavyUserNotifications: 200_000 });
    expect(volumesAt(1)).toMatchObject({ users: 2_000, tags: 10_000, scans: 100_000, orders: 1_000 });
  });
});

function pickCounts(v: Volumes) {
  return { users: v.users, tags: v.tags, scans: v.scans, conversations: v.conversations, messages: v.messages, notifications: v.notifications, orders: v.orders };
}
