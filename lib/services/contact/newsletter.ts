import { createElement } from "react";
import { eq, sql } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { NoticeEmail } from "@/emails/notice";
import { hashToken, keyedHash, randomToken, safeEqual } from "@/lib/auth/tokens";
import { queueEmail } from "@/lib/email/queue";
import { appOrigin } from "@/lib/env";
import { withTransaction, type ServiceContext } from "@/lib/services/context";
import { ValidationError } from "@/lib/services/errors";
import type { MessageResult, NewsletterInput } from "./schemas";

/** How long a confirmation link works. */
export const CONFIRM_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** At most one confirmation e-mail per address in this time, however often it is entered. */
export const CONFIRM_RESEND_INTERVAL_MS = 10 * 60 * 1000;

/**
 * The one answer to a sign-up, whatever the address's state (new, pending, confirmed, unsubscribed), so the
 * form cannot be used to learn who subscribes.
 */
export const NEWSLETTER_REQUESTED = "Thanks! Check your inbox: if this address is not subscribed yet, we sent it a link to confirm.";
export const NEWSLETTER_CONFIRMED = "Your subscription is confirmed. Thanks for joining our newsletter.";
export const NEWSLETTER_UNSUBSCRIBED = "You are unsubscribed. You will get no more newsletters from us.";

const INVALID_CONFIRM_LINK = "This confirmation link is invalid, used or expired. Sign up again to get a new one.";
const INVALID_UNSUBSCRIBE_LINK = "This unsubscribe link is invalid.";

const UNSUBSCRIBE_PURPOSE = "newsletter-unsubscribe";

/** The unsubscribe token of a subscriber: its id and a keyed hash of it, so nothing needs storing. */
export function unsubscribeToken(subscriberId: string): string {
  return `${subscriberId}.${keyedHash(UNSUBSCRIBE_PURPOSE, subscriberId)}`;
}

/** The subscriber id an unsubscribe token names, or null when the token is not one we made. */
export function subscriberIdFromToken(token: string): string | null {
  const match = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([0-9a-f]{64})$/.exec(token.trim().toLowerCase());
  if (!match) return null;
  const [, id, mac] = match;
  return safeEqual(mac!, keyedHash(UNSUBSCRIBE_PURPOSE, id!)) ? id! : null;
}

/** The page a recipient opens (a confirm button: link scanners follow GETs, so a GET never unsubscribes). */
export function unsubscribePageUrl(subscriberId: string): string {
  const url = new URL("/newsletter/unsubscribe", appOrigin());
  url.searchParams.set("token", unsubscribeToken(subscriberId));
  return url.toString();
}

/** RFC 2369 / RFC 8058 headers: the one-click POST endpoint, which needs no cookie or session. */
export function unsubscribeHeaders(subscriberId: string): Record<string, string> {
  const url = new URL("/api/v1/contact/newsletter/unsubscribe", appOrigin());
  url.searchParams.set("token", unsubscribeToken(subscriberId));
  return { "List-Unsubscribe": `<${url.toString()}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}

async function subscriberByEmail(db: Executor, email: string) {
  const [row] = await db
    .select()
    .from(schema.newsletterSubscribers)
    .where(eq(sql`lower(${schema.newsletterSubscribers.email})`, email.toLowerCase()))
    .for("update");
  return row;
}

/**
 * POST /contact/newsletter: double opt-in. A new, pending or unsubscribed address gets a confirmation e-mail
 * with a single-use token (stored hashed, 7 days), at most one per CONFIRM_RESEND_INTERVAL_MS; a confirmed
 * address gets nothing. The answer is the same in every case.
 */
export async function subscribeToNewsletter(ctx: ServiceContext, input: NewsletterInput): Promise<MessageResult> {
  const email = input.email.trim().toLowerCase();
  await withTransaction(ctx, async (tx) => {
    // Insert-or-lock: two sign-ups for one new address at once meet on the unique index, the second waits.
    await tx.db.insert(schema.newsletterSubscribers).values({ email, status: "PENDING" }).onConflictDoNothing();
    const subscriber = await subscriberByEmail(tx.db, email);
    if (!subscriber || subscriber.status === "CONFIRMED") return;
    const now = Date.now();
    const issuedAt = subscriber.confirmTokenExpiresAt ? subscriber.confirmTokenExpiresAt.getTime() - CONFIRM_TOKEN_TTL_MS : null;
    if (subscriber.status === "PENDING" && issuedAt !== null && now - issuedAt < CONFIRM_RESEND_INTERVAL_MS) return;
    const token = randomToken();
    await tx.db
      .update(schema.newsletterSubscribers)
      .set({ status: "PENDING", confirmTokenHash: hashToken(token), confirmTokenExpiresAt: new Date(now + CONFIRM_TOKEN_TTL_MS) })
      .where(eq(schema.newsletterSubscribers.id, subscriber.id));
    await queueEmail(tx, {
      to: email,
      subject: "Confirm your newsletter subscription",
      templateName: "newsletter.confirm",
      template: createElement(NoticeEmail, {
        heading: "Confirm your subscription",
        paragraphs: ["Someone, probably you, asked to receive our newsletter at this address.", "Confirm with the button below; the link works for 7 days. If it wasn't you, ignore this e-mail and you will get nothing more."],
        action: { label: "Confirm my subscription", path: "/newsletter/confirm", token },
        reason: "You receive this because this address was entered in our newsletter form.",
      }),
    });
  });
  return { message: NEWSLETTER_REQUESTED };
}

/** GET /contact/newsletter/confirm and the confirm page: PENDING → CONFIRMED. Unknown, used or expired: 400. */
export async function confirmNewsletterSubscription(ctx: ServiceContext, token: string): Promise<MessageResult> {
  return withTransaction(ctx, async (tx) => {
    const [subscriber] = await tx.db
      .select()
      .from(schema.newsletterSubscribers)
      .where(eq(schema.newsletterSubscribers.confirmTokenHash, hashToken(token.trim())))
      .for("update");
    if (!subscriber || !subscriber.confirmTokenExpiresAt || subscriber.confirmTokenExpiresAt.getTime() <= Date.now()) {
      throw new ValidationError([{ field: "token", message: INVALID_CONFIRM_LINK }], INVALID_CONFIRM_LINK);
    }
    await tx.db
      .update(schema.newsletterSubscribers)
      .set({ status: "CONFIRMED", confirmedAt: new Date(), unsubscribedAt: null, confirmTokenHash: null, confirmTokenExpiresAt: null })
      .where(eq(schema.newsletterSubscribers.id, subscriber.id));
    return { message: NEWSLETTER_CONFIRMED };
  });
}

/** Whether an unsubscribe token is one we made (the page checks before showing its button). */
export function isValidUnsubscribeToken(token: string): boolean {
  return subscriberIdFromToken(token) !== null;
}

/**
 * POST /contact/newsletter/unsubscribe (RFC 8058 one-click) and the unsubscribe page's button. Idempotent:
 * an address already unsubscribed, or removed since, stays so. A token we did not make: 400.
 */
export async function unsubscribeFromNewsletter(ctx: ServiceContext, token: string): Promise<MessageResult> {
  const subscriberId = subscriberIdFromToken(token);
  if (!subscriberId) throw new ValidationError([{ field: "token", message: INVALID_UNSUBSCRIBE_LINK }], INVALID_UNSUBSCRIBE_LINK);
  await withTransaction(ctx, async (tx) => {
    await tx.db
      .update(schema.newsletterSubscribers)
      .set({ status: "UNSUBSCRIBED", unsubscribedAt: new Date(), confirmTokenHash: null, confirmTokenExpiresAt: null })
      .where(sql`${schema.newsletterSubscribers.id} = ${subscriberId} and ${schema.newsletterSubscribers.status} <> 'UNSUBSCRIBED'`);
  });
  return { message: NEWSLETTER_UNSUBSCRIBED };
}
