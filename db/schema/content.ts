import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { timestamps, users } from "./users";

const ts = () => timestamp({ withTimezone: true, precision: 3 });

/**
 * A blog post. `content` is Markdown as the author wrote it; it is rendered to sanitised HTML when read,
 * never stored as HTML. A draft (`published` false) is visible to admins only. `publishedAt` is set the
 * first time the post is published and kept when it is unpublished and published again.
 */
export const blogPosts = pgTable(
  "blog_posts",
  {
    id: uuid().primaryKey().defaultRandom(),
    title: text().notNull(),
    /** Lower-case, URL-safe; unique across drafts and published posts. */
    slug: text().notNull(),
    excerpt: text().notNull(),
    content: text().notNull(),
    coverImage: text(),
    tags: text().array().notNull().default(sql`'{}'::text[]`),
    /** The admin who wrote it; the byline is `author` so it survives the account. */
    authorId: uuid().references(() => users.id, { onDelete: "set null" }),
    author: text().notNull(),
    published: boolean().notNull().default(false),
    publishedAt: ts(),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("blog_posts_slug_key").on(table.slug),
    index("blog_posts_published_idx").on(table.published, table.publishedAt),
  ],
);

export const positionType = pgEnum("position_type", ["FULL_TIME", "PART_TIME", "CONTRACT", "INTERNSHIP"]);

/** A job opening. Only `open` positions are public; `publishedAt` is when it was first opened. */
export const careerPositions = pgTable(
  "career_positions",
  {
    id: uuid().primaryKey().defaultRandom(),
    title: text().notNull(),
    department: text().notNull(),
    location: text().notNull(),
    type: positionType().notNull().default("FULL_TIME"),
    /** Markdown, rendered like blog content. */
    description: text().notNull(),
    requirements: text().array().notNull().default(sql`'{}'::text[]`),
    benefits: text().array().notNull().default(sql`'{}'::text[]`),
    applyUrl: text().notNull(),
    open: boolean().notNull().default(true),
    publishedAt: ts(),
    ...timestamps,
  },
  (table) => [index("career_positions_open_idx").on(table.open, table.publishedAt)],
);

/** A message sent through the contact form (acknowledged to the sender, forwarded to support). */
export const contactMessages = pgTable(
  "contact_messages",
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    email: text().notNull(),
    subject: text().notNull(),
    message: text().notNull(),
    /** Keyed hash of the sender's IP, as for scans: never the address in clear. */
    ipHash: text(),
    handledAt: ts(),
    createdAt: ts().notNull().defaultNow(),
  },
  (table) => [index("contact_messages_created_idx").on(table.createdAt)],
);

export const subscriberStatus = pgEnum("newsletter_subscriber_status", ["PENDING", "CONFIRMED", "UNSUBSCRIBED"]);

/**
 * A newsletter address. PENDING until the e-mailed confirmation link is followed (double opt-in);
 * only CONFIRMED addresses receive campaigns. The confirmation token is stored hashed and single-use.
 * Unsubscribe links carry a keyed hash of the subscriber id, so nothing else needs storing for them.
 */
export const newsletterSubscribers = pgTable(
  "newsletter_subscribers",
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Stored lower-cased; unique. */
    email: text().notNull(),
    status: subscriberStatus().notNull().default("PENDING"),
    confirmTokenHash: text(),
    confirmTokenExpiresAt: ts(),
    confirmedAt: ts(),
    unsubscribedAt: ts(),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("newsletter_subscribers_email_key").on(sql`lower(${table.email})`),
    uniqueIndex("newsletter_subscribers_confirm_token_key").on(table.confirmTokenHash),
    index("newsletter_subscribers_status_idx").on(table.status, table.id),
  ],
);

export const campaignStatus = pgEnum("campaign_status", ["SENDING", "SENT", "FAILED"]);

/**
 * A newsletter mailing. The recipients are fixed when it is created (one `campaign_deliveries` row per
 * confirmed subscriber); jobs then send them in batches, so progress is `sentCount / recipientCount`
 * and a crash resumes where it stopped.
 */
export const campaigns = pgTable(
  "campaigns",
  {
    id: uuid().primaryKey().defaultRandom(),
    subject: text().notNull(),
    /** Markdown. */
    content: text().notNull(),
    status: campaignStatus().notNull().default("SENDING"),
    createdById: uuid().references(() => users.id, { onDelete: "set null" }),
    recipientCount: integer().notNull().default(0),
    sentCount: integer().notNull().default(0),
    startedAt: ts(),
    completedAt: ts(),
    ...timestamps,
  },
  (table) => [index("campaigns_created_idx").on(table.createdAt)],
);

export const deliveryStatus = pgEnum("campaign_delivery_status", ["PENDING", "SENT", "SKIPPED"]);

/**
 * One row per campaign and recipient; the primary key is what makes "never twice to one address" hold.
 * SENT is set in the same transaction that enqueues the e-mail, so a delivery is either queued once or
 * still PENDING. SKIPPED: the address unsubscribed between the campaign's creation and its batch.
 */
export const campaignDeliveries = pgTable(
  "campaign_deliveries",
  {
    campaignId: uuid()
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    subscriberId: uuid()
      .notNull()
      .references(() => newsletterSubscribers.id, { onDelete: "cascade" }),
    email: text().notNull(),
    status: deliveryStatus().notNull().default("PENDING"),
    sentAt: ts(),
  },
  (table) => [
    primaryKey({ columns: [table.campaignId, table.subscriberId] }),
    index("campaign_deliveries_pending_idx").on(table.campaignId, table.status),
  ],
);

/**
 * Every admin write: who did it, what, to which record, when, and the record before and after (secrets
 * left out). Append-only; SUPER_ADMINs read it.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid().primaryKey().defaultRandom(),
    actorId: uuid().references(() => users.id, { onDelete: "set null" }),
    /** Kept in the row so the entry still says who acted after the account is deleted. */
    actorEmail: text(),
    /** `<entity>.<verb>`, e.g. `user.update`, `blog_post.create`, `order.refund`. */
    action: text().notNull(),
    entityType: text().notNull(),
    entityId: text(),
    before: jsonb(),
    after: jsonb(),
    createdAt: ts().notNull().defaultNow(),
  },
  (table) => [
    index("audit_log_created_id_idx").on(table.createdAt, table.id),
    index("audit_log_entity_idx").on(table.entityType, table.entityId, table.createdAt),
    index("audit_log_actor_created_id_idx").on(table.actorId, table.createdAt, table.id),
    // The admin log filtered by action, in its order (newest first, id last).
    index("audit_log_action_created_id_idx").on(table.action, table.createdAt, table.id),
  ],
);

export type BlogPost = typeof blogPosts.$inferSelect;
export type CareerPosition = typeof careerPositions.$inferSelect;
export type NewsletterSubscriber = typeof newsletterSubscribers.$inferSelect;
export type Campaign = typeof campaigns.$inferSelect;
export type AuditEntry = typeof auditLog.$inferSelect;
