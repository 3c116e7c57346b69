import { withTransaction, type ServiceContext } from "@/lib/services/context";
import { getRelaySettings, updateRelaySettings } from "@/lib/services/relay";
import { type LostModeInput, type LostModeResult, saveLostMode } from "@/lib/services/rewards";

export interface LostModeWithRelayResult extends LostModeResult {
  /** The save turned the tag's phone relay on (it was off). */
  relayTurnedOn: boolean;
}

/**
 * Lost mode's form with its relay offer (docs/relay.md): the message and the reward (saveLostMode) and, when
 * asked, the tag's relay switched on, in one transaction: a refusal of either (no verified phone, 409) saves
 * neither. It lives here, in the top domain, so that neither rewards nor relay has to import the other.
 */
export async function saveLostModeWithRelay(ctx: ServiceContext, tagId: string, input: LostModeInput, options: { relay: boolean }): Promise<LostModeWithRelayResult> {
  return withTransaction(ctx, async (tx) => {
    const result = await saveLostMode(tx, tagId, input);
    if (!options.relay) return { ...result, relayTurnedOn: false };
    const before = await getRelaySettings(tx, tagId);
    if (before.enabled) return { ...result, relayTurnedOn: false };
    await updateRelaySettings(tx, tagId, { enabled: true });
    return { ...result, relayTurnedOn: true };
  });
}
