import { describe, expect, it } from "vitest";
import { safeNextPath } from "@/app/(site)/login/safe-next";

describe("safeNextPath (where sign-in returns to)", () => {
  it("keeps paths of this site, with their query and fragment, normalised", () => {
    expect(safeNextPath("/dashboard/tags?x=1#top")).toBe("/dashboard/tags?x=1#top");
    expect(safeNextPath("/dashboard/./tags/../account")).toBe("/dashboard/account");
  });

  it("refuses anything that leads to another origin, however it is spelled", () => {
    const hostile = [
      "/./\\/evil.example/phish",
      "/.//evil.example/phish",
      "/%2F/evil.example",
      "/a/../..//evil.example",
      "//evil.example",
      "/\\evil.example",
      "/\\/evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "https://evil.example",
      "javascript:alert(1)",
      "\\\\evil.example",
      "/login?next=/x",
      "/api/v1/auth/me",
      "",
    ];
    for (const value of hostile) {
      const result = safeNextPath(value);
      if (result !== null) {
        // A decoded-looking path that stays on this site (e.g. "/%2F/evil.example") is harmless only if it cannot leave it.
        expect(result.startsWith("//") || result.startsWith("/\\"), value).toBe(false);
        expect(new URL(result, "https://tags.example").origin, value).toBe("https://tags.example");
      }
    }
    expect(safeNextPath("/./\\/evil.example/phish")).toBeNull();
    expect(safeNextPath("/.//evil.example/phish")).toBeNull();
  });
});
