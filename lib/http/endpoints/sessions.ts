import { z } from "zod";
import { messageSchema } from "@/lib/services/auth";
import { defineEndpoint } from "../endpoint";
import { uuidParam } from "../params";

export const sessionViewSchema = z
  .object({
    id: z.uuid(),
    userAgent: z.string().nullable(),
    ipAddress: z.string().nullable().meta({ description: "Masked: IPv4 /24, IPv6 /48" }),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime(),
    current: z.boolean(),
  })
  .meta({ id: "Session" });

/** The signed-in user's sessions (devices). */
export const sessionEndpoints = {
  listSessions: defineEndpoint({
    operationId: "listSessions",
    method: "GET",
    path: "/api/v1/auth/sessions",
    summary: "List active sessions",
    tags: ["Sessions"],
    auth: "user",
    apiKey: false,
    response: z.array(sessionViewSchema),
    errors: ["FORBIDDEN"],
  }),
  revokeOtherSessions: defineEndpoint({
    operationId: "revokeOtherSessions",
    method: "DELETE",
    path: "/api/v1/auth/sessions",
    summary: "Sign out everywhere else",
    description: "Revokes every session except the current one.",
    tags: ["Sessions"],
    auth: "user",
    apiKey: false,
    response: z.object({ message: z.string(), count: z.int() }),
    errors: ["FORBIDDEN"],
  }),
  revokeSession: defineEndpoint({
    operationId: "revokeSession",
    method: "DELETE",
    path: "/api/v1/auth/sessions/{id}",
    summary: "Revoke a session",
    tags: ["Sessions"],
    auth: "user",
    apiKey: false,
    params: z.object({ id: uuidParam() }),
    response: messageSchema,
    errors: ["FORBIDDEN"],
  }),
};
