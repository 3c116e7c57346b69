import { describe, expect, it } from "vitest";
import { publicRequestUrl } from "@/lib/http/public-url";

describe("publicRequestUrl (the URL a webhook's sender signed)", () => {
  const req = new Request("http://10.0.0.7:3000/api/v1/webhooks/telephony/voice/whisper?leg=abc&step=accept", { method: "POST" });

  it("is the request's own URL without a trusted proxy", () => {
    expect(publicRequestUrl(req, { APP_URL: "https://tags.example", TRUST_PROXY: 0 })).toBe("http://10.0.0.7:3000/api/v1/webhooks/telephony/voice/whisper?leg=abc&step=accept");
  });

  it("is APP_URL's origin with the request's path and query behind one", () => {
    expect(publicRequestUrl(req, { APP_URL: "https://tags.example/", TRUST_PROXY: 1 })).toBe("https://tags.example/api/v1/webhooks/telephony/voice/whisper?leg=abc&step=accept");
  });
});
