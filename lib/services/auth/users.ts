import { eq, sql } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import type { User } from "@/db/schema";
import { NotFoundError } from "@/lib/services/errors";
import type { PublicUser } from "./schemas";

export function toPublicUser(user: User): PublicUser {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    phone: user.phone,
    role: user.role,
    emailVerified: user.emailVerified,
    twoFactorEnabled: user.twoFactorEnabled,
    subscription: user.subscription,
    createdAt: user.createdAt.toISOString(),
  };
}

export async function findUserByEmail(db: Executor, email: string): Promise<User | undefined> {
  const [user] = await db.select().from(schema.users).where(eq(sql`lower(${schema.users.email})`, email.trim().toLowerCase()));
  return user;
}

export async function getUserById(db: Executor, id: string): Promise<User> {
  const [user] = await db.select().from(schema.users).where(eq(schema.users.id, id));
  if (!user) throw new NotFoundError("User not found.");
  return user;
}
