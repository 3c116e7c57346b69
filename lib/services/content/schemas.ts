import { z } from "zod";
import { positionType } from "@/db/schema";
import { isAllowedImageSource } from "@/components/content/markdown";

/**
 * Request and response schemas of the blog and the careers listings, written once for the API's
 * contracts, the admin editors' forms and the OpenAPI document.
 */

export const TITLE_MAX = 100;
export const EXCERPT_MAX = 500;
export const BLOG_CONTENT_MAX = 100_000;
export const POSITION_DESCRIPTION_MAX = 2000;
export const POST_TAGS_MAX = 10;
export const POST_TAG_LENGTH_MAX = 30;
export const POSITION_LIST_MAX = 20;
export const POSITION_ITEM_MAX = 500;
export const URL_MAX = 500;

export const POSITION_TYPES = positionType.enumValues;
export type PositionType = (typeof POSITION_TYPES)[number];

const required = (issue: { input: unknown }) => (issue.input === undefined ? "Required." : "Must be a string.");

const text = (max: number, example: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, "Must not be empty.")
    .max(max, `At most ${max} characters.`)
    .meta({ example });

/** Lower-case letters, digits and single hyphens: `what-to-write-on-your-pets-tag-page`. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const slug = () =>
  z
    .string({ error: "Must be a string." })
    .trim()
    .min(1, "Must not be empty.")
    .max(TITLE_MAX, `At most ${TITLE_MAX} characters.`)
    .regex(SLUG_PATTERN, "Lower-case letters, digits and single hyphens.")
    .meta({ description: "The post's address (`/blog/<slug>`): lower-case letters, digits and single hyphens; unique (409)", example: "lost-mode-explained" });

/** A cover picture: an https URL, or a path on our own origin (`/blog/lost-mode.svg`). Anything else is 400. */
const coverImage = () =>
  z
    .string({ error: "Must be a string." })
    .trim()
    .max(URL_MAX, `At most ${URL_MAX} characters.`)
    .refine((value) => !/\s/.test(value) && isAllowedImageSource(value), "An https URL or a path on this site starting with /.")
    .meta({ description: "An https URL or a path on this site (`/blog/lost-mode.svg`); answered as an absolute URL", example: "/blog/lost-mode.svg" });

const postTags = () =>
  z
    .array(z.string({ error: "Must be a string." }).trim().min(1, "Must not be empty.").max(POST_TAG_LENGTH_MAX, `At most ${POST_TAG_LENGTH_MAX} characters.`), { error: "Must be a list of strings." })
    .max(POST_TAGS_MAX, `At most ${POST_TAGS_MAX} tags.`)
    .transform((tags) => [...new Set(tags)])
    .meta({ description: `Up to ${POST_TAGS_MAX} tags of at most ${POST_TAG_LENGTH_MAX} characters; duplicates are dropped`, example: ["lost mode", "privacy"] });

/** An address to apply at: https, or mailto: with an e-mail address. */
export function isAllowedApplyUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  try {
    const url = new URL(value);
    if (url.protocol === "https:") return Boolean(url.hostname) && !url.username && !url.password;
    if (url.protocol === "mailto:") return /^[^@/?#]+@[^@/?#]+\.[^@/?#]+$/.test(decodeURIComponent(url.pathname));
    return false;
  } catch {
    return false;
  }
}

const applyUrl = () =>
  z
    .string({ error: required })
    .trim()
    .min(1, "Must not be empty.")
    .max(URL_MAX, `At most ${URL_MAX} characters.`)
    .refine(isAllowedApplyUrl, "An https URL or a mailto: address.")
    .meta({ description: "Where to apply: an https URL or `mailto:` with an e-mail address", example: "mailto:jobs@tagservice.example" });

const positionList = (example: string[]) =>
  z
    .array(text(POSITION_ITEM_MAX, example[0] ?? ""), { error: "Must be a list of strings." })
    .max(POSITION_LIST_MAX, `At most ${POSITION_LIST_MAX} items.`)
    .meta({ example });

const positionTypeSchema = z.enum(POSITION_TYPES, `One of ${POSITION_TYPES.join(", ")}.`);

// ---- blog requests ----

/** POST /blog. */
export const createPostInput = z.object({
  title: text(TITLE_MAX, "Lost mode, explained"),
  slug: slug().optional().meta({ description: "Derived from the title when absent (lower-case, accents folded, hyphenated); unique (409)" }),
  excerpt: text(EXCERPT_MAX, "What happens when you mark a tag as lost, and what the finder sees."),
  content: text(BLOG_CONTENT_MAX, "## What changes\n\nThe finder sees your message…").meta({ description: `Markdown, at most ${BLOG_CONTENT_MAX} characters; raw HTML in it is left out when rendered` }),
  coverImage: coverImage().nullish(),
  tags: postTags().default([]),
  published: z.boolean({ error: "Must be true or false." }).default(false).meta({ description: "Publishing sets publishedAt the first time" }),
});
export type CreatePostInput = z.output<typeof createPostInput>;

/** PATCH /blog/:id: the fields given; coverImage null removes the picture. */
export const updatePostInput = z.object({
  title: text(TITLE_MAX, "Lost mode, explained").optional(),
  slug: slug().optional(),
  excerpt: text(EXCERPT_MAX, "What happens when you mark a tag as lost.").optional(),
  content: text(BLOG_CONTENT_MAX, "## What changes").optional(),
  coverImage: coverImage().nullish(),
  tags: postTags().optional(),
  published: z.boolean({ error: "Must be true or false." }).optional().meta({ description: "false hides the post (publishedAt is kept); true publishes it (publishedAt set the first time)" }),
});
export type UpdatePostInput = z.output<typeof updatePostInput>;

// ---- careers requests ----

/** POST /careers. */
export const createPositionInput = z.object({
  title: text(TITLE_MAX, "Senior Full-stack Engineer"),
  department: text(TITLE_MAX, "Engineering"),
  location: text(TITLE_MAX, "Remote (Europe)"),
  type: positionTypeSchema.meta({ example: "FULL_TIME" }),
  description: text(POSITION_DESCRIPTION_MAX, "You will build the pages finders see…").meta({ description: `Markdown, at most ${POSITION_DESCRIPTION_MAX} characters` }),
  requirements: positionList(["5+ years of TypeScript"]).default([]),
  benefits: positionList(["Four-day week"]).default([]),
  applyUrl: applyUrl(),
  open: z.boolean({ error: "Must be true or false." }).default(true).meta({ description: "Only open positions are public; opening sets publishedAt the first time" }),
});
export type CreatePositionInput = z.output<typeof createPositionInput>;

/** PATCH /careers/:id: the fields given. */
export const updatePositionInput = z.object({
  title: text(TITLE_MAX, "Senior Full-stack Engineer").optional(),
  department: text(TITLE_MAX, "Engineering").optional(),
  location: text(TITLE_MAX, "Remote (Europe)").optional(),
  type: positionTypeSchema.optional(),
  description: text(POSITION_DESCRIPTION_MAX, "You will build the pages finders see…").optional(),
  requirements: positionList(["5+ years of TypeScript"]).optional(),
  benefits: positionList(["Four-day week"]).optional(),
  applyUrl: applyUrl().optional(),
  open: z.boolean({ error: "Must be true or false." }).optional(),
});
export type UpdatePositionInput = z.output<typeof updatePositionInput>;

// ---- params ----

/** GET /blog/{slugOrId}: the slug. Anything that is not slug syntax names no post (404). */
export const postSlugParams = z.object({
  slugOrId: z.string().max(TITLE_MAX).regex(SLUG_PATTERN).meta({ description: "The post's slug", example: "lost-mode-explained" }),
});

/** PATCH and DELETE /blog/{slugOrId}: the post's id. A malformed id is 404. */
export const postIdParams = z.object({
  slugOrId: z.uuid().meta({ description: "The post's id (UUID)", example: "5b8c8f0e-2f55-4a0d-9d3b-2f4f9a3e6c11" }),
});

// ---- responses ----

const iso = () => z.iso.datetime();

export const blogPostListItemSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    slug: z.string(),
    excerpt: z.string(),
    author: z.string().meta({ example: "Tag Service team" }),
    publishedAt: iso(),
    coverImage: z.string().nullable().meta({ description: "Absolute URL, or null", example: "http://localhost:3000/blog/lost-mode.svg" }),
  })
  .meta({ id: "BlogPostListItem" });
export type BlogPostListItem = z.infer<typeof blogPostListItemSchema>;

export const blogPostSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    slug: z.string(),
    author: z.string(),
    publishedAt: iso(),
    coverImage: z.string().nullable(),
    content: z.string().meta({ description: "Markdown, as written. Render it with a sanitising Markdown renderer (raw HTML off)." }),
    tags: z.array(z.string()),
  })
  .meta({ id: "BlogPost" });
export type BlogPost = z.infer<typeof blogPostSchema>;

/** A post as admins see it: drafts too, with its state. */
export const adminBlogPostSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    slug: z.string(),
    excerpt: z.string(),
    content: z.string(),
    coverImage: z.string().nullable(),
    tags: z.array(z.string()),
    author: z.string(),
    authorId: z.uuid().nullable(),
    published: z.boolean(),
    publishedAt: iso().nullable().meta({ description: "When it was first published; kept when it is unpublished" }),
    createdAt: iso(),
    updatedAt: iso(),
  })
  .meta({ id: "AdminBlogPost" });
export type AdminBlogPost = z.infer<typeof adminBlogPostSchema>;

export const positionListItemSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    department: z.string(),
    location: z.string(),
    type: positionTypeSchema,
    description: z.string().meta({ description: "Markdown" }),
    publishedAt: iso(),
  })
  .meta({ id: "CareerPositionListItem" });
export type PositionListItem = z.infer<typeof positionListItemSchema>;

export const positionSchema = positionListItemSchema
  .extend({
    requirements: z.array(z.string()),
    benefits: z.array(z.string()),
    applyUrl: z.string(),
  })
  .meta({ id: "CareerPosition" });
export type Position = z.infer<typeof positionSchema>;

export const adminPositionSchema = positionSchema
  .extend({
    open: z.boolean(),
    publishedAt: iso().nullable().meta({ description: "When it was first opened" }),
    createdAt: iso(),
    updatedAt: iso(),
  })
  .meta({ id: "AdminCareerPosition" });
export type AdminPosition = z.infer<typeof adminPositionSchema>;
