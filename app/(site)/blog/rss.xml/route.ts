import { SERVICE_NAME } from "@/components/site-links";
import { env } from "@/lib/env";
import { blogRss, RSS_ITEMS } from "@/lib/feeds/blog-rss";
import { latestPublishedPosts } from "@/lib/services/content";
import { systemContext } from "@/lib/services/context";

// Read from the database on every request (never prerendered at build time, when there is none).
export const dynamic = "force-dynamic";

/** GET /blog/rss.xml: the latest published posts as RSS 2.0, with absolute links on APP_URL. It reads public posts only, for anyone. */
export async function GET(): Promise<Response> {
  const posts = await latestPublishedPosts(systemContext(), RSS_ITEMS);
  return new Response(blogRss(posts, env.APP_URL, SERVICE_NAME), {
    headers: { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
}
