import { describe, expect, it } from "vitest";
import QRCode from "qrcode";
import { getDatabase, schema } from "@/db/client";
import { GET as scansRoute, POST as scansPost } from "@/app/api/v1/tags/[id]/scans/route";
import { GET as qrRoute } from "@/app/api/v1/tags/[id]/qr/route";
import { scanUrl } from "@/lib/services/tags/codes";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, call, json } from "../support/http";
import { giveTestTag } from "../support/tags";

const MISSING_ID = "00000000-0000-4000-8000-000000000000";

type ScanItem = {
  id: string;
  scannedAt: string;
  city: string | null;
  country: string | null;
  latitude: number | null;
  longitude: number | null;
  suspicious: boolean;
  scanClass: string;
  agent: string | null;
  locationShared: boolean;
  accuracy: number | null;
};
type ScansBody = { data: ScanItem[]; meta: { total: number; page: number; totalPages: number } };

function scans(account: TestAccount | null, tagId: string, query = "") {
  return call(scansRoute, apiRequest(`/api/v1/tags/${tagId}/scans${query}`, { headers: account ? bearer(account.accessToken) : {} }), { id: tagId });
}

function qr(account: TestAccount | null, tagId: string, query = "") {
  return call(qrRoute, apiRequest(`/api/v1/tags/${tagId}/qr${query}`, { headers: account ? bearer(account.accessToken) : {} }), { id: tagId });
}

describe("GET /tags/:id/scans", () => {
  it("pages the tag's scans newest first, without the IP hash", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE" });
    const other = await giveTestTag(owner.id, { status: "ACTIVE" });
    const base = Date.UTC(2026, 0, 1, 12);
    await getDatabase()
      .db.insert(schema.scans)
      .values([
        { tagId: tag.id, scannedAt: new Date(base), ipHash: "h1", city: "Paris", country: "FR", latitude: 48.85, longitude: 2.35 },
        { tagId: tag.id, scannedAt: new Date(base + 60_000), ipHash: "h2", city: "Lyon", country: "FR", suspicious: true },
        { tagId: tag.id, scannedAt: new Date(base + 120_000), ipHash: "h3", scanClass: "BOT", agent: "Googlebot" },
        { tagId: other.id, scannedAt: new Date(base + 180_000), ipHash: "h4", city: "Berlin" },
      ]);

    const first = await scans(owner, tag.id, "?limit=2");
    expect(first.status).toBe(200);
    const page1 = await json<ScansBody>(first);
    expect(page1.meta).toMatchObject({ total: 3, page: 1, totalPages: 2 });
    expect(page1.data.map((scan) => scan.scannedAt)).toEqual([new Date(base + 120_000).toISOString(), new Date(base + 60_000).toISOString()]);
    expect(page1.data[0]).toEqual({
      id: expect.any(String),
      scannedAt: expect.any(String),
      city: null,
      country: null,
      latitude: null,
      longitude: null,
      suspicious: false,
      scanClass: "BOT",
      agent: "Googlebot",
      locationShared: false,
      accuracy: null,
    });
    expect(page1.data[1]).toMatchObject({ city: "Lyon", country: "FR", suspicious: true });
    expect(JSON.stringify(page1)).not.toContain("ipHash");

    const page2 = await json<ScansBody>(await scans(owner, tag.id, "?limit=2&page=2"));
    expect(page2.data).toEqual([
      {
        id: expect.any(String),
        scannedAt: new Date(base).toISOString(),
        city: "Paris",
        country: "FR",
        latitude: 48.85,
        longitude: 2.35,
        suspicious: false,
        scanClass: "REAL",
        agent: null,
        locationShared: false,
        accuracy: null,
      },
    ]);

    const empty = await json<ScansBody>(await scans(owner, (await giveTestTag(owner.id)).id));
    expect(empty).toMatchObject({ data: [], meta: { total: 0, page: 1, totalPages: 0 } });
  });

  it("validates pagination (400) and hides other users' tags (404); 401 anonymous; 405 for POST", async () => {
    const owner = await registerAccount();
    const intruder = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE" });
    expect((await scans(owner, tag.id, "?limit=101")).status).toBe(400);
    expect((await scans(owner, tag.id, "?page=0")).status).toBe(400);
    expect((await scans(intruder, tag.id)).status).toBe(404);
    expect((await scans(intruder, MISSING_ID)).status).toBe(404);
    expect((await scans(owner, "malformed")).status).toBe(404);
    expect((await scans(null, tag.id)).status).toBe(401);
    expect((await call(scansPost, apiRequest(`/api/v1/tags/${tag.id}/scans`, { method: "POST", headers: bearer(owner.accessToken) }), { id: tag.id })).status).toBe(405);
  });
});

describe("GET /tags/:id/qr", () => {
  it("answers the scan URL as SVG and as PNG (the default)", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE" });
    const url = scanUrl(tag.encryptedId);

    const svg = await qr(owner, tag.id, "?format=svg");
    expect(svg.status).toBe(200);
    expect(svg.headers.get("content-type")).toBe("image/svg+xml");
    const svgText = await svg.text();
    expect(svgText).toMatch(/^<svg[\s>]/);
    expect(svgText).toBe(await QRCode.toString(url, { type: "svg", errorCorrectionLevel: "M", margin: 2 }));

    for (const query of ["?format=png", ""]) {
      const png = await qr(owner, tag.id, query);
      expect(png.status).toBe(200);
      expect(png.headers.get("content-type")).toBe("image/png");
      const bytes = Buffer.from(await png.arrayBuffer());
      expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect(bytes.equals(await QRCode.toBuffer(url, { type: "png", errorCorrectionLevel: "M", margin: 2, width: 512 }))).toBe(true);
    }
  });

  it("is owner only (404 otherwise, envelope), 401 anonymous, 400 for an unknown format", async () => {
    const owner = await registerAccount();
    const intruder = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE" });
    const hidden = await qr(intruder, tag.id, "?format=svg");
    expect(hidden.status).toBe(404);
    expect(hidden.headers.get("content-type")).toContain("application/json");
    expect((await json<{ error: { code: string } }>(hidden)).error.code).toBe("NOT_FOUND");
    expect((await qr(owner, MISSING_ID)).status).toBe(404);
    expect((await qr(owner, "malformed")).status).toBe(404);
    expect((await qr(null, tag.id)).status).toBe(401);
    expect((await qr(owner, tag.id, "?format=gif")).status).toBe(400);
  });
});
