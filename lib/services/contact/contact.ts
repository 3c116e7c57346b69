import { createElement } from "react";
import { schema } from "@/db/client";
import { NoticeEmail } from "@/emails/notice";
import { queueEmail } from "@/lib/email/queue";
import { supportEmail } from "@/lib/env";
import { withTransaction, type ServiceContext } from "@/lib/services/context";
import { hashClientIp } from "@/lib/services/visitor";
import type { ContactInput, MessageResult } from "./schemas";

/** The answer to a contact message: the specification promises a reply within 24 hours. */
export const CONTACT_RECEIVED = "Thanks — we reply within 24 hours.";

/**
 * POST /contact: stores the message (the sender's IP only as a keyed hash), acknowledges it to the sender and
 * forwards it to SUPPORT_EMAIL with the sender as Reply-To, all in one transaction: both e-mails go out only
 * if the message was saved. The sender's words travel in the bodies (escaped by React); name and subject are
 * single-line by schema, and the e-mail layer refuses line breaks in headers anyway.
 */
export async function sendContactMessage(ctx: ServiceContext, input: ContactInput): Promise<MessageResult> {
  const ip = ctx.actor.kind === "public" || ctx.actor.kind === "user" ? ctx.actor.ip : "";
  await withTransaction(ctx, async (tx) => {
    const [saved] = await tx.db
      .insert(schema.contactMessages)
      .values({ name: input.name, email: input.email, subject: input.subject, message: input.message, ipHash: hashClientIp(ip) })
      .returning({ id: schema.contactMessages.id });
    await queueEmail(tx, {
      to: input.email,
      subject: "We received your message",
      templateName: "contact.acknowledge",
      template: createElement(NoticeEmail, {
        heading: `Thanks for writing, ${input.name}`,
        paragraphs: [`We received your message “${input.subject}” and reply within 24 hours.`, "You don't need to do anything else; just reply to our answer if you have more to add."],
        reason: "You receive this because this address was given on our contact form.",
      }),
    });
    await queueEmail(tx, {
      to: supportEmail(),
      subject: `Contact form: ${input.subject}`,
      templateName: "contact.forward",
      replyTo: input.email,
      template: createElement(NoticeEmail, {
        heading: input.subject,
        paragraphs: [`From: ${input.name} <${input.email}>`, ...input.message.split(/\r?\n\s*\r?\n/), `Message ${saved!.id}. Reply to this e-mail to answer the sender.`],
        reason: "Sent by the contact form. The reply promise is 24 hours.",
      }),
    });
  });
  return { message: CONTACT_RECEIVED };
}
