import { eq, sql } from "drizzle-orm";
import { schema } from "@/db/client";
import { hashPassword } from "@/lib/auth/password";
import { withTransaction, type ServiceContext } from "@/lib/services/context";

/** The demo account seeded outside production, so `npm run dev` has someone to sign in as. */
export const DEMO_USER = { email: "demo@tagservice.local", password: "DemoTags2026", firstName: "Dana", lastName: "Demo" } as const;

export interface SeedOptions {
  adminEmail?: string;
  adminPassword?: string;
  /** Demo content for development; never in production. */
  demo: boolean;
}

export interface SeedResult {
  admin: "created" | "promoted" | "unchanged" | "skipped";
  demoUser: "created" | "unchanged" | "skipped";
}

/**
 * Idempotent: creates or promotes the SUPER_ADMIN from ADMIN_EMAIL/ADMIN_PASSWORD (verified e-mail,
 * existing password kept) and, when asked, the demo content. Later issues extend the demo content.
 */
export async function seedDatabase(ctx: ServiceContext, options: SeedOptions): Promise<SeedResult> {
  return withTransaction(ctx, async (tx) => {
    const result: SeedResult = { admin: "skipped", demoUser: "skipped" };
    if (options.adminEmail && options.adminPassword) {
      const email = options.adminEmail.toLowerCase();
      const [existing] = await tx.db.select().from(schema.users).where(eq(sql`lower(${schema.users.email})`, email));
      if (!existing) {
        await tx.db.insert(schema.users).values({
          email,
          passwordHash: await hashPassword(options.adminPassword),
          firstName: "Platform",
          lastName: "Admin",
          role: "SUPER_ADMIN",
          emailVerified: true,
        });
        result.admin = "created";
      } else if (existing.role !== "SUPER_ADMIN" || !existing.emailVerified) {
        await tx.db.update(schema.users).set({ role: "SUPER_ADMIN", emailVerified: true }).where(eq(schema.users.id, existing.id));
        result.admin = "promoted";
      } else {
        result.admin = "unchanged";
      }
    }
    if (options.demo) {
      const inserted = await tx.db
        .insert(schema.users)
        .values({
          email: DEMO_USER.email,
          passwordHash: await hashPassword(DEMO_USER.password),
          firstName: DEMO_USER.firstName,
          lastName: DEMO_USER.lastName,
          emailVerified: true,
        })
        .onConflictDoNothing()
        .returning({ id: schema.users.id });
      result.demoUser = inserted.length ? "created" : "unchanged";
    }
    return result;
  });
}
