import { z } from "zod";
import { messageSchema } from "@/lib/services/auth";
import { ownerReplyInput, ownerThreadSchema, threadListItemSchema, ownerReplySchema, threadStatusInput } from "@/lib/services/messages";
import { defineEndpoint } from "../endpoint";
import { cursorPaginationQuery } from "../pagination";
import { uuidParam } from "../params";

const tags = ["Messages"];

export const threadIdParams = z.object({ threadId: uuidParam() });

/** The owner's inbox of finder conversations. Another owner's conversation is 404, like a missing one. */
export const messageEndpoints = {
  list: defineEndpoint({
    operationId: "listConversations",
    method: "GET",
    path: "/api/v1/messages",
    summary: "List my conversations with finders",
    description:
      "Most recent activity first, each with the newest message's text (`lastMessage`) and the number of finder messages you have not read (`unreadCount`). `tagId` keeps one tag's conversations (another user's tag: an empty list).",
    tags,
    auth: "user",
    query: cursorPaginationQuery.extend({ tagId: uuidParam().optional().meta({ description: "Only this tag's conversations" }) }),
    response: threadListItemSchema,
    responseKind: "paginated",
  }),
  get: defineEndpoint({
    operationId: "getConversation",
    method: "GET",
    path: "/api/v1/messages/{threadId}",
    summary: "Read a conversation",
    description: "The messages oldest first, each with the scam signals found in it. Reading does not mark the conversation read: PATCH …/read does.",
    tags,
    auth: "user",
    params: threadIdParams,
    response: ownerThreadSchema,
  }),
  reply: defineEndpoint({
    operationId: "replyToConversation",
    method: "POST",
    path: "/api/v1/messages/{threadId}/reply",
    summary: "Reply to the finder",
    description:
      "Adds your message and marks the finder's messages read. A finder who left an e-mail address gets the conversation link by e-mail, in their language, at most once every 10 minutes. A finder who called or texted through the phone relay gets it by text from the relay number (`Owner of <item>: …`) while a text still reaches them (`textedToFinder`). A CLOSED or BLOCKED conversation is 409: reopen it first. A reply with a phone number, e-mail or street address to a conversation whose finder messages tripped the scam rules is 409 with `details.reason` `CONFIRM_CONTACT_DETAILS` unless `confirmContactDetails` is true.",
    tags,
    auth: "user",
    params: threadIdParams,
    body: ownerReplyInput,
    response: ownerReplySchema,
    successStatus: 201,
    errors: ["CONFLICT"],
  }),
  markRead: defineEndpoint({
    operationId: "markConversationRead",
    method: "PATCH",
    path: "/api/v1/messages/{threadId}/read",
    summary: "Mark a conversation as read",
    description: "Marks the finder's messages read; marking it again is accepted.",
    tags,
    auth: "user",
    params: threadIdParams,
    response: messageSchema,
  }),
  setStatus: defineEndpoint({
    operationId: "setConversationStatus",
    method: "PATCH",
    path: "/api/v1/messages/{threadId}",
    summary: "Close, block or reopen a conversation",
    description:
      "ACTIVE reopens; CLOSED ends it (the finder can read but no longer write); BLOCKED also stops the finder writing and, when they wrote while signed in, blocks their account from contacting you again (unblocking the conversation, to ACTIVE or CLOSED, lifts that). Setting the current status again is accepted. Answers the conversation.",
    tags,
    auth: "user",
    params: threadIdParams,
    body: threadStatusInput,
    response: ownerThreadSchema,
  }),
};
