import type { CallerUser } from "@/lib/services/context";
import type { PublicUser } from "./schemas";

export function toPublicUser(user: Omit<CallerUser, "suspendedAt">): PublicUser {
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

