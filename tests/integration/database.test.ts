import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";

describe("test database", () => {
  it("is migrated and writable", async () => {
    const { db } = getDatabase();
    const [user] = await db
      .insert(schema.users)
      .values({ email: "first@example.com", passwordHash: "x", firstName: "Ada", lastName: "Lovelace" })
      .returning();
    expect(user?.role).toBe("USER");
    expect(user?.emailVerified).toBe(false);
    const rows = await db.execute(sql`select count(*)::int as n from users`);
    expect(rows).toBeDefined();
  });

  it("enforces case-insensitive unique e-mail", async () => {
    const { db } = getDatabase();
    await expect(
      db.insert(schema.users).values({ email: "FIRST@example.com", passwordHash: "x", firstName: "A", lastName: "B" }),
    ).rejects.toThrow();
  });
});
