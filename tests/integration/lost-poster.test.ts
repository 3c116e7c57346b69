import { describe, expect, it } from "vitest";
import { getDatabase } from "@/db/client";
import { systemContext } from "@/lib/services/context";
import { ConflictError, NotFoundError } from "@/lib/services/errors";
import { getLostPoster, lastSeenInput, setLastSeen } from "@/lib/services/finder";
import { setTagStatus } from "@/lib/services/vehicles";
import { exportTags } from "@/lib/services/tags/export";
import { registerAccount } from "../support/auth";
import { giveTestTag, tagRow } from "../support/tags";

const ownerContext = (userId: string) => ({ ...systemContext(getDatabase().db), actor: { kind: "user" as const, userId, role: "USER" as const, ip: "127.0.0.1" } });

describe("the lost poster's last seen", () => {
  it("is set by the owner while the tag is lost, printed as written, and cleared when it is found", async () => {
    const owner = await registerAccount();
    const ctx = ownerContext(owner.id);
    const tag = await giveTestTag(owner.id, { status: "LOST", itemName: "Rex" });
    expect(await getLostPoster(ctx, tag.id)).toMatchObject({ lastSeenPlace: null, lastSeenWhen: null });

    const input = lastSeenInput.parse({ lastSeenPlace: "  Riverside Park, east gate ", lastSeenWhen: "Saturday 14 June, around 6 pm" });
    const poster = await setLastSeen(ctx, tag.id, input);
    expect(poster).toMatchObject({ lastSeenPlace: "Riverside Park, east gate", lastSeenWhen: "Saturday 14 June, around 6 pm", printable: true });

    // An emptied field is no line at all.
    expect(await setLastSeen(ctx, tag.id, lastSeenInput.parse({ lastSeenPlace: "", lastSeenWhen: "Saturday 14 June, around 6 pm" }))).toMatchObject({ lastSeenPlace: null });
    expect(lastSeenInput.safeParse({ lastSeenPlace: "x".repeat(121) }).success).toBe(false);

    // The owner's data export carries it.
    const [exported] = (await exportTags(getDatabase().db, owner.id)) as { lastSeenWhen: string | null }[];
    expect(exported!.lastSeenWhen).toBe("Saturday 14 June, around 6 pm");

    await setTagStatus(ctx, tag.id, { status: "FOUND" });
    expect(await tagRow(tag.id)).toMatchObject({ lastSeenPlace: null, lastSeenWhen: null });
    // Not lost: nothing to say where it was last seen (409), and another owner's tag is not found.
    await expect(setLastSeen(ctx, tag.id, input)).rejects.toBeInstanceOf(ConflictError);
    const stranger = await registerAccount();
    await expect(setLastSeen(ownerContext(stranger.id), tag.id, input)).rejects.toBeInstanceOf(NotFoundError);
  });
});
