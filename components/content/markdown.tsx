import ReactMarkdown, { defaultUrlTransform, type Components } from "react-markdown";
import rehypeSanitize, { defaultSchema } from "rehype-sanitize";
import remarkGfm from "remark-gfm";

/**
 * True for an image address we are willing to load: https anywhere, or a path on our own origin (our
 * storage, /api/photos/<id>, or a file under public/). Not http (mixed content, tracking in clear), not
 * data: or blob:, not protocol-relative "//host".
 */
export function isAllowedImageSource(src: string): boolean {
  const value = src.trim();
  if (value.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\")) return true;
  try {
    return new URL(value).protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * Links keep react-markdown's safe set (http, https, mailto, tel, relative); `javascript:`, `data:`,
 * `vbscript:` and the rest become "". Images must pass isAllowedImageSource or are dropped.
 */
function urlTransform(url: string, key: string): string | null | undefined {
  if (key === "src") return isAllowedImageSource(url) ? url : "";
  return defaultUrlTransform(url);
}

const components: Components = {
  // An image whose address was refused has no src left: render nothing rather than a broken image.
  img: ({ src, alt, title }) =>
    typeof src === "string" && src ? (
      // eslint-disable-next-line @next/next/no-img-element -- any https host an author links to; next/image needs each host configured, and e-mails need a plain <img>
      <img src={src} alt={alt ?? ""} title={title} loading="lazy" />
    ) : null,
  // External links open normally but pass no referrer or opener to the site they lead to.
  a: ({ href, children, title }) => {
    const external = typeof href === "string" && /^https?:/i.test(href);
    return (
      <a href={href || undefined} title={title} rel={external ? "noopener noreferrer nofollow" : undefined}>
        {children}
      </a>
    );
  },
};

/**
 * Markdown written by admins (blog posts, positions, campaigns), rendered to safe HTML. Raw HTML in the
 * source is never interpreted: `skipHtml` leaves it out; rehype-sanitize with
 * GitHub's schema is a second line against anything a plugin might produce (event handlers, `style`,
 * `<svg>`, `<iframe>`, unsafe protocols). Works in server components, client previews and e-mails.
 */
export function Markdown({ source, className }: { source: string; className?: string }) {
  return (
    <div className={className}>
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[[rehypeSanitize, defaultSchema]]}
        urlTransform={urlTransform}
        components={components}
        skipHtml
      >
        {source}
      </ReactMarkdown>
    </div>
  );
}
