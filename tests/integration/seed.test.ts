import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDatabase, schema } from "@/db/client";
import { verifyPassword } from "@/lib/auth/password";
import { systemContext } from "@/lib/services/context";
import { DEMO_USER, seedDatabase } from "@/lib/services/system/seed";

const ctx = () => systemContext(getDatabase().db);
const userByEmail = async (email: string) => (await getDatabase().db.select().from(schema.users).where(eq(schema.users.email, email)))[0];

describe("seedDatabase", () => {
  it("creates the SUPER_ADMIN with a verified e-mail and is idempotent", async () => {
    const options = { adminEmail: "Root@Example.com", adminPassword: "Admin1234", demo: false };
    expect(await seedDatabase(ctx(), options)).toEqual({ admin: "created", demoUser: "skipped" });
    const admin = await userByEmail("root@example.com");
    expect(admin).toMatchObject({ role: "SUPER_ADMIN", emailVerified: true });
    expect(await verifyPassword("Admin1234", admin!.passwordHash)).toBe(true);

    expect(await seedDatabase(ctx(), options)).toEqual({ admin: "unchanged", demoUser: "skipped" });
    expect((await getDatabase().db.select().from(schema.users)).filter((u) => u.email === "root@example.com")).toHaveLength(1);
  });

  it("promotes an existing user without changing their password", async () => {
    await getDatabase().db.insert(schema.users).values({ email: "promote@example.com", passwordHash: "scrypt$kept", firstName: "Pat", lastName: "Lee" });
    expect((await seedDatabase(ctx(), { adminEmail: "promote@example.com", adminPassword: "Other1234", demo: false })).admin).toBe("promoted");
    expect(await userByEmail("promote@example.com")).toMatchObject({ role: "SUPER_ADMIN", emailVerified: true, passwordHash: "scrypt$kept" });
  });

  it("seeds no admin without ADMIN_EMAIL and ADMIN_PASSWORD, and the demo user once", async () => {
    expect(await seedDatabase(ctx(), { demo: true })).toEqual({ admin: "skipped", demoUser: "created" });
    expect(await seedDatabase(ctx(), { demo: true })).toEqual({ admin: "skipped", demoUser: "unchanged" });
    const demo = await userByEmail(DEMO_USER.email);
    expect(demo).toMatchObject({ role: "USER", emailVerified: true });
    expect(await verifyPassword(DEMO_USER.password, demo!.passwordHash)).toBe(true);
  });
});
