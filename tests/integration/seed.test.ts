import { eq, inArray, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDatabase, schema } from "@/db/client";
import { verifyPassword } from "@/lib/auth/password";
import { systemContext } from "@/lib/services/context";
import { DEMO_INVENTORY_COUNT, DEMO_USER, seedDatabase } from "@/lib/services/system/seed";
import { tagStatus, tagType } from "@/db/schema";
import { isProfileComplete } from "@/lib/services/tags/completeness";
import { isAllowedTransition } from "@/lib/services/tags/transitions";

const ctx = () => systemContext(getDatabase().db);
const userByEmail = async (email: string) => (await getDatabase().db.select().from(schema.users).where(eq(schema.users.email, email)))[0];

describe("seedDatabase", () => {
  it("creates the SUPER_ADMIN with a verified e-mail and is idempotent", async () => {
    const options = { adminEmail: "Root@Example.com", adminPassword: "Admin1234", demo: false };
    expect(await seedDatabase(ctx(), options)).toEqual({ admin: "created", demoUser: "skipped", demoTags: "skipped" });
    const admin = await userByEmail("root@example.com");
    expect(admin).toMatchObject({ role: "SUPER_ADMIN", emailVerified: true });
    expect(await verifyPassword("Admin1234", admin!.passwordHash)).toBe(true);

    expect(await seedDatabase(ctx(), options)).toEqual({ admin: "unchanged", demoUser: "skipped", demoTags: "skipped" });
    expect((await getDatabase().db.select().from(schema.users)).filter((u) => u.email === "root@example.com")).toHaveLength(1);
  });

  it("promotes an existing user without changing their password", async () => {
    await getDatabase().db.insert(schema.users).values({ email: "promote@example.com", passwordHash: "scrypt$kept", firstName: "Pat", lastName: "Lee" });
    expect((await seedDatabase(ctx(), { adminEmail: "promote@example.com", adminPassword: "Other1234", demo: false })).admin).toBe("promoted");
    expect(await userByEmail("promote@example.com")).toMatchObject({ role: "SUPER_ADMIN", emailVerified: true, passwordHash: "scrypt$kept" });
  });

  it("seeds no admin without ADMIN_EMAIL and ADMIN_PASSWORD, and the demo user once", async () => {
    expect(await seedDatabase(ctx(), { demo: true })).toEqual({ admin: "skipped", demoUser: "created", demoTags: "created" });
    expect(await seedDatabase(ctx(), { demo: true })).toEqual({ admin: "skipped", demoUser: "unchanged", demoTags: "unchanged" });
    const demo = await userByEmail(DEMO_USER.email);
    expect(demo).toMatchObject({ role: "USER", emailVerified: true });
    expect(await verifyPassword(DEMO_USER.password, demo!.passwordHash)).toBe(true);
  });

  it("gives the demo user tags of every type and status, once, through the tag services, and some inventory", async () => {
    const db = getDatabase().db;
    await seedDatabase(ctx(), { demo: true });
    const demo = await userByEmail(DEMO_USER.email);
    const owned = await db.select().from(schema.tags).where(eq(schema.tags.ownerId, demo!.id));
    const inventory = await db.select().from(schema.tags).where(isNull(schema.tags.ownerId));

    const again = await seedDatabase(ctx(), { demo: true });
    expect(again.demoTags).toBe("unchanged");
    expect(await db.select().from(schema.tags).where(eq(schema.tags.ownerId, demo!.id))).toHaveLength(owned.length);
    expect(await db.select().from(schema.tags).where(isNull(schema.tags.ownerId))).toHaveLength(inventory.length);
    expect(await db.select().from(schema.users).where(eq(schema.users.email, DEMO_USER.email))).toHaveLength(1);

    expect(new Set(owned.map((t) => t.status))).toEqual(new Set(tagStatus.enumValues));
    expect(new Set(owned.map((t) => t.tagType))).toEqual(new Set(tagType.enumValues));
    expect(inventory.length).toBeGreaterThanOrEqual(DEMO_INVENTORY_COUNT);
    expect(inventory.every((t) => t.status === "PENDING_SETUP")).toBe(true);
    // PRO, so the tags that count (not DEACTIVATED) fit the tier limit.
    expect(demo!.subscription).toBe("PRO");

    for (const tag of owned) {
      expect(tag.itemName).toEqual(expect.any(String));
      // Profiles agree with status: only PENDING_SETUP tags are incomplete.
      expect(await isProfileComplete(db, tag), `${tag.itemName} (${tag.status})`).toBe(tag.status !== "PENDING_SETUP");
      if (tag.status === "LOST") expect(tag.lostMessage).toEqual(expect.any(String));
      if (tag.status === "STOLEN") expect(tag.stolenReportedAt).toBeInstanceOf(Date);
      if (tag.status !== "PENDING_SETUP") expect(tag.activatedAt).toBeInstanceOf(Date);
    }

    // Every move is in tag_events: a chain from the claim to the current status, each step a legal
    // move of the table except the system's expiry.
    // (Linked by status rather than sorted by time: moves in one transaction can share a timestamp.)
    const events = await db.select().from(schema.tagEvents).where(inArray(schema.tagEvents.tagId, owned.map((t) => t.id)));
    for (const tag of owned) {
      const remaining = events.filter((e) => e.tagId === tag.id);
      let step = remaining.find((e) => e.fromStatus === null);
      expect(step).toMatchObject({ toStatus: "PENDING_SETUP", actorUserId: demo!.id });
      let current = step!.toStatus;
      remaining.splice(remaining.indexOf(step!), 1);
      while ((step = remaining.find((e) => e.fromStatus === current))) {
        if (step.toStatus !== "EXPIRED") expect(isAllowedTransition(current, step.toStatus)).toBe(true);
        current = step.toStatus;
        remaining.splice(remaining.indexOf(step), 1);
      }
      expect(remaining).toEqual([]);
      expect(current).toBe(tag.status);
    }
  });
});
