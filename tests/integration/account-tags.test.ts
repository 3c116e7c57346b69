import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { GET as exportRoute } from "@/app/api/v1/auth/me/export/route";
import { DELETE as deleteMeRoute } from "@/app/api/v1/auth/me/route";
import { systemContext } from "@/lib/services/context";
import { activateTag, mintTags } from "@/lib/services/tags/inventory";
import { apiRequest, call, json } from "../support/http";
import { bearer, registerAccount } from "../support/auth";

async function ownTag(userId: string, itemName: string) {
  const [minted] = await mintTags(systemContext(), { count: 1 });
  const ctx = { ...systemContext(), actor: { kind: "user" as const, userId, role: "USER" as const, ip: "203.0.113.1" } };
  return activateTag(ctx, { code: minted!.code, itemName });
}

describe("account data and tags", () => {
  it("exports the user's tags with their profile and history", async () => {
    const account = await registerAccount();
    const tag = await ownTag(account.id, "Blue backpack");
    await getDatabase().db.insert(schema.tagProfiles).values({ tagId: tag.id, description: "Has a keyring", ownerName: "Ada" });
    const response = await call(exportRoute, apiRequest("/api/v1/auth/me/export", { headers: bearer(account.accessToken) }));
    expect(response.status).toBe(200);
    const { data } = await json<{ data: { tags: { id: string; code: string; itemName: string; profile: { description: string }; history: { toStatus: string }[] }[] } }>(response);
    expect(data.tags).toHaveLength(1);
    expect(data.tags[0]).toMatchObject({ id: tag.id, code: tag.code, itemName: "Blue backpack", profile: { description: "Has a keyring" } });
    expect(data.tags[0]!.history.map((event) => event.toStatus)).toEqual(["PENDING_SETUP"]);
  });

  it("deletes the user's tags and their profiles with the account", async () => {
    const account = await registerAccount();
    const tag = await ownTag(account.id, "Bike");
    await getDatabase().db.insert(schema.tagProfiles).values({ tagId: tag.id, ownerName: "Ada" });
    const response = await call(deleteMeRoute, apiRequest("/api/v1/auth/me", { method: "DELETE", headers: bearer(account.accessToken), body: { currentPassword: account.password } }));
    expect(response.status).toBe(200);
    expect(await getDatabase().db.select().from(schema.tags).where(eq(schema.tags.id, tag.id))).toEqual([]);
    expect(await getDatabase().db.select().from(schema.tagProfiles).where(eq(schema.tagProfiles.tagId, tag.id))).toEqual([]);
  });
});
