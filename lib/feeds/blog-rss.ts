import type { BlogPostListItem } from "@/lib/services/content";

/** How many posts the feed carries, newest first. */
export const RSS_ITEMS = 20;

// Characters XML 1.0 cannot carry at all, even escaped: dropped rather than breaking every reader.
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Text as XML character data or an attribute value: the five special characters escaped. */
export function xmlEscape(value: string): string {
  return value
    .replace(NOT_XML, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/**
 * The blog as an RSS 2.0 document: the channel, then one item per post (title, absolute link, guid,
 * RFC 822 date, the excerpt as plain text, the author). Every text is escaped; no HTML is embedded, so a
 * reader shows nothing the site's own pages would not.
 */
export function blogRss(posts: readonly BlogPostListItem[], appUrl: string, serviceName: string): string {
  const base = appUrl.replace(/\/+$/, "");
  const items = posts.map((post) => {
    const link = `${base}/blog/${encodeURIComponent(post.slug)}`;
    return [
      "    <item>",
      `      <title>${xmlEscape(post.title)}</title>`,
      `      <link>${xmlEscape(link)}</link>`,
      `      <guid isPermaLink="true">${xmlEscape(link)}</guid>`,
      `      <pubDate>${new Date(post.publishedAt).toUTCString()}</pubDate>`,
      `      <dc:creator>${xmlEscape(post.author)}</dc:creator>`,
      `      <description>${xmlEscape(post.excerpt)}</description>`,
      "    </item>",
    ].join("\n");
  });
  const newest = posts[0]?.publishedAt;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    "  <channel>",
    `    <title>${xmlEscape(`${serviceName} blog`)}</title>`,
    `    <link>${xmlEscape(`${base}/blog`)}</link>`,
    `    <description>${xmlEscape(`News and guides from ${serviceName}: QR and NFC tags that bring lost things home.`)}</description>`,
    "    <language>en</language>",
    `    <atom:link href="${xmlEscape(`${base}/blog/rss.xml`)}" rel="self" type="application/rss+xml"/>`,
    ...(newest ? [`    <lastBuildDate>${new Date(newest).toUTCString()}</lastBuildDate>`] : []),
    ...items,
    "  </channel>",
    "</rss>",
    "",
  ].join("\n");
}
