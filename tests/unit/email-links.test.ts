import { describe, expect, it } from "vitest";
import { buildActionUrl } from "@/emails/links";
import { extractLinks } from "@/lib/email/mailbox";
import { env } from "@/lib/env";

describe("buildActionUrl", () => {
  it("joins APP_URL, the path and the token", () => {
    expect(buildActionUrl("/verify-email", { token: "abc", appUrl: "http://localhost:3000" })).toBe("http://localhost:3000/verify-email?token=abc");
  });

  it("defaults to APP_URL", () => {
    expect(buildActionUrl("/dashboard")).toBe(new URL("/dashboard", env.APP_URL).toString());
  });

  it("keeps a path prefix and a trailing slash in APP_URL", () => {
    expect(buildActionUrl("/reset-password", { token: "t", appUrl: "https://example.com/app/" })).toBe("https://example.com/app/reset-password?token=t");
  });

  it("keeps a query already in the path and encodes the token", () => {
    expect(buildActionUrl("/thread/1?tab=messages", { token: "x y&z", appUrl: "https://example.com" })).toBe(
      "https://example.com/thread/1?tab=messages&token=x+y%26z",
    );
  });

  it("refuses paths that would leave APP_URL's host, and empty tokens", () => {
    expect(() => buildActionUrl("//evil.example/x" as "/x", { appUrl: "https://example.com" })).toThrow();
    expect(() => buildActionUrl("/\\evil.example" as "/x", { appUrl: "https://example.com" })).toThrow();
    expect(() => buildActionUrl("https://evil.example" as "/x", { appUrl: "https://example.com" })).toThrow();
    expect(() => buildActionUrl("/x", { token: "", appUrl: "https://example.com" })).toThrow();
  });
});

describe("extractLinks", () => {
  it("lists http(s) links from the HTML and the text once each, in order", () => {
    const links = extractLinks({
      html: '<a href="https://a.example/">A</a> <a href="https://b.example/x?token=1&amp;lang=en">B</a> <a href="mailto:x@y.z">m</a> <a href=\'javascript:alert(1)\'>j</a>',
      text: "A https://a.example/ and https://c.example/path?token=2. Also (https://d.example/q).",
    });
    expect(links).toEqual(["https://a.example/", "https://b.example/x?token=1&lang=en", "https://c.example/path?token=2", "https://d.example/q"]);
  });
});
