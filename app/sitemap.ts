import type { MetadataRoute } from "next";
import { env } from "@/lib/env";
import { systemContext } from "@/lib/services/context";
import { latestPublishedPosts, listOpenPositions } from "@/lib/services/content";
import { listProducts } from "@/lib/services/orders";

// Read from the database on each request (products, posts and positions change without a build).
export const dynamic = "force-dynamic";

const staticPages: readonly { path: string; changeFrequency: MetadataRoute.Sitemap[number]["changeFrequency"]; priority: number }[] = [
  { path: "/", changeFrequency: "weekly", priority: 1 },
  { path: "/shop", changeFrequency: "weekly", priority: 0.8 },
  { path: "/found", changeFrequency: "yearly", priority: 0.6 },
  { path: "/blog", changeFrequency: "weekly", priority: 0.7 },
  { path: "/careers", changeFrequency: "weekly", priority: 0.5 },
  { path: "/contact", changeFrequency: "yearly", priority: 0.4 },
  { path: "/privacy", changeFrequency: "yearly", priority: 0.4 },
  { path: "/docs", changeFrequency: "monthly", priority: 0.4 },
  { path: "/register", changeFrequency: "yearly", priority: 0.5 },
];

/** The sitemap protocol's limit is 50 000 addresses a file; the blog is far from it. */
const MAX_POSTS = 10_000;

/** Every public, indexable page: the fixed ones, one per product on sale, published post and open position. */
export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const url = (path: string) => new URL(path, env.APP_URL).toString();
  const ctx = systemContext();
  const [{ items: products }, posts, positions] = await Promise.all([listProducts(ctx, { page: 1, limit: 100 }), latestPublishedPosts(ctx, MAX_POSTS), listOpenPositions(ctx)]);
  return [
    ...staticPages.map((page) => ({ url: url(page.path), changeFrequency: page.changeFrequency, priority: page.priority })),
    ...products.map((product) => ({ url: url(`/shop/${product.slug}`), changeFrequency: "weekly" as const, priority: 0.7 })),
    ...posts.map((post) => ({ url: url(`/blog/${post.slug}`), lastModified: post.publishedAt ?? undefined, changeFrequency: "monthly" as const, priority: 0.6 })),
    ...positions.map((position) => ({ url: url(`/careers/${position.id}`), changeFrequency: "weekly" as const, priority: 0.5 })),
  ];
}
