/**
 * The content domain as routes, server actions and pages use it: the blog (published posts for everyone,
 * drafts for admins) and the careers listings (open positions for everyone, closed ones for admins).
 */
export { createPost, deletePost, getPostForAdmin, getPublishedPost, getPublishedPostPage, latestPublishedPosts, listAllPosts, listPublishedPosts, postSlug, TEAM_AUTHOR, updatePost } from "./blog";
export { createPosition, deletePosition, getOpenPosition, getPositionForAdmin, listAllPositions, listOpenPositions, updatePosition } from "./careers";
export * from "./schemas";
export { seedContent } from "./seed";
