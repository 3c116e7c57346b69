import { describe, expect, it } from "vitest";
import { formatCoordinate, formatPlace, geoUri, openStreetMapUrl, OSM_TILES } from "@/lib/maps/links";

describe("the static map links (the fallback without JavaScript)", () => {
  it("links OpenStreetMap to the place with a pin, at street level, latitude first", () => {
    expect(openStreetMapUrl(48.85837, 2.294481)).toBe("https://www.openstreetmap.org/?mlat=48.85837&mlon=2.29448#map=17/48.85837/2.29448");
    expect(openStreetMapUrl(-33.8568, 151.2153)).toBe("https://www.openstreetmap.org/?mlat=-33.85680&mlon=151.21530#map=17/-33.85680/151.21530");
    const url = new URL(openStreetMapUrl(51.50135, -0.14189));
    expect(url.origin).toBe("https://www.openstreetmap.org");
    expect(url.searchParams.get("mlat")).toBe("51.50135");
    expect(url.searchParams.get("mlon")).toBe("-0.14189");
    expect(url.hash).toBe("#map=17/51.50135/-0.14189");
  });

  it("writes an RFC 5870 geo: URI a phone's maps app opens (no uncertainty parameter)", () => {
    expect(geoUri(48.85837, 2.294481)).toBe("geo:48.85837,2.29448");
    expect(geoUri(-33.8568, 151.2153)).toBe("geo:-33.85680,151.21530");
    expect(geoUri(0, 0)).toBe("geo:0.00000,0.00000");
    expect(geoUri(90, -180)).toBe("geo:90.00000,-180.00000");
    expect(geoUri(12.345678, 98.7654321)).toMatch(/^geo:-?\d{1,2}\.\d{5},-?\d{1,3}\.\d{5}$/);
  });

  it("rounds to five decimals (about a metre), never to exponent notation", () => {
    expect(formatCoordinate(1e-7)).toBe("0.00000");
    expect(formatCoordinate(-0.000004)).toBe("-0.00000");
    expect(formatCoordinate(2.294485)).toMatch(/^2\.2944[89]$/);
    expect(formatPlace(48.85837, 2.294481)).toBe("48.85837, 2.29448");
  });

  it("uses OpenStreetMap's tile server with the attribution its licence asks for", () => {
    expect(OSM_TILES.url).toBe("https://tile.openstreetmap.org/{z}/{x}/{y}.png");
    expect(OSM_TILES.attribution).toContain('href="https://www.openstreetmap.org/copyright"');
    expect(OSM_TILES.attribution).toContain("OpenStreetMap");
  });
});

describe("where a shared location's notification leads (never to the place itself)", () => {
  const tagId = "5b8c8f0e-2f55-4a0d-9d3b-2f4f9a3e6c11";
  const threadId = "7d0f3c1a-5b2e-4c8d-9a6f-1e2b3c4d5e6f";
  const place = { latitude: 48.85837, longitude: 2.294481, accuracy: 12 };

  it("opens the conversation's map when shared in a conversation, else the tag's map", async () => {
    const { notificationAction } = await import("@/lib/services/notifications/actions");
    expect(notificationAction("FINDER_LOCATION_SHARED", { tagId, threadId, ...place })).toEqual({ label: "See the shared location", path: `/dashboard/messages/${threadId}#shared-locations` });
    expect(notificationAction("FINDER_LOCATION_SHARED", { tagId: tagId.toUpperCase(), scanId: tagId, ...place })).toEqual({ label: "See the shared location", path: `/dashboard/tags/${tagId}/map` });
    expect(notificationAction("FINDER_LOCATION_SHARED", { tagId: "../../admin", ...place })).toEqual({ label: "See the shared location", path: "/dashboard/tags" });
    expect(notificationAction("FINDER_LOCATION_SHARED", { threadId: "x", tagId })).toEqual({ label: "See the shared location", path: `/dashboard/tags/${tagId}/map` });
  });
});
