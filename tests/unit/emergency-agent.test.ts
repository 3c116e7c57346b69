import { describe, expect, it } from "vitest";
import { describeUserAgent } from "@/lib/services/emergency/agent";

describe("describeUserAgent (the emergency access log's reader)", () => {
  it("names the browser and the system in a few words", () => {
    expect(describeUserAgent("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1")).toBe("Safari on iOS");
    expect(describeUserAgent("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36")).toBe("Chrome on Android");
    expect(describeUserAgent("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0")).toBe("Edge on Windows");
    expect(describeUserAgent("Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0")).toBe("Firefox on macOS");
    expect(describeUserAgent("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1")).toBe("Chrome on iOS");
    expect(describeUserAgent("Mozilla/5.0 (Linux; Android 14; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36")).toBe("Samsung Internet on Android");
  });

  it("calls scripts and crawlers an automated client, and knows nothing of nothing", () => {
    expect(describeUserAgent("curl/8.5.0")).toBe("Automated client");
    expect(describeUserAgent("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")).toBe("Automated client");
    expect(describeUserAgent("facebookexternalhit/1.1")).toBe("Automated client");
    expect(describeUserAgent("Mozilla/5.0 (compatible; bingbot/2.0)")).toBe("Automated client");
    expect(describeUserAgent("WhatsApp/2.23.20.0 A")).toBe("Automated client");
    expect(describeUserAgent(null)).toBeNull();
    expect(describeUserAgent("")).toBeNull();
    expect(describeUserAgent("something odd")).toBeNull();
  });
});
