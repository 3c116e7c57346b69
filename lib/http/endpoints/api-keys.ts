import { z } from "zod";
import { createApiKeyInput, messageSchema } from "@/lib/services/auth";
import { defineEndpoint } from "../endpoint";
import { uuidParam } from "../params";

export const apiKeyViewSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.string(),
    last4: z.string(),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable(),
    expiresAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "ApiKey" });

/** The signed-in user's API keys. */
export const apiKeyEndpoints = {
  listApiKeys: defineEndpoint({
    operationId: "listApiKeys",
    method: "GET",
    path: "/api/v1/auth/api-keys",
    summary: "List API keys",
    tags: ["API keys"],
    auth: "user",
    apiKey: false,
    response: z.array(apiKeyViewSchema),
    errors: ["FORBIDDEN"],
  }),
  createApiKey: defineEndpoint({
    operationId: "createApiKey",
    method: "POST",
    path: "/api/v1/auth/api-keys",
    summary: "Create an API key",
    description: "The key (`tag_live_…`, `tag_test_…` or `tag_dev_…` by deployment) is shown in this response only; it acts as its user for everything but account security.",
    tags: ["API keys"],
    auth: "user",
    apiKey: false,
    // Its answer is a secret shown once: never stored for an Idempotency-Key replay.
    idempotency: false,
    successStatus: 201,
    body: createApiKeyInput,
    response: z.object({ id: z.uuid(), name: z.string(), key: z.string(), prefix: z.string(), createdAt: z.iso.datetime(), expiresAt: z.iso.datetime().nullable() }),
    errors: ["FORBIDDEN"],
  }),
  revokeApiKey: defineEndpoint({
    operationId: "revokeApiKey",
    method: "DELETE",
    path: "/api/v1/auth/api-keys/{id}",
    summary: "Revoke an API key",
    tags: ["API keys"],
    auth: "user",
    apiKey: false,
    params: z.object({ id: uuidParam() }),
    response: messageSchema,
    errors: ["FORBIDDEN"],
  }),
};
