import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import { getDatabase } from "@/db/client";
import { GET as scanRoute } from "@/app/api/v1/scan/[encryptedId]/route";
import { GET as tagScansRoute } from "@/app/api/v1/tags/[id]/scans/route";
import { ScanList } from "@/components/tags/scan-list";
import { env } from "@/lib/env";
import type { ServiceContext } from "@/lib/services/context";
import { listTagScans, type ScanRecord } from "@/lib/services/tags/scans";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, call, json, nextTestIp } from "../support/http";
import { giveTestTag } from "../support/tags";
import { USER_AGENTS as UA } from "../support/user-agents";

// As if behind Vercel, so scans carry a place (restored after).
const settings = env as { TRUST_PROXY: number; GEO_HEADERS: "none" | "vercel" | "cloudflare" };
const before = { ...settings };
beforeAll(() => {
  settings.TRUST_PROXY = 1;
  settings.GEO_HEADERS = "vercel";
});
afterAll(() => {
  settings.TRUST_PROXY = before.TRUST_PROXY;
  settings.GEO_HEADERS = before.GEO_HEADERS;
});

const TOKYO = { "x-vercel-ip-latitude": "35.6762", "x-vercel-ip-longitude": "139.6503", "x-vercel-ip-city": "Tokyo", "x-vercel-ip-country": "JP" };
const PARIS = { "x-vercel-ip-latitude": "48.8566", "x-vercel-ip-longitude": "2.3522", "x-vercel-ip-city": "Paris", "x-vercel-ip-country": "FR" };

async function scanFrom(encryptedId: string, place: Record<string, string>) {
  const response = await call(scanRoute, apiRequest(`/api/v1/scan/${encryptedId}`, { ip: nextTestIp(), headers: { "user-agent": UA.iphoneSafari, ...place } }), { encryptedId });
  expect(response.status).toBe(200);
}

const ownerCtx = (owner: TestAccount): ServiceContext => ({ actor: { kind: "user", userId: owner.id, role: "USER", ip: "203.0.113.20" }, db: getDatabase().db });
const render = (scans: ScanRecord[]) => renderToStaticMarkup(<ScanList scans={scans} timeZone="UTC" />);
const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/&#x27;|&apos;/g, "'").replace(/\s+/g, " ");

describe("the owner's scan list: suspicious scans are marked and explained", () => {
  it("marks the suspicious scan, links it to one plain explanation of what it may mean and what to do", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "LOST", itemName: "Rex" });
    await scanFrom(tag.encryptedId, TOKYO);
    await scanFrom(tag.encryptedId, PARIS);

    // The API says so too.
    const listed = await call(tagScansRoute, apiRequest(`/api/v1/tags/${tag.id}/scans`, { headers: bearer(owner.accessToken) }), { id: tag.id });
    expect((await json<{ data: { city: string; suspicious: boolean }[] }>(listed)).data.map((scan) => [scan.city, scan.suspicious])).toEqual([
      ["Paris", true],
      ["Tokyo", false],
    ]);

    const { items } = await listTagScans(ownerCtx(owner), tag.id, { page: 1, limit: 20 });
    const html = render(items);
    const words = text(html);
    // One explanation above the list, which the marked scan links to.
    expect(html.match(/id="suspicious-scans-help"/g)).toHaveLength(1);
    expect(html.indexOf('id="suspicious-scans-help"')).toBeLessThan(html.indexOf('aria-label="Scans"'));
    expect(html.match(/href="#suspicious-scans-help"/g)).toHaveLength(1);
    expect(words).toContain("Possible copy of the tag");
    expect(words).toContain("Minutes after a scan too far away for one tag to travel.");
    // What it may mean, that nothing was blocked, and what the product really offers.
    expect(words).toContain("Someone may have copied the tag's QR code, link or printed code, or a VPN may have placed one of the scans far from where it happened.");
    expect(words).toContain("Nothing was blocked: the tag's page stayed open, so a real finder can still message you.");
    expect(words).toContain("activate a new one for the item, then release this one under “More” on this page");
    expect(words).toContain("Releasing deletes this tag's profile, photos, scans and messages.");
    // The Tokyo row is not marked.
    const rows = html.split("<li").slice(1);
    expect(rows[0]).toContain("Possible copy of the tag");
    expect(rows[1]).not.toContain("Possible copy of the tag");
  });

  it("says nothing of copies when no scan on the page is suspicious", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Keys" });
    await scanFrom(tag.encryptedId, PARIS);
    const html = render((await listTagScans(ownerCtx(owner), tag.id, { page: 1, limit: 20 })).items);
    expect(html).toContain("Paris");
    expect(html).not.toContain("suspicious-scans-help");
    expect(html).not.toContain("Possible copy");
  });
});
