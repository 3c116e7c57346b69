import { eq } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { defaultPreferences, type Preferences } from "./rules";

/**
 * The notifications domain's reads on a bare database handle (or an open transaction): the preferences
 * notify() and the preference verbs read (the live streams' reads are in lib/realtime/notifications.ts).
 * Routes, actions and pages use the verbs in lib/services/notifications (index.ts) instead.
 */

/** The user's notification preferences, or the defaults when they never saved any. */
export async function preferencesOf(db: Executor, userId: string): Promise<Preferences> {
  const [row] = await db.select().from(schema.notificationPreferences).where(eq(schema.notificationPreferences.userId, userId));
  return row ?? defaultPreferences(userId);
}
