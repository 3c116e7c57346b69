import { eq, inArray, isNull } from "drizzle-orm";
import { generate } from "otplib";
import { describe, expect, it, vi } from "vitest";
import { getDatabase, schema } from "@/db/client";
import { POST as createApiKeyRoute } from "@/app/api/v1/auth/api-keys/route";
import { POST as enable2faRoute } from "@/app/api/v1/auth/enable-2fa/route";
import { GET as meRoute } from "@/app/api/v1/auth/me/route";
import { POST as refreshRoute } from "@/app/api/v1/auth/refresh/route";
import { POST as resetPasswordRoute } from "@/app/api/v1/auth/reset-password/route";
import { POST as verify2faRoute } from "@/app/api/v1/auth/verify-2fa/route";
import { verifyPassword } from "@/lib/auth/password";
import { log } from "@/lib/log";
import { systemContext } from "@/lib/services/context";
import { issueUserToken } from "@/lib/services/auth/queries";
import { DEMO_INVENTORY_COUNT, DEMO_USER, seedDatabase } from "@/lib/services/system/seed";
import { STARTER_CATALOGUE } from "@/lib/services/orders/catalogue";
import { DEMO_TAG_ENCRYPTED_ID } from "@/lib/services/scans/schemas";
import { tagStatus, tagType } from "@/db/schema";
import { isProfileComplete } from "@/lib/services/tags/queries";
import { isAllowedTransition } from "@/lib/services/tags/transitions";
import { bearer, loginAccount, registerAccount, uniqueEmail } from "../support/auth";
import { apiRequest, call, json, nextTestIp } from "../support/http";

const ctx = () => systemContext(getDatabase().db);
const me = (headers: Record<string, string>) => call(meRoute, apiRequest("/api/v1/auth/me", { headers }));
const refresh = (refreshToken: string) => call(refreshRoute, apiRequest("/api/v1/auth/refresh", { method: "POST", ip: nextTestIp(), body: { refreshToken } }));
const resetPassword = (token: string, password: string) =>
  call(resetPasswordRoute, apiRequest("/api/v1/auth/reset-password", { method: "POST", ip: nextTestIp(), body: { token, password } }));
const userByEmail = async (email: string) => (await getDatabase().db.select().from(schema.users).where(eq(schema.users.email, email)))[0];

describe("seedDatabase", () => {
  it("creates the SUPER_ADMIN with a verified e-mail and is idempotent", async () => {
    const options = { adminEmail: "Root@Example.com", adminPassword: "Admin1234", demo: false };
    expect(await seedDatabase(ctx(), options)).toEqual({ admin: "created", demoUser: "skipped", demoTags: "skipped", catalogue: "skipped" });
    const admin = await userByEmail("root@example.com");
    expect(admin).toMatchObject({ role: "SUPER_ADMIN", emailVerified: true });
    expect(await verifyPassword("Admin1234", admin!.passwordHash)).toBe(true);

    expect(await seedDatabase(ctx(), options)).toEqual({ admin: "unchanged", demoUser: "skipped", demoTags: "skipped", catalogue: "skipped" });
    expect((await getDatabase().db.select().from(schema.users)).filter((u) => u.email === "root@example.com")).toHaveLength(1);
  });

  it("seeds once when instances start together: five simultaneous seeds all succeed, with one admin", async () => {
    const options = { adminEmail: "together@example.com", adminPassword: "Admin1234", demo: false };
    const results = await Promise.all(Array.from({ length: 5 }, () => seedDatabase(ctx(), options)));
    expect(results.map((r) => r.admin).sort()).toEqual(["created", "unchanged", "unchanged", "unchanged", "unchanged"]);
    const users = await getDatabase().db.select().from(schema.users);
    expect(users.filter((u) => u.email === "together@example.com")).toHaveLength(1);
  });

  describe("when ADMIN_EMAIL names an account someone registered", () => {
    const ADMIN_PASSWORD = "Admin-Pass-2026";

    /** A registrant signed in through the API and the cookie, with an API key and two-factor on. */
    async function registrantWithCredentials() {
      const account = await registerAccount({ email: uniqueEmail("takeover") });
      const created = await call(createApiKeyRoute, apiRequest("/api/v1/auth/api-keys", { method: "POST", headers: bearer(account.accessToken), body: { name: "script" } }));
      expect(created.status).toBe(201);
      const { key } = (await json<{ data: { key: string } }>(created)).data;
      const enabled = await call(enable2faRoute, apiRequest("/api/v1/auth/enable-2fa", { method: "POST", headers: bearer(account.accessToken), ip: nextTestIp() }));
      const { secret } = (await json<{ data: { secret: string } }>(enabled)).data;
      const verified = await call(verify2faRoute, apiRequest("/api/v1/auth/verify-2fa", { method: "POST", headers: bearer(account.accessToken), ip: nextTestIp(), body: { code: await generate({ secret }) } }));
      expect(verified.status).toBe(200);
      const credentials = { bearer: bearer(account.accessToken), cookie: { cookie: account.cookie }, apiKey: { "X-API-Key": key } };
      for (const headers of Object.values(credentials)) expect((await me(headers)).status).toBe(200);
      // A reset link is a way to set the password, too.
      const resetToken = await issueUserToken(getDatabase().db, account.id, "PASSWORD_RESET");
      return { account, credentials, resetToken };
    }

    it("sets its password to ADMIN_PASSWORD, confirms it, and ends every credential the registrant held, once", async () => {
      const { account, credentials, resetToken } = await registrantWithCredentials();
      const warn = vi.spyOn(log, "warn");
      try {
        expect((await seedDatabase(ctx(), { adminEmail: account.email.toUpperCase(), adminPassword: ADMIN_PASSWORD, demo: false })).admin).toBe("promoted");
        const admin = await userByEmail(account.email);
        expect(admin).toMatchObject({ role: "SUPER_ADMIN", emailVerified: true, twoFactorEnabled: false });
        expect(await verifyPassword(ADMIN_PASSWORD, admin!.passwordHash)).toBe(true);
        expect(await verifyPassword(account.password, admin!.passwordHash)).toBe(false);

        // What the registrant held no longer works: access token, cookie, API key, refresh token.
        for (const [name, headers] of Object.entries(credentials)) expect((await me(headers)).status, name).toBe(401);
        expect((await refresh(account.refreshToken)).status).toBe(401);
        expect((await resetPassword(resetToken, "Chosen-By-Registrant-1")).status).toBe(400);
        expect((await loginAccount(account.email, account.password)).status).toBe(401);
        // The operator signs in with ADMIN_PASSWORD alone: the registrant's authenticator is no factor of the admin.
        const signedIn = await loginAccount(account.email, ADMIN_PASSWORD);
        expect(signedIn.status).toBe(200);

        expect(warn).toHaveBeenCalledTimes(1);
        expect(warn.mock.calls[0]![0]).toMatch(/ADMIN_EMAIL.*existing account.*SUPER_ADMIN.*ADMIN_PASSWORD/);
        expect(JSON.stringify(warn.mock.calls)).not.toContain(ADMIN_PASSWORD);

        // Every start seeds again: the admin's own sign-in survives it.
        const { accessToken } = (await json<{ data: { accessToken: string } }>(signedIn)).data;
        expect((await seedDatabase(ctx(), { adminEmail: account.email, adminPassword: ADMIN_PASSWORD, demo: false })).admin).toBe("unchanged");
        expect((await me(bearer(accessToken))).status).toBe(200);
        expect(warn).toHaveBeenCalledTimes(1);
      } finally {
        warn.mockRestore();
      }
    });

    it("refuses to promote it without ADMIN_PASSWORD and says why", async () => {
      const { account, credentials } = await registrantWithCredentials();
      const before = await userByEmail(account.email);
      const warn = vi.spyOn(log, "warn");
      try {
        expect((await seedDatabase(ctx(), { adminEmail: account.email, demo: false })).admin).toBe("refused");
        expect(warn).toHaveBeenCalledTimes(1);
        expect(warn.mock.calls[0]![0]).toMatch(/ADMIN_PASSWORD/);
      } finally {
        warn.mockRestore();
      }
      expect(await userByEmail(account.email)).toMatchObject({ role: "USER", passwordHash: before!.passwordHash, twoFactorEnabled: true });
      for (const [name, headers] of Object.entries(credentials)) expect((await me(headers)).status, name).toBe(200);
    });

    it("leaves an existing SUPER_ADMIN alone without ADMIN_PASSWORD, and creates none (with a warning) for an unknown address", async () => {
      await seedDatabase(ctx(), { adminEmail: "kept-admin@example.com", adminPassword: ADMIN_PASSWORD, demo: false });
      expect((await seedDatabase(ctx(), { adminEmail: "kept-admin@example.com", demo: false })).admin).toBe("unchanged");
      expect(await verifyPassword(ADMIN_PASSWORD, (await userByEmail("kept-admin@example.com"))!.passwordHash)).toBe(true);

      const warn = vi.spyOn(log, "warn");
      try {
        expect((await seedDatabase(ctx(), { adminEmail: "nobody-yet@example.com", demo: false })).admin).toBe("skipped");
        expect(warn).toHaveBeenCalledTimes(1);
      } finally {
        warn.mockRestore();
      }
      expect(await userByEmail("nobody-yet@example.com")).toBeUndefined();
    });
  });

  it("seeds no admin without ADMIN_EMAIL and ADMIN_PASSWORD, and the demo user once", async () => {
    expect(await seedDatabase(ctx(), { demo: true })).toEqual({ admin: "skipped", demoUser: "created", demoTags: "created", catalogue: "created" });
    expect(await seedDatabase(ctx(), { demo: true })).toEqual({ admin: "skipped", demoUser: "unchanged", demoTags: "unchanged", catalogue: "unchanged" });
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
    // The API documentation's example scan id names the demo's house keys, so "Try it out" reaches the demo owner.
    expect(owned.find((t) => t.encryptedId === DEMO_TAG_ENCRYPTED_ID)).toMatchObject({ itemName: "House keys", status: "ACTIVE" });

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

  it("gives the demo user a finder's conversation about the lost pet, a reward on it and an emergency profile, once", async () => {
    const db = getDatabase().db;
    await seedDatabase(ctx(), { demo: true });
    await seedDatabase(ctx(), { demo: true });
    const demo = await userByEmail(DEMO_USER.email);
    const threads = await db.select().from(schema.threads).where(eq(schema.threads.ownerId, demo!.id));
    expect(threads).toHaveLength(1);
    const [lost] = await db.select().from(schema.tags).where(eq(schema.tags.id, threads[0]!.tagId));
    expect(lost!.status).toBe("LOST");
    const messages = await db.select().from(schema.threadMessages).where(eq(schema.threadMessages.threadId, threads[0]!.id));
    expect(messages.map((message) => message.sender).sort()).toEqual(["FINDER", "FINDER", "OWNER"]);
    const rewards = await db.select().from(schema.rewards).where(eq(schema.rewards.ownerId, demo!.id));
    expect(rewards.map((reward) => ({ tagId: reward.tagId, status: reward.status, amountMinor: reward.amountMinor }))).toEqual([{ tagId: lost!.id, status: "ACTIVE", amountMinor: 5000 }]);
    // No code shared by every finder: each conversation gets its own when it first shows the reward.
    expect(await db.select().from(schema.rewardHandovers).where(eq(schema.rewardHandovers.rewardId, rewards[0]!.id))).toHaveLength(0);
    expect(await db.select().from(schema.emergencyProfiles).where(eq(schema.emergencyProfiles.userId, demo!.id))).toHaveLength(1);
    expect(await db.select().from(schema.emergencyContacts).where(eq(schema.emergencyContacts.userId, demo!.id))).toHaveLength(1);
  });

  it("seeds the shop's starter catalogue with the demo content, once, and never touches a product an admin changed", async () => {
    const db = getDatabase().db;
    await seedDatabase(ctx(), { demo: true });
    const products = await db.select().from(schema.products);
    expect(products.map((p) => p.slug).sort()).toEqual(STARTER_CATALOGUE.map((p) => p.slug).sort());
    expect(products.every((p) => p.currency === "USD" && p.stock > 0 && p.active)).toBe(true);
    expect(Object.fromEntries(products.map((p) => [p.slug, p.tagPack]))).toMatchObject({ "tag-5-pack": 5, "tag-10-pack": 10, "pet-collar-tag": 1 });
    const collar = products.find((p) => p.slug === "pet-collar-tag")!;
    const variants = await db.select().from(schema.productVariants).where(eq(schema.productVariants.productId, collar.id));
    expect(variants.map((v) => v.name).sort()).toEqual(["Blue", "Green", "Red"]);
    expect(variants.every((v) => v.image?.startsWith("/products/pet-collar-tag"))).toBe(true);

    await db.update(schema.products).set({ priceMinor: 1, name: "Edited" }).where(eq(schema.products.id, collar.id));
    expect((await seedDatabase(ctx(), { demo: true })).catalogue).toBe("unchanged");
    expect(await db.select().from(schema.products)).toHaveLength(products.length);
    expect((await db.select().from(schema.products).where(eq(schema.products.id, collar.id)))[0]).toMatchObject({ priceMinor: 1, name: "Edited" });
    expect(await db.select().from(schema.productVariants).where(eq(schema.productVariants.productId, collar.id))).toHaveLength(3);
  });
});
