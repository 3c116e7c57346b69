import type { MetadataRoute } from "next";
import { env } from "@/lib/env";

/**
 * Crawlers may read the public site. Private areas are disallowed; the finder's tag and conversation
 * pages are not, on purpose: they carry `noindex`, which a crawler can only see if it may fetch them.
 */
export default function robots(): MetadataRoute.Robots {
  return {
    rules: [{ userAgent: "*", allow: "/", disallow: ["/dashboard", "/admin", "/api/", "/dev/", "/checkout/", "/shop/cart"] }],
    sitemap: new URL("/sitemap.xml", env.APP_URL).toString(),
  };
}
