import { and, eq } from "drizzle-orm";
import { schema } from "@/db/client";
import { describeError, log } from "@/lib/log";
import { telephonyProvider } from "@/lib/telephony/provider";
import { type ServiceContext, withTransaction } from "@/lib/services/context";
import { refundRelayUnit } from "./spend";
import { ownerAnswerText } from "./webhooks";

/** The claim that makes one web reply one text, however often its job runs (relay_webhook_events' key). */
const STEP = "web-reply";

/**
 * Texts the owner's web reply (a message of a conversation the relay opened) to the finder, as the
 * owner's own text would be (docs/relay.md, "The owner's answer on the web"): the job
 * `relay.text-owner-reply`, enqueued in the reply's transaction. The reply is claimed first, so a retried
 * or duplicated run texts nothing more; a send that fails gives the claim and the day's spent unit back for the retry.
 */
export async function textWebReplyToFinder(ctx: ServiceContext, messageId: string, now = new Date()): Promise<"texted" | "unreachable" | "done"> {
  const outgoing = await withTransaction(ctx, async (tx) => {
    const [claimed] = await tx.db.insert(schema.relayWebhookEvents).values({ sid: messageId, step: STEP, answer: "" }).onConflictDoNothing().returning();
    if (!claimed) return "done" as const;
    const [row] = await tx.db
      .select({ sender: schema.threadMessages.sender, content: schema.threadMessages.content, tagId: schema.threads.tagId, sealed: schema.threads.finderPhoneSealed, until: schema.threads.finderPhoneUntil })
      .from(schema.threadMessages)
      .innerJoin(schema.threads, eq(schema.threads.id, schema.threadMessages.threadId))
      .where(eq(schema.threadMessages.id, messageId));
    const answer = row?.sender === "OWNER" && row.sealed && row.until && row.until > now ? await ownerAnswerText(tx, { tagId: row.tagId, sealed: row.sealed }, row.content, now) : null;
    await tx.db
      .update(schema.relayWebhookEvents)
      .set({ answer: answer?.kind ?? "unreachable" })
      .where(and(eq(schema.relayWebhookEvents.sid, messageId), eq(schema.relayWebhookEvents.step, STEP)));
    return answer?.kind === "text" ? answer.text : ("unreachable" as const);
  });
  if (typeof outgoing === "string") return outgoing;
  try {
    await telephonyProvider().sendSms(outgoing);
  } catch (error) {
    log.warn("owner's web reply not texted", { error: describeError(error), messageId });
    // The claim and the day's unit go back together, so the retry is charged once, like a text sent first time.
    await withTransaction(ctx, async (tx) => {
      await tx.db.delete(schema.relayWebhookEvents).where(and(eq(schema.relayWebhookEvents.sid, messageId), eq(schema.relayWebhookEvents.step, STEP)));
      await refundRelayUnit(tx, now);
    });
    throw error;
  }
  return "texted";
}
