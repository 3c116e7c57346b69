import { describe, expect, it } from "vitest";
import { getDatabase, schema } from "@/db/client";
import { lostAlertMapOpening, putAlertArea } from "@/lib/services/alerts";
import type { ServiceContext } from "@/lib/services/context";
import { NotFoundError } from "@/lib/services/errors";
import { registerAccount } from "../support/auth";
import { giveTestTag } from "../support/tags";

const db = () => getDatabase().db;
const asUser = (userId: string): ServiceContext => ({ actor: { kind: "user", userId, role: "USER", ip: "127.0.0.1" }, db: db() });

describe("where the lost-alert map opens", () => {
  it("opens where the pet was last placed, else at the owner's watch area, else on the whole world; another owner's tag is 404", async () => {
    const owner = await registerAccount();
    const ctx = asUser(owner.id);
    const tag = await giveTestTag(owner.id, { tagType: "PET", status: "LOST", itemName: "Bella" });

    expect(await lostAlertMapOpening(ctx, tag.id)).toBeNull();

    const area = await putAlertArea(ctx, { latitude: 48.1374, longitude: 11.5755, radiusKm: 5 });
    expect(await lostAlertMapOpening(ctx, tag.id)).toEqual({ latitude: area.latitude, longitude: area.longitude });

    // A bot's located scan says nothing of where the pet is; a real one does, and wins over the area.
    await db().insert(schema.scans).values([
      { tagId: tag.id, scanClass: "BOT", latitude: 40.0, longitude: -3.0, scannedAt: new Date() },
      { tagId: tag.id, scanClass: "REAL", latitude: 48.2, longitude: 11.6, scannedAt: new Date(Date.now() - 60_000) },
    ]);
    const opening = await lostAlertMapOpening(ctx, tag.id);
    expect(opening).toEqual({ latitude: 48.2, longitude: 11.6 });
    // The map itself is drawn in the browser (e2e/alerts.spec.ts checks it opens there, at street zoom).

    const stranger = await registerAccount();
    await expect(lostAlertMapOpening(asUser(stranger.id), tag.id)).rejects.toThrow(NotFoundError);
  });
});
