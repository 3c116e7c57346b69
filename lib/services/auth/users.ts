import type { User } from "@/db/schema";
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

