import { z } from "zod";
import { defineEndpoint } from "../endpoint";

export const healthStatus = z
  .object({
    status: z.enum(["ok", "degraded"]),
    db: z.enum(["ok", "down"]),
    cache: z.enum(["ok", "memory", "down"]).meta({ description: "Rate-limit store: Redis/Upstash (ok), process memory, or unreachable" }),
  })
  .meta({ id: "HealthStatus" });

export const systemEndpoints = {
  health: defineEndpoint({
    operationId: "getHealth",
    method: "GET",
    path: "/api/health",
    summary: "Health check",
    description: "Checks the database and the rate-limit store. Answers 503 with status `degraded` when the database does not answer. Not wrapped in the envelope.",
    tags: ["System"],
    auth: "public",
    versioned: false,
    response: healthStatus,
    responseKind: "json",
  }),
  openapi: defineEndpoint({
    operationId: "getOpenApiDocument",
    method: "GET",
    path: "/api/v1/openapi.json",
    summary: "This OpenAPI document",
    description: "The OpenAPI 3.1 description of the API, generated from the schemas that validate requests. Not wrapped in the envelope.",
    tags: ["System"],
    auth: "public",
  }),
  unknownPath: defineEndpoint({
    method: "GET",
    path: "/api/v1/{path}",
    summary: "Unknown API path",
    tags: ["System"],
    auth: "public",
    hidden: true,
    params: z.object({ path: z.array(z.string()).optional() }),
  }),
};
