import type { Metadata } from "next";
import Link from "next/link";
import { Breadcrumb } from "@/components/site/breadcrumb";
import { notFound } from "next/navigation";
import { cache } from "react";
import { Markdown } from "@/components/content/markdown";
import "@/components/content/markdown-prose.css";
import { DateTime } from "@/components/dashboard/date-time";
import { env } from "@/lib/env";
import { optionalUserContext } from "@/lib/http/page-context";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { getPublishedPostPage, SLUG_PATTERN } from "@/lib/services/content";
import { NotFoundError } from "@/lib/services/errors";
import { productImagePath } from "@/lib/shop/image-path";

type Props = { params: Promise<{ slug: string }> };

/** The published post, or the 404 page for a draft, an unknown slug or one that is not slug syntax. */
const loadPost = cache(async (slug: string) => {
  if (slug.length > 100 || !SLUG_PATTERN.test(slug)) notFound();
  try {
    return await getPublishedPostPage(await optionalUserContext(), slug);
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
});

const canonicalUrl = (slug: string) => `${env.APP_URL.replace(/\/+$/, "")}/blog/${slug}`;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const post = await loadPost((await params).slug);
  const url = canonicalUrl(post.slug);
  return {
    title: post.title,
    description: post.excerpt,
    authors: [{ name: post.author }],
    alternates: { canonical: url, types: { "application/rss+xml": [{ url: "/blog/rss.xml", title: "Blog RSS feed" }] } },
    openGraph: {
      type: "article",
      title: post.title,
      description: post.excerpt,
      url,
      publishedTime: post.publishedAt,
      authors: [post.author],
      tags: post.tags,
      images: post.coverImage ? [{ url: post.coverImage, alt: post.title }] : undefined,
    },
  };
}

/** One post, its Markdown rendered by the one sanitising renderer. */
export default async function BlogPostPage({ params }: Props) {
  const [post, timeZone] = await Promise.all([params.then(({ slug }) => loadPost(slug)), viewerTimeZone()]);
  const cover = post.coverImage ? productImagePath(post.coverImage, env.APP_URL) : null;

  return (
    <article className="container-page max-w-3xl py-6 sm:py-10">
      <Breadcrumb parent={{ href: "/blog", label: "Blog" }} current={post.title} />
      <header className="mt-5">
        <h1 className="text-3xl font-bold tracking-tight break-words text-ink sm:text-4xl">{post.title}</h1>
        <p className="mt-3 text-muted">
          <DateTime iso={post.publishedAt} timeZone={timeZone} dateOnly long /> · by {post.author}
        </p>
        {post.tags.length ? (
          <ul aria-label="Tags" className="mt-3 flex flex-wrap gap-2">
            {post.tags.map((tag) => (
              <li key={tag} className="rounded-full border border-brand-200 bg-brand-50 px-3 py-0.5 text-sm text-brand-800">
                {tag}
              </li>
            ))}
          </ul>
        ) : null}
      </header>
      {cover ? (
        // eslint-disable-next-line @next/next/no-img-element -- the post's own cover: our SVGs or an admin's https picture
        <img src={cover} alt="" width={1200} height={600} className="mt-6 aspect-[2/1] w-full rounded-xl border border-line bg-canvas object-cover" />
      ) : null}
      <Markdown source={post.content} className="markdown-prose mt-8" />
      <p className="mt-10 border-t border-line pt-6">
        <Link href="/blog" className="font-semibold text-brand-700 underline hover:text-brand-800">
          ← All posts
        </Link>
      </p>
    </article>
  );
}
