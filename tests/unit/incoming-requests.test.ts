import { describe, expect, it } from "vitest";
import { hasMalformedEncoding, MALFORMED_API_PATH, routableUrl } from "@/lib/http/incoming-requests";

describe("API paths Next could not decode", () => {
  it("recognises a malformed percent-encoding in any segment", () => {
    for (const path of ["/api/v1/scan/%E0%A4%A", "/api/v1/tags/%zz", "/api/v1/x/%", "/api/v1/blog/%C3%28/more", "/api/v1/a/%ED%A0%80"]) expect(hasMalformedEncoding(path), path).toBe(true);
    for (const path of ["/api/v1/scan/abc", "/api/v1/vehicles/verify/1HGCM82633A00435%32", "/api/v1/a/%E2%82%AC", "/api/v1/a%2Fb"]) expect(hasMalformedEncoding(path), path).toBe(false);
  });

  it("sends only undecodable /api/v1 paths to the catch-all, whatever the query", () => {
    expect(routableUrl("/api/v1/scan/%E0%A4%A")).toBe(MALFORMED_API_PATH);
    expect(routableUrl("/api/v1/scan/%E0%A4%A?x=1")).toBe(MALFORMED_API_PATH);
    expect(routableUrl("/api/v1/scan/ok?q=%E0%A4%A")).toBe("/api/v1/scan/ok?q=%E0%A4%A");
    expect(routableUrl("/api/v1/tags?page=1")).toBe("/api/v1/tags?page=1");
    // Pages keep Next's own handling (a 404 page).
    expect(routableUrl("/t/%E0%A4%A")).toBe("/t/%E0%A4%A");
  });
});
