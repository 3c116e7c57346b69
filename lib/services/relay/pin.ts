import { randomInt } from "node:crypto";
import { eq } from "drizzle-orm";
import { schema, type Transaction } from "@/db/client";
import { isUniqueViolation } from "@/lib/services/errors";

/** A relay PIN: 6 uniformly random digits. */
export function randomPin(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

export const PIN_ATTEMPTS = 20;

/**
 * Turns the tag's relay on with a PIN no other enabled relay holds, in the caller's transaction: each
 * candidate (`preferred` first, then random ones) is written in a savepoint, and the partial unique index
 * (tag_relays_active_pin_key) refuses a taken one, also against a concurrent transaction that took it
 * first, so the next candidate is tried. A million PINs among the active tags make a retry rare.
 */
export async function assignRelayPin(tx: Transaction, tagId: string, options: { preferred?: string | null; avoid?: string | null; next?: () => string } = {}): Promise<string> {
  const next = options.next ?? randomPin;
  let candidate = options.preferred ?? null;
  for (let attempt = 0; attempt < PIN_ATTEMPTS; attempt++) {
    for (let draw = 0; !candidate || candidate === options.avoid; draw++) {
      if (draw >= 1000) throw new Error("the PIN source keeps answering the PIN to avoid");
      candidate = next();
    }
    const pin: string = candidate;
    try {
      await tx.transaction(async (savepoint) => {
        await savepoint.update(schema.tagRelays).set({ enabled: true, pin }).where(eq(schema.tagRelays.tagId, tagId));
      });
      return pin;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      candidate = null;
    }
  }
  throw new Error(`no free relay PIN after ${PIN_ATTEMPTS} tries`);
}
