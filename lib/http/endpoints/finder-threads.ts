import { z } from "zod";
import { contactOwnerInput, contactResultSchema, finderEmailInput, finderEmailResultSchema, finderReplyInput, finderThreadSchema, THREAD_TOKEN_PATTERN, threadMessageSchema } from "@/lib/services/messages";
import { encryptedIdParams, ownerSideEffectNote, shareLocationInput } from "@/lib/services/scans";
import { defineEndpoint } from "../endpoint";

const tags = ["Finder conversations"];


/** A thread token as issued (base64url of 32 random bytes); a truncated or malformed one is 404. */
export const threadTokenParams = z.object({
  token: z
    .string()
    .regex(THREAD_TOKEN_PATTERN)
    .meta({ description: "The thread token the contact answered", example: "q3Vd1oGk2m8pYb7Q0wzR9xJtH4sLcN6eA5fU1iO3yKg" }),
});

/** The finder's side: anonymous, reached by the tag's scan URL and then by the thread token alone. */
export const finderThreadEndpoints = {
  contact: defineEndpoint({
    operationId: "contactOwner",
    method: "POST",
    path: "/api/v1/scan/{encryptedId}/contact",
    summary: "Message a tag's owner anonymously",
    description:
      ownerSideEffectNote("a real conversation is opened in the owner's inbox and the owner is notified and e-mailed") +
      "\n\nOpens a conversation and answers its thread token (the only way back to it: keep it secret) and the finder's page for it. `finderEmail`, optional, is only used to tell the finder of the owner's replies (at most one e-mail per 10 minutes) and is never shown to the owner. Sent with a valid credential, the conversation remembers the account, so the owner can block it. Unknown tag 404; a tag that cannot be contacted (unowned or DEACTIVATED) 403; a finder the owner has blocked 403; the tag's own owner (signed in, or with their credential) 403: an owner cannot be the finder of their own tag, nor so claim its reward. At most 10 new conversations an hour from one IP, shared with the finder page's contact form (429).",
    tags,
    auth: "optional",
    // The finder page's contact form takes its limits from here: one budget for both doors.
    rateLimit: ["general", "finderContact"],
    params: encryptedIdParams,
    body: contactOwnerInput,
    response: contactResultSchema,
    successStatus: 201,
    errors: ["FORBIDDEN"],
  }),
  thread: defineEndpoint({
    operationId: "getFinderThread",
    method: "GET",
    path: "/api/v1/scan/thread/{token}",
    summary: "Read a conversation by its thread token",
    description:
      "The finder's view: the messages, oldest first, each with the scam signals found in it. Reading marks the owner's messages read. `tagName` is null when the tag's profile is PRIVATE. An unknown, truncated or malformed token is 404.",
    tags,
    auth: "public",
    params: threadTokenParams,
    response: finderThreadSchema,
  }),
  stream: defineEndpoint({
    operationId: "streamFinderThread",
    method: "GET",
    path: "/api/v1/scan/thread/{token}/stream",
    summary: "Live changes to a conversation (server-sent events)",
    description:
      "A long-lived `text/event-stream` for the finder's page: `event: thread` (data `{change}`, `message` or `status`) when a message is added or the status changes: read the thread again with GET /scan/thread/{token}. When the conversation is closed, blocked or deleted the stream sends `event: closed` (data `{status}`) and ends. A `: ping` comment every 25 s; `retry: 3000`. At most 5 streams per conversation are open: a sixth ends the oldest after `event: superseded`. An unknown token is 404, a CLOSED or BLOCKED conversation 403. At most 60 streams per 10 minutes from one IP (429).",
    tags,
    auth: "public",
    rateLimit: ["finderThreadStreams"],
    params: threadTokenParams,
    responseKind: "event-stream",
    errors: ["FORBIDDEN"],
  }),
  email: defineEndpoint({
    operationId: "setFinderThreadEmail",
    method: "PUT",
    path: "/api/v1/scan/thread/{token}/email",
    summary: "E-mail the finder when the owner replies",
    description:
      "Sets (or replaces) the address the finder is told of the owner's replies at: at most one e-mail per 10 minutes per conversation, with a link back to it. The address is never shown to the owner. A CLOSED or BLOCKED conversation is 403, an unknown token 404. At most 10 a hour from one IP, shared with the thread page's form (429).",
    tags,
    auth: "optional",
    // The thread page's form takes its limits from here: one budget for both doors.
    rateLimit: ["general", "finderEmailOptIns"],
    params: threadTokenParams,
    body: finderEmailInput,
    response: finderEmailResultSchema,
    errors: ["FORBIDDEN"],
  }),
  reply: defineEndpoint({
    operationId: "replyAsFinder",
    method: "POST",
    path: "/api/v1/scan/thread/{token}/reply",
    summary: "Reply as the finder",
    description:
      "Adds the finder's message and notifies the owner. A CLOSED or BLOCKED conversation, a finder account the owner has blocked, or a conversation opened by an account that is now suspended, is 403; an unknown token 404. At most 30 replies per 10 minutes from one IP, shared with the thread page's reply form (429).",
    tags,
    auth: "optional",
    // The thread page's reply form takes its limits from here: one budget for both doors.
    rateLimit: ["general", "finderReplies"],
    params: threadTokenParams,
    body: finderReplyInput,
    response: threadMessageSchema,
    successStatus: 201,
    errors: ["FORBIDDEN"],
  }),
  shareLocation: defineEndpoint({
    operationId: "shareFinderThreadLocation",
    method: "POST",
    path: "/api/v1/scan/thread/{token}/location",
    summary: "Share the finder's location in the conversation",
    description:
      "The finder shares where they are, with consent (the browser asks them), as a message in the conversation: both sides see it with its `location` (latitude, longitude, accuracy) and time, and its `content` says a location was shared (never the coordinates). " +
      "While the tag is still the conversation owner's, the place also appears in the tag's scan list (locationShared true) and on its map. " +
      "The owner is notified (FINDER_LOCATION_SHARED, leading to the conversation; the e-mail and push say how precise the place is but never where it is) at most once per conversation per 10 minutes; a place shared again within that time reaches the owner's inbox and open pages as a quiet message notification, neither e-mailed nor pushed. " +
      "Refused like a reply: a CLOSED or BLOCKED conversation, a finder account the owner has blocked, or a conversation opened by an account that is now suspended, is 403; an unknown token 404. Counts against the finder's reply limit: 30 per 10 minutes from one IP, shared with replies and the thread page's forms (429).",
    tags,
    auth: "optional",
    // A shared place is a message: one budget with the replies, through either door.
    rateLimit: ["general", "finderReplies"],
    params: threadTokenParams,
    body: shareLocationInput,
    response: threadMessageSchema,
    successStatus: 201,
    errors: ["FORBIDDEN"],
  }),
};
