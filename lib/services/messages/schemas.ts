import { z } from "zod";
import { SCAM_SIGNALS } from "./scam-rules";

/**
 * Request and record schemas of the finder conversations (anonymous threads) and the owner's inbox,
 * written once: the API contracts (lib/http/endpoints/messages.ts, finder-threads.ts), the dashboard's
 * forms and the tests all parse with them.
 */

export const MESSAGE_MAX_LENGTH = 2000;
export const FINDER_NAME_MAX_LENGTH = 100;

export const threadStatusSchema = z.enum(["ACTIVE", "CLOSED", "BLOCKED"]).meta({ id: "ThreadStatus", description: "ACTIVE: both sides may write. CLOSED or BLOCKED: the finder can no longer write (403); the owner must reopen first (409)." });
export type ThreadStatus = z.infer<typeof threadStatusSchema>;

export const scamSignalSchema = z.enum(SCAM_SIGNALS).meta({
  id: "ScamSignal",
  description:
    "A sign the message may be a scam, shown to both sides beside it: UPFRONT_PAYMENT (money before the return), GIFT_CARD, CRYPTO, DELIVERY_FEE (a delivery, courier or customs fee), OFF_PLATFORM (moving to another app, number or address).",
});

const messageText = (example: string) =>
  z
    .string()
    .trim()
    .min(1, "Write a message.")
    .max(MESSAGE_MAX_LENGTH, `At most ${MESSAGE_MAX_LENGTH} characters.`)
    .meta({ description: `1–${MESSAGE_MAX_LENGTH} characters, trimmed`, example });

/** The finder's address for reply e-mails: typed by the finder and never confirmed, never shown to the owner. */
const finderEmailField = z.string().trim().pipe(z.email("Must be a valid e-mail address.").max(254, "At most 254 characters."));

/** POST /scan/:encryptedId/contact. */
export const contactOwnerInput = z.object({
  finderName: z
    .string()
    .trim()
    .min(1, "Leave the name out, or write one.")
    .max(FINDER_NAME_MAX_LENGTH, `At most ${FINDER_NAME_MAX_LENGTH} characters.`)
    .nullish()
    .meta({ description: "How the finder signs (shown to the owner); optional", example: "Sam" }),
  message: messageText("Hi! I found your backpack at the station. How can I get it back to you?"),
  finderEmail: finderEmailField.nullish().meta({ description: "Optional: where the finder is told of the owner's replies (at most one e-mail per 10 minutes). Never shown to the owner.", example: "sam@example.com" }),
});
export type ContactOwnerInput = z.output<typeof contactOwnerInput>;

/** PUT /scan/thread/:token/email: the same address rules as the contact's `finderEmail`. */
export const finderEmailInput = z.object({
  finderEmail: finderEmailField.meta({ description: "Where the finder is told of the owner's replies (at most one e-mail per 10 minutes). Never shown to the owner.", example: "sam@example.com" }),
});
export type FinderEmailInput = z.output<typeof finderEmailInput>;

export const finderEmailResultSchema = z.object({ message: z.string(), emailOnReply: z.literal(true) }).meta({ id: "FinderEmailResult" });
export type FinderEmailResult = z.infer<typeof finderEmailResultSchema>;

/** POST /scan/thread/:token/reply (the specification names the finder's field `message`). */
export const finderReplyInput = z.object({ message: messageText("It's at the lost-and-found desk of the station now.") });
export type FinderReplyInput = z.output<typeof finderReplyInput>;

/** POST /messages/:threadId/reply (the specification names the owner's field `content`). */
export const ownerReplyInput = z.object({
  content: messageText("Thank you so much! Could you leave it at the station's lost-and-found?"),
  confirmContactDetails: z
    .boolean()
    .optional()
    .meta({ description: "Send a reply with a phone number, e-mail or street address to a conversation flagged as a likely scam (otherwise 409 with details.reason CONFIRM_CONTACT_DETAILS)" }),
});
export type OwnerReplyInput = z.output<typeof ownerReplyInput>;

/** PATCH /messages/:threadId. */
export const threadStatusInput = z.object({ status: threadStatusSchema });

/** A place shared in a conversation: where the finder was, as their browser measured it. */
export const messageLocationSchema = z
  .object({
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    accuracy: z.number().min(0).nullable().meta({ description: "Radius of the position's uncertainty in metres; null when the browser gave none" }),
  })
  .meta({ id: "MessageLocation", example: { latitude: 51.5072, longitude: -0.1276, accuracy: 25 } });
export type MessageLocation = z.infer<typeof messageLocationSchema>;

export const threadMessageSchema = z
  .object({
    id: z.uuid(),
    sender: z.enum(["FINDER", "OWNER"]),
    content: z.string().meta({ description: "The text; for a shared location, a short English line saying so (never the coordinates)" }),
    createdAt: z.iso.datetime(),
    warnings: z.array(scamSignalSchema).meta({ description: "Scam signals found in the content; [] when none" }),
    location: messageLocationSchema
      .nullable()
      .meta({ description: "The place the finder shared with POST /scan/thread/{token}/location; null for a written message" }),
    channel: z.enum(["web", "sms", "call"]).meta({ description: "How it came: the web pages or API, a text through the phone relay, or a call through it" }),
    call: z
      .object({
        outcome: z.enum(["answered", "missed"]),
        durationSeconds: z.number().int().nullable().meta({ description: "Length of an answered call; null when missed" }),
      })
      .nullable()
      .meta({ description: "A call through the phone relay (channel `call`); null otherwise" }),
  })
  .meta({ id: "ThreadMessage" });
export type ThreadMessageRecord = z.infer<typeof threadMessageSchema>;

export const ownerReplySchema = threadMessageSchema
  .extend({
    textedToFinder: z
      .boolean()
      .nullable()
      .meta({
        description:
          "For a conversation the phone relay opened: true when the reply is also texted to the finder from the relay number, false when a text no longer reaches them (7 days after their last text, or they sent STOP); null otherwise",
      }),
  })
  .meta({ id: "OwnerReply" });
export type OwnerReply = z.infer<typeof ownerReplySchema>;

export const threadListItemSchema = z
  .object({
    id: z.uuid(),
    tagId: z.uuid(),
    tagName: z.string().nullable().meta({ description: "The tag's item name; null when unnamed or when the tag is no longer yours" }),
    finderName: z.string().nullable(),
    finderPhoneLastDigits: z
      .string()
      .nullable()
      .meta({ description: "For a conversation the phone relay opened, the last 2 digits of the finder's number (all you ever see of it); null otherwise", example: "42" }),
    lastMessage: z.string().nullable().meta({ description: "Text of the newest message" }),
    unreadCount: z.int().min(0).meta({ description: "Finder messages you have not read" }),
    scamFlagged: z.boolean().meta({ description: "A finder message in this conversation tripped the scam rules" }),
    status: threadStatusSchema,
    lastMessageAt: z.iso.datetime(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "Thread" });
export type ThreadListItem = z.infer<typeof threadListItemSchema>;

export const ownerThreadSchema = z
  .object({
    threadId: z.uuid(),
    tagId: z.uuid(),
    tagName: z.string().nullable(),
    finderName: z.string().nullable(),
    status: threadStatusSchema,
    notifiesFinder: z.boolean().meta({ description: "Whether the finder asked to be e-mailed about your replies (the address itself is never shown)" }),
    relayPhone: z
      .object({
        lastDigits: z.string().meta({ description: "The last 2 digits of the finder's number: all you ever see of it", example: "42" }),
        code: z.string().nullable().meta({ description: "The conversation's code: start a text to the relay number with it to answer this finder when several are texting you", example: "AB7K" }),
        canTextBack: z.boolean().meta({ description: "Whether your text to the relay number still reaches this finder (within 7 days of their last text)" }),
      })
      .nullable()
      .meta({ description: "A conversation the phone relay opened (the finder called or texted); null otherwise" }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    messages: z.array(threadMessageSchema),
  })
  .meta({ id: "OwnerThread" });
export type OwnerThread = z.infer<typeof ownerThreadSchema>;

export const finderThreadSchema = z
  .object({
    threadId: z.uuid(),
    tagName: z.string().nullable().meta({ description: "null when the tag's profile is PRIVATE" }),
    status: threadStatusSchema,
    emailOnReply: z.boolean().meta({ description: "Whether the finder is e-mailed when the owner replies (the address is not answered)" }),
    messages: z.array(threadMessageSchema),
  })
  .meta({ id: "FinderThread" });
export type FinderThread = z.infer<typeof finderThreadSchema>;

export const contactResultSchema = z
  .object({
    threadToken: z.string().meta({ description: "The only key to this conversation: keep it secret", example: "q3Vd1oGk2m8pYb7Q0wzR9xJtH4sLcN6eA5fU1iO3yKg" }),
    threadUrl: z.url().meta({ description: "The finder's page for this conversation", example: "https://tags.example.com/thread/q3Vd1oGk2m8pYb7Q0wzR9xJtH4sLcN6eA5fU1iO3yKg" }),
    message: z.string(),
  })
  .meta({ id: "ContactResult" });
export type ContactResult = z.infer<typeof contactResultSchema>;
