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
 * Takes the thread's finder-e-mail slot: sets finderNotifiedAt to `now` only when no finder e-mail went
 * out in the last 10 minutes, in one conditional UPDATE, so of ten concurrent replies exactly one wins
 * (the others see the winner's row version and match nothing). updatedAt is kept: this is bookkeeping,
 * not a change the owner sees.
 */
async function claimFinderEmail(ctx: ServiceContext, threadId: string, now: Date): Promise<boolean> {
  const claimed = await ctx.db
    .update(schema.threads)
    .set({ finderNotifiedAt: now, updatedAt: sql`${schema.threads.updatedAt}` })
    .where(
      and(
        eq(schema.threads.id, threadId),
        isNotNull(schema.threads.finderEmail),
        or(isNull(schema.threads.finderNotifiedAt), lt(schema.threads.finderNotifiedAt, new Date(now.getTime() - FINDER_EMAIL_INTERVAL_MS))),
      ),
    )
    .returning({ id: schema.threads.id });
  return claimed.length === 1;
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
  const locale = isMessageLocale(thread.finderLocale) ? thread.finderLocale : "en";
  await queueEmail(ctx, {
    to: thread.finderEmail,
    subject: finderThreadEmailSubject(kind, locale),
    template: createElement(FinderThreadEmail, { kind, locale, token, warnings: options.warnings ?? [] }),
    templateName: `messages.finder-${kind}`,
  });
  return true;
}
