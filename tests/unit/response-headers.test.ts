import { describe, expect, it } from "vitest";
// Next's own matcher for `source` patterns, so the test reads the config the way the server does.
import { buildCustomRoute } from "next/dist/lib/build-custom-route";
import nextConfig from "@/next.config";

async function policiesFor(pathname: string): Promise<string[]> {
  const rules = (await nextConfig.headers!()).map((rule) => buildCustomRoute("header", rule));
  return rules
    .filter((rule) => new RegExp(rule.regex).test(pathname))
    .flatMap((rule) => rule.headers)
    .filter((header) => header.key.toLowerCase() === "content-security-policy")
    .map((header) => header.value);
}

describe("next.config headers", () => {
  it("give API responses the static policy, but not the invoice, whose stylesheet it would block", async () => {
    expect(await policiesFor("/api/v1/tags")).toEqual([expect.stringContaining("default-src 'none'")]);
    expect(await policiesFor("/api/v1/orders/abc")).toHaveLength(1);
    expect(await policiesFor("/api/v1/orders/abc/cancel")).toHaveLength(1);
    expect(await policiesFor("/webhooks/stripe")).toHaveLength(1);
    expect(await policiesFor("/api/v1/orders/0b8e5a3c-1111-4a4a-9c9c-123456789abc/invoice")).toEqual([]);
  });
});
