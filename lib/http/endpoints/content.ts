import { z } from "zod";
import { messageSchema } from "@/lib/services/auth";
import { adminBlogPostSchema, adminPositionSchema, BLOG_CONTENT_MAX, blogPostListItemSchema, blogPostSchema, createPositionInput, createPostInput, EXCERPT_MAX, POSITION_DESCRIPTION_MAX, POSITION_ITEM_MAX, POSITION_LIST_MAX, positionListItemSchema, positionSchema, POST_TAG_LENGTH_MAX, POST_TAGS_MAX, postIdParams, postSlugParams, TITLE_MAX, updatePositionInput, updatePostInput } from "@/lib/services/content";
import { defineEndpoint } from "../endpoint";
import { cursorPaginationQuery } from "../pagination";
import { idParams } from "../params";

const blog = ["Blog"];
const careers = ["Careers"];

const POST_LIMITS = `title ≤ ${TITLE_MAX}, excerpt ≤ ${EXCERPT_MAX}, content (Markdown) ≤ ${BLOG_CONTENT_MAX} characters; at most ${POST_TAGS_MAX} tags of ≤ ${POST_TAG_LENGTH_MAX} characters (duplicates dropped); coverImage an https URL or a path on this site starting with / (anything else, http: or data: included, is 400)`;
const POSITION_LIMITS = `title, department and location ≤ ${TITLE_MAX}, description (Markdown) ≤ ${POSITION_DESCRIPTION_MAX} characters; requirements and benefits at most ${POSITION_LIST_MAX} items of ≤ ${POSITION_ITEM_MAX} characters; type FULL_TIME, PART_TIME, CONTRACT or INTERNSHIP; applyUrl an https URL or mailto: address (anything else is 400)`;

/**
 * The blog. `GET /blog/{slugOrId}` takes a post's slug and `PATCH`/`DELETE /blog/{slugOrId}` its id: one
 * path segment, as one Next route folder can only have one dynamic segment name at a level.
 */
export const blogEndpoints = {
  list: defineEndpoint({
    operationId: "listBlogPosts",
    method: "GET",
    path: "/api/v1/blog",
    summary: "Published blog posts",
    description: "Published posts only, newest first (by publishedAt), paginated. Each carries the excerpt; the Markdown content is on the post itself.",
    tags: blog,
    auth: "public",
    query: cursorPaginationQuery,
    response: blogPostListItemSchema,
    responseKind: "paginated",
  }),
  get: defineEndpoint({
    operationId: "getBlogPost",
    method: "GET",
    path: "/api/v1/blog/{slugOrId}",
    summary: "A published blog post by its slug",
    description:
      "The post with its Markdown content and tags. A draft, an unknown slug or anything that is not slug syntax is 404. The content is Markdown as written: render it with raw HTML turned off and a sanitiser (the site's own pages do).",
    tags: blog,
    auth: "public",
    params: postSlugParams,
    response: blogPostSchema,
  }),
  adminList: defineEndpoint({
    operationId: "listAllBlogPosts",
    method: "GET",
    path: "/api/v1/blog/admin/all",
    summary: "Every blog post, drafts too (admin)",
    description: "Paginated, most recently changed first, with each post's published state, publishedAt (kept when unpublished), excerpt and content.",
    tags: blog,
    auth: "admin",
    query: cursorPaginationQuery,
    response: adminBlogPostSchema,
    responseKind: "paginated",
  }),
  create: defineEndpoint({
    operationId: "createBlogPost",
    method: "POST",
    path: "/api/v1/blog",
    summary: "Write a blog post (admin)",
    description: `A draft unless published is true (publishedAt is then set). The byline is the admin's name. slug is derived from the title when absent (lower-case, accents folded, hyphenated); a given slug must be lower-case letters, digits and single hyphens (400 otherwise). A slug already used by any post, draft or published, given or derived, is 409. Limits: ${POST_LIMITS}. Recorded in the audit log (blog_post.create).`,
    tags: blog,
    auth: "admin",
    successStatus: 201,
    body: createPostInput,
    response: adminBlogPostSchema,
    errors: ["CONFLICT"],
  }),
  update: defineEndpoint({
    operationId: "updateBlogPost",
    method: "PATCH",
    path: "/api/v1/blog/{slugOrId}",
    summary: "Edit a blog post by its id (admin)",
    description: `The fields given; coverImage null removes the picture. published true publishes (publishedAt set the first time), false takes it down (publishedAt kept). A taken slug is 409; an unknown or malformed id is 404. Limits as for POST /blog. Recorded in the audit log with the post before and after (blog_post.update).`,
    tags: blog,
    auth: "admin",
    params: postIdParams,
    body: updatePostInput,
    response: adminBlogPostSchema,
    errors: ["CONFLICT"],
  }),
  remove: defineEndpoint({
    operationId: "deleteBlogPost",
    method: "DELETE",
    path: "/api/v1/blog/{slugOrId}",
    summary: "Delete a blog post by its id (admin)",
    description: "Deletes the post for good; its slug is free again. An unknown or malformed id is 404. Recorded in the audit log (blog_post.delete).",
    tags: blog,
    auth: "admin",
    params: postIdParams,
    response: messageSchema,
  }),
};

/** The careers listings. */
export const careerEndpoints = {
  list: defineEndpoint({
    operationId: "listPositions",
    method: "GET",
    path: "/api/v1/careers",
    summary: "Open positions",
    description: "Every open position, by department then title. Not paginated. Closed positions are not listed.",
    tags: careers,
    auth: "public",
    response: z.array(positionListItemSchema),
  }),
  get: defineEndpoint({
    operationId: "getPosition",
    method: "GET",
    path: "/api/v1/careers/{id}",
    summary: "An open position",
    description: "The position with its requirements, benefits and where to apply. A closed, unknown or malformed id is 404.",
    tags: careers,
    auth: "public",
    params: idParams,
    response: positionSchema,
  }),
  adminList: defineEndpoint({
    operationId: "listAllPositions",
    method: "GET",
    path: "/api/v1/careers/admin/all",
    summary: "Every position, closed ones too (admin)",
    description: "Paginated, most recently changed first, with each position's open state.",
    tags: careers,
    auth: "admin",
    query: cursorPaginationQuery,
    response: adminPositionSchema,
    responseKind: "paginated",
  }),
  create: defineEndpoint({
    operationId: "createPosition",
    method: "POST",
    path: "/api/v1/careers",
    summary: "Open a position (admin)",
    description: `Open (and public) unless open is false; publishedAt is set when it is first opened. requirements and benefits default to []. Limits: ${POSITION_LIMITS}. Recorded in the audit log (career_position.create).`,
    tags: careers,
    auth: "admin",
    successStatus: 201,
    body: createPositionInput,
    response: adminPositionSchema,
  }),
  update: defineEndpoint({
    operationId: "updatePosition",
    method: "PATCH",
    path: "/api/v1/careers/{id}",
    summary: "Edit a position (admin)",
    description: `The fields given; open false closes it (hidden from the public), true opens it (publishedAt set the first time). Limits as for POST /careers. An unknown or malformed id is 404. Recorded in the audit log (career_position.update).`,
    tags: careers,
    auth: "admin",
    params: idParams,
    body: updatePositionInput,
    response: adminPositionSchema,
  }),
  remove: defineEndpoint({
    operationId: "deletePosition",
    method: "DELETE",
    path: "/api/v1/careers/{id}",
    summary: "Delete a position (admin)",
    description: "Deletes the position for good (to hide it but keep it, close it with PATCH open false). An unknown or malformed id is 404. Recorded in the audit log (career_position.delete).",
    tags: careers,
    auth: "admin",
    params: idParams,
    response: messageSchema,
  }),
};
