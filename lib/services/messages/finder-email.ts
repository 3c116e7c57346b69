import { createElement } from "react";
import { and, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { schema } from "@/db/client";
import type { Thread } from "@/db/schema";
import { FinderThreadEmail, finderThreadEmailSubject, type FinderThreadEmailKind } from "@/emails/finder-thread";
import { queueEmail } from "@/lib/email/queue";
import type { ServiceContext } from "@/lib/services/context";
import { isMessageLocale, type ScamSignal } from "./scam-rules";

/** At most one e-mail to a finder per thread in this long (the address is typed by the finder and never confirmed). */
export const FINDER_EMAIL_INTERVAL_MS = 10 * 60 * 1000;

/**
 * The key an address counts under for the per-address cap: trimmed and lower-cased, and without a
 * `+tag` in its local part, which most providers deliver to the same inbox (so `ada+1@…`, `ada+2@…`
 * are one inbox, one budget).
 */
export function finderAddressKey(address: string): string {
  const normalised = address.trim().toLowerCase();
  const at = normalised.lastIndexOf("@");
  if (at <= 0) return normalised;
  const local = normalised.slice(0, at).replace(/\+.*$/, "");
  return `${local || normalised.slice(0, at)}${normalised.slice(at)}`;
}

/**
 * Takes the thread's finder-e-mail slot: sets finderNotifiedAt to `now` only when no finder e-mail went
 * out in the last 10 minutes, in one conditional UPDATE, so of ten concurrent replies exactly one wins
 * (the others see the winner's row version and match nothing). `link` also takes the conversation's one
 * "e-mail me this link" e-mail (linkEmailedAt, set once and never cleared), in the same UPDATE.
 * updatedAt is kept: this is bookkeeping, not a change the owner sees.
 */
export async function claimFinderEmail(ctx: ServiceContext, threadId: string, now: Date, options: { link?: boolean } = {}): Promise<boolean> {
  const claimed = await ctx.db
    .update(schema.threads)
    .set({ finderNotifiedAt: now, ...(options.link ? { linkEmailedAt: now } : {}), updatedAt: sql`${schema.threads.updatedAt}` })
    .where(
      and(
        eq(schema.threads.id, threadId),
        isNotNull(schema.threads.finderEmail),
        or(isNull(schema.threads.finderNotifiedAt), lt(schema.threads.finderNotifiedAt, new Date(now.getTime() - FINDER_EMAIL_INTERVAL_MS))),
        options.link ? isNull(schema.threads.linkEmailedAt) : undefined,
      ),
    )
    .returning({ id: schema.threads.id });
  return claimed.length === 1;
}

/** Queues the e-mail to the finder (in their language) in the caller's transaction; the slot must be claimed. */
export async function queueFinderEmail(
  ctx: ServiceContext,
  thread: Pick<Thread, "finderEmail" | "finderLocale">,
  token: string,
  kind: FinderThreadEmailKind,
  warnings: ScamSignal[] = [],
): Promise<void> {
  if (!thread.finderEmail) return;
  const locale = isMessageLocale(thread.finderLocale) ? thread.finderLocale : "en";
  await queueEmail(ctx, {
    to: thread.finderEmail,
    subject: finderThreadEmailSubject(kind, locale),
    template: createElement(FinderThreadEmail, { kind, locale, token, warnings }),
    templateName: `messages.finder-${kind}`,
  });
}

/**
 * E-mails the finder the thread link (in their language) when they left an address and the 10-minute
 * slot is free; queued in the caller's transaction, so it goes out only if the change commits.
 * Answers whether an e-mail was queued.
 */
export async function emailFinder(
  ctx: ServiceContext,
  thread: Pick<Thread, "id" | "finderEmail" | "finderLocale">,
  token: string,
  kind: FinderThreadEmailKind,
  options: { warnings?: ScamSignal[]; now?: Date } = {},
): Promise<boolean> {
  if (!thread.finderEmail) return false;
  if (!(await claimFinderEmail(ctx, thread.id, options.now ?? new Date()))) return false;
  await queueFinderEmail(ctx, thread, token, kind, options.warnings ?? []);
  return true;
}
