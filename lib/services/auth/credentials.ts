import { requireUser, type ServiceContext } from "@/lib/services/context";
import { findLiveApiKeyUser, findLiveSession } from "./queries";

/**
 * Whether the credential the acting user came with still stands: its session or API key live and the
 * user not suspended. Long-lived responses (a notification stream) ask it again as they go.
 */
export async function credentialStillValid(ctx: ServiceContext): Promise<boolean> {
  const actor = requireUser(ctx);
  const user = actor.sessionId ? (await findLiveSession(ctx.db, actor.sessionId))?.user : actor.apiKeyId ? await findLiveApiKeyUser(ctx.db, actor.apiKeyId) : null;
  return Boolean(user && user.id === actor.userId && !user.suspendedAt);
}
