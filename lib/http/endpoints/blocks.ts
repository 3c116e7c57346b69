import { z } from "zod";
import { messageSchema } from "@/lib/services/auth";
import { blockedUserSchema } from "@/lib/services/blocks";
import { defineEndpoint } from "../endpoint";
import { uuidParam } from "../params";

const blocking = ["Reports and blocking"];
const userParams = z.object({ userId: uuidParam() });

/** Blocking users: a blocked user can no longer contact you. */
export const blockEndpoints = {
  block: defineEndpoint({
    operationId: "blockUser",
    method: "POST",
    path: "/api/v1/users/block/{userId}",
    summary: "Block a user",
    description: "The user can no longer contact you about your tags. Blocking yourself is 400, an unknown user 404; blocking twice is the same as once.",
    tags: blocking,
    auth: "user",
    params: userParams,
    response: messageSchema,
    errors: ["VALIDATION_ERROR"],
  }),
  unblock: defineEndpoint({
    operationId: "unblockUser",
    method: "DELETE",
    path: "/api/v1/users/block/{userId}",
    summary: "Unblock a user",
    description: "Idempotent: a user you had not blocked answers the same. Yourself is 400, an unknown user 404.",
    tags: blocking,
    auth: "user",
    params: userParams,
    response: messageSchema,
    errors: ["VALIDATION_ERROR"],
  }),
  list: defineEndpoint({
    operationId: "listBlockedUsers",
    method: "GET",
    path: "/api/v1/users/blocked",
    summary: "Users I blocked",
    description: "Newest first. `knownAs` is the name the user gave as a finder in your latest conversation with them (never their account's name).",
    tags: blocking,
    auth: "user",
    response: z.array(blockedUserSchema),
  }),
};
